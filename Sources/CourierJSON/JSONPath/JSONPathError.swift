/// Why and where a JSONPath query is invalid.
///
/// `offset` is 0-based and counts Unicode scalars from the start of the query, so a caret can
/// be drawn under the offending character.
public struct JSONPathError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    /// A lower-case message that quotes the culprit, e.g. `unexpected character ']' in selector`.
    public var message: String

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    /// `offset 6: message`.
    public var description: String { "offset \(offset): \(message)" }
}
