/// Header fields whose values are credentials whatever the workflow says:
/// shown as `Bearer ***` (the scheme tells a reader which auth was used) or `***`.
///
/// Applied when an attempt is recorded (so no result holds them) and again by
/// reporters. The engine registers these values as secrets too, so the output
/// door masks them wherever else they appear (a body echoing them back).
package enum CredentialHeaders {
    package static let names = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// The value to show for `field`: its own, or the credential rule's.
    package static func shown(_ field: HeaderField) -> String {
        guard isCredential(field.name) else { return field.value }
        let parts = field.value.split(separator: " ", maxSplits: 1)
        if parts.count == 2, ["bearer", "basic", "digest", "token"].contains(parts[0].lowercased()) {
            return "\(parts[0]) ***"
        }
        return "***"
    }

    /// Whether `name` is one of ``names``, ignoring ASCII case. Asked of every header of
    /// every response recorded: most are not credentials, and their length tells at once.
    package static func isCredential(_ name: String) -> Bool {
        // Each length belongs to one name of the list: compared with that one only.
        let candidate: StaticString
        switch name.utf8.count {
        case 6: candidate = "cookie"
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
