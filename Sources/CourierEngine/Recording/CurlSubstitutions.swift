import CourierSecrets
import CourierWorkflow

/// The secrets of a `--curl` command with the shell variable each is shown as.
///
/// A secret's value is `$COURIER_SECRET_<NAME>`. Where a secret travels percent-encoded — a
/// `query:` value, a `form:` field, a `| url_encode` — it is sent as Courier's one encoding
/// (`Filters.percentEncode`), and that text stands in the command as a variable of its own,
/// `$COURIER_SECRET_<NAME>_PCT`, at the place it was sent: the URL and the body keep their
/// order and encoding, so a signed URL stays valid (curl would re-encode what it encodes).
struct CurlSubstitutions {
    /// Text to replace, with its variable; longest first so a secret holding another is
    /// replaced whole.
    let replacements: [(value: String, variable: String)]
    /// The comment line that asks for each variable to be exported.
    let exports: [String: String]

    init(policy: MaskingPolicy) {
        var seen = Set<String>()
        var named: [(value: String, variable: String)] = []
        var unnamed: [(value: String, variable: String)] = []
        var exports: [String: String] = [:]
        func unique(_ base: String) -> String {
            var variable = base
            while seen.contains(variable) { variable += "_" }
            seen.insert(variable)
            return variable
        }
        for (index, secret) in policy.secrets.enumerated() where !secret.value.isEmpty {
            // An unnamed secret (a credential header's whole value) gets its position.
            let variable = unique(MaskingPolicy.shellVariable(forName: secret.name ?? String(index + 1)))
            exports[variable] = "# export \(variable)=…"
            var forms = [(secret.value, variable)]
            let encoded = Filters.percentEncode(secret.value)
            if encoded != secret.value {
                let encodedVariable = unique(variable + "_PCT")
                exports[encodedVariable] = "# export \(encodedVariable)=…  (\(variable) percent-encoded as sent:"
                    + " every byte but A-Z a-z 0-9 - . _ ~ as %XX, upper-case hex)"
                forms.append((encoded, encodedVariable))
            }
            if secret.name == nil { unnamed += forms } else { named += forms }
        }
        // Named secrets first: a credential header registered whole (`Bearer …`) then
        // still shows the name of the secret inside it.
        let longestFirst = { (first: (value: String, variable: String), second: (value: String, variable: String)) in
            first.value.utf8.count > second.value.utf8.count
        }
        replacements = named.sorted(by: longestFirst) + unnamed.sorted(by: longestFirst)
        self.exports = exports
    }
}
