import CourierJSON

/// The readings of a value that checks, filters and templates share: one definition each.
extension JSONValue {
    /// How a value reads inside a longer string: strings as they are, other scalars as
    /// their JSON text, arrays and objects as compact JSON.
    package var interpolationText: String {
        switch self {
        case .string(let s): s
        case .number(let n): n.text
        case .bool(let b): b ? "true" : "false"
        case .null: "null"
        case .array, .object: serialized()
        }
    }

    /// One line, cut to a readable length, for messages.
    package var shortText: String {
        // Serialise only what can be shown: the value may be a 20 MB body.
        let (text, omitted) = serialized(maxBytes: 320)
        guard omitted > 0 || text.count > 80 else { return text }
        return String(text.prefix(77)) + "…"
    }

    /// -1, 0 or 1 for two numbers or two strings; nil for anything else. Numbers are ordered
    /// by their exact decimal values, as equality compares them (never through doubles, which
    /// cannot tell 9007199254740993 from 9007199254740992).
    package static func order(_ a: JSONValue, _ b: JSONValue) -> Int? {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return JSONNumber.order(x, y)
        case (.string(let x), .string(let y)):
            return x < y ? -1 : (x > y ? 1 : 0)
        default:
            return nil
        }
    }
}

/// `a string`, `an integer`: the article English puts before a word.
func withArticle(_ word: String) -> String {
    ["a", "e", "i", "o", "u"].contains(word.prefix(1)) ? "an \(word)" : "a \(word)"
}
