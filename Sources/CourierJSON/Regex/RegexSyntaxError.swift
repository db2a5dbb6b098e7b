/// Why a pattern is not a valid regular expression, and where.
///
/// `offset` counts Unicode scalars from the start of the pattern (0-based), so a caller that
/// knows where the pattern sits in a file can point at the culprit.
public struct RegexSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public let offset: Int
    public let message: String

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    /// `missing ')' at offset 3`.
    public var description: String { "\(message) at offset \(offset)" }
}
