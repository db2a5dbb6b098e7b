import CourierSecrets

/// Header fields whose values are credentials whatever the workflow says:
/// shown as `Bearer ***` (the scheme tells a reader which auth was used) or `***`.
///
/// Applied when an attempt is recorded (so no result holds them) and again by
/// reporters. The engine registers these values as secrets too, so the output
/// door masks them wherever else they appear (a body echoing them back).
package enum CredentialHeaders {
    package static var names: [String] { CredentialHeaderNames.all }

    /// The value to show for `field`: its own, or the credential rule's.
    package static func shown(_ field: HeaderField) -> String {
        guard isCredential(field.name) else { return field.value }
        let parts = field.value.split(separator: " ", maxSplits: 1)
        if parts.count == 2, ["bearer", "basic", "digest", "token"].contains(parts[0].lowercased()) {
            return "\(parts[0]) ***"
        }
        return "***"
    }

    /// Whether `name` is a credential header's, ignoring ASCII case.
    package static func isCredential(_ name: String) -> Bool {
        CredentialHeaderNames.contains(name)
    }
}
