/// The header fields whose values are credentials whatever a workflow or an app says:
/// recorded and shown as `Bearer ***` or `***`, their values registered as secrets.
///
/// One list for the runner, its reports and the `Courier` library (`CourierHTTP` describes
/// requests with it too): `X-Api-Key` is masked wherever `Authorization` is.
public enum CredentialHeaderNames {
    /// In lower case.
    public static let all = ["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key"]

    /// Whether `name` is one of ``all``, ignoring ASCII case. Asked of every header of every
    /// response recorded: most are not credentials, and their length tells at once.
    public static func contains(_ name: String) -> Bool {
        // Each length belongs to one name of the list: compared with that one only.
        let candidate: StaticString
        switch name.utf8.count {
        case 6: candidate = "cookie"
        case 7: candidate = "api-key"
        case 9: candidate = "x-api-key"
        case 10: candidate = "set-cookie"
        case 13: candidate = "authorization"
        case 19: candidate = "proxy-authorization"
        default: return false
        }
        let lowercase = UnsafeBufferPointer(start: candidate.utf8Start, count: candidate.utf8CodeUnitCount)
        // Over the name's own bytes (a native or small string has them at hand), no copy.
        return name.utf8.withContiguousStorageIfAvailable { bytes in
            for index in 0..<bytes.count where folded(bytes[index]) != lowercase[index] { return false }
            return true
        } ?? equalIgnoringASCIICase(name, candidate.description)
    }

    private static func folded(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// `name` equals the lowercase `lowercaseName`, ignoring ASCII case (without `lowercased()`,
    /// which allocated for every `Server`, `Connection` and `Last-Modified` of every response).
    private static func equalIgnoringASCIICase(_ name: String, _ lowercaseName: String) -> Bool {
        guard name.utf8.count == lowercaseName.utf8.count else { return false }
        for (x, y) in zip(name.utf8, lowercaseName.utf8) where folded(x) != y { return false }
        return true
    }
}
