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
        shortLeaves(of: value, named: name, first: true) { value in
            switch value {
            case .string(let s): .text(s)
            case .number(let n): .text(n.text)
            case .array(let items): .list(items)
            case .object(let object): .map(Array(zip(object.keys, object.values)))
            case .null, .bool: .none
            }
        }.first.map { ($0.path, $0.length) }
    }

    /// What a secret's value is made of, as ``shortLeaves(of:named:first:parts:)`` walks it.
    package enum Part<Node> {
        /// A leaf that is masked as text (a string, or a number as written).
        case text(String)
        case list([Node])
        case map([(key: String, value: Node)])
        /// A leaf that is never masked (`null`, `true`).
        case none
    }

    /// The leaves of a secret's value too short to mask, in written order, each with its path
    /// (`creds.b[1]`): one walk for a value as written (at load) and as computed (at run time).
    package static func shortLeaves<Node>(of root: Node, named name: String, first: Bool = false,
                                          parts: (Node) -> Part<Node>) -> [(path: String, length: Int, node: Node)] {
        var found: [(path: String, length: Int, node: Node)] = []
        // A stack, not recursion: values may be nested 512 deep. Reversed: the first item comes off first.
        var pending = [(name, root)]
        while let (path, node) = pending.popLast() {
            switch parts(node) {
            case .text(let text) where isTooShort(text):
                found.append((path, text.count, node))
                if first { return found }
            case .list(let items): pending += items.enumerated().reversed().map { ("\(path)[\($0.offset)]", $0.element) }
            case .map(let pairs): pending += pairs.reversed().map { ("\(path).\($0.key)", $0.value) }
            case .text, .none: break
            }
        }
        return found
    }

    /// The warning for a `secret: true` capture shorter than ``minimum``.
    package static func shortCaptureWarning(name: String) -> String {
        "captured secret '\(name)' is shorter than \(minimum) characters: it is masked, but short values may mask unrelated text"
    }
}
