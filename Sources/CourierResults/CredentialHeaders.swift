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
        switch name.utf8.count {
        case 6, 10, 13, 19: names.contains { equalIgnoringASCIICase(name, $0) }
        default: false
        }
    }

    /// `name` equals the lowercase `lowercaseName`, ignoring ASCII case (without `lowercased()`,
    /// which allocated for every `Server`, `Connection` and `Last-Modified` of every response).
    private static func equalIgnoringASCIICase(_ name: String, _ lowercaseName: String) -> Bool {
        guard name.utf8.count == lowercaseName.utf8.count else { return false }
        for (x, y) in zip(name.utf8, lowercaseName.utf8) {
            let folded = x >= UInt8(ascii: "A") && x <= UInt8(ascii: "Z") ? x | 0x20 : x
            if folded != y { return false }
        }
        return true
    }
}
