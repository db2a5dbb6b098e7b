import CourierHTTP
import CourierSecrets

/// The arguments of a `--curl` command as they are added, quoted for sh, with the secrets'
/// variables they use and the notes to print before the command.
struct CurlArguments {
    let policy: MaskingPolicy
    let substitutions: CurlSubstitutions
    private var arguments = ["curl"]
    private var used: [String] = []
    private var notes: [String] = []
    private var maskedAny = false

    init(policy: MaskingPolicy, substitutions: CurlSubstitutions) {
        self.policy = policy
        self.substitutions = substitutions
    }

    mutating func flag(_ name: String) { arguments.append(name) }

    mutating func option(_ name: String, _ value: String) {
        arguments.append(name)
        arguments.append(quoted(value))
    }

    /// An option whose value is already shell text (see ``basicHeader(_:scheme:credentials:)``).
    mutating func option(_ name: String, raw value: String) {
        arguments.append(name)
        arguments.append(value)
    }

    /// A positional argument (the URL).
    mutating func argument(_ text: String) { arguments.append(quoted(text)) }

    mutating func note(_ line: String) { notes.append(line) }

    /// `text` quoted for sh, each secret in it a variable; masked before quoting, since
    /// quoting splits a form (`'` becomes `'\''`) so that no mask would find it afterwards.
    mutating func quoted(_ text: String) -> String {
        let segments = CurlCommand.segments(of: text, substitutions: substitutions.replacements).map { segment -> CurlCommand.Segment in
            guard case .text(let literal) = segment else { return segment }
            let masked = policy.mask(literal)
            if masked != literal { maskedAny = true }
            return .text(masked)
        }
        for case .variable(let name) in segments where !used.contains(name) { used.append(name) }
        return CurlCommand.quoted(segments)
    }

    /// `"Authorization: Basic $(printf '%s' "bob:$COURIER_SECRET_PASSWORD" | base64 | tr -d '\n')"`:
    /// the header as a header (in its place among the others, where `-u` would move it), its
    /// base64 built by the shell from the credentials with the secret as a variable.
    mutating func basicHeader(_ field: HTTPHeaders.Field, scheme: String, credentials: String) -> String {
        let prefix = "\(field.name): \(scheme) "
        let escaped = prefix.unicodeScalars.map { "$`\"\\".unicodeScalars.contains($0) ? "\\\($0)" : String($0) }.joined()
        return "\"\(escaped)$(printf '%s' \(quoted(credentials)) | base64 | tr -d '\\n')\""
    }

    /// The comment lines (variables to export, notes), then the command.
    func text() -> String {
        var lines = used.compactMap { substitutions.exports[$0] }
        lines += notes
        let command = arguments.joined(separator: " ")
        // Masked once more whole, as every output is (a form across two arguments).
        let masked = policy.mask(command)
        if maskedAny || masked != command {
            // A secret sent encoded (JSON-escaped, base64, percent-encoded in the path): no variable holds that form.
            lines.append("# \(MaskingPolicy.mask) stands for a secret sent in an encoded form: put that form in before running")
        }
        lines.append(masked)
        return lines.joined(separator: "\n")
    }
}
