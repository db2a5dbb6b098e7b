import CourierJSON
import CourierSecrets

/// The shortest secret Courier can mask without hiding unrelated text.
///
/// Masking replaces every occurrence of a value, so a two-character secret would
/// turn every `ab` in every report into `***` and protect nothing. A declared
/// secret (`secrets:`, or a `--var`/`--vars-file` value for one) shorter than this
/// is an error; a captured one is masked anyway, with a warning. An empty value
/// has nothing to leak and passes.
package enum SecretLength {
    /// The masking policy's own threshold: below it a value is masked as written only.
    package static let minimum = SecretForms.minimumLength

    /// Whether `text` is a non-empty value shorter than ``minimum`` characters.
    package static func isTooShort(_ text: String) -> Bool {
        !text.isEmpty && text.count < minimum
    }

    /// `secret 'pin' is too short to mask safely (3 characters; at least 4)`.
    package static func tooShortMessage(name: String, length: Int) -> String {
        "secret '\(name)' is too short to mask safely (\(length) character\(length == 1 ? "" : "s"); at least \(minimum))"
    }

    /// The first string or number leaf of `value` that is too short to mask, with its path
    /// (`creds.b[1]`), for a secret's value known only once computed or given on the command line.
    package static func firstShortLeaf(of value: JSONValue, named name: String) -> (path: String, length: Int)? {
        // A stack, not recursion: values may be nested 512 deep.
        var pending = [(name, value)]
        while let (path, value) = pending.popLast() {
            switch value {
            case .string(let s) where isTooShort(s): return (path, s.count)
            case .number(let n) where isTooShort(n.text): return (path, n.text.count)
            case .array(let items): pending += items.enumerated().reversed().map { ("\(path)[\($0.offset)]", $0.element) }
            case .object(let object): pending += zip(object.keys, object.values).reversed().map { ("\(path).\($0.0)", $0.1) }
            default: break
            }
        }
        return nil
    }

    /// The warning for a `secret: true` capture shorter than ``minimum``.
    package static func shortCaptureWarning(name: String) -> String {
        "captured secret '\(name)' is shorter than \(minimum) characters: it is masked, but short values may mask unrelated text"
    }
}
