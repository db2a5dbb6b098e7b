/// Why and where a JSON document could not be parsed.
///
/// `offset` is the 0-based byte offset of the offending byte; `line` and `column` are 1-based,
/// the column counted in Unicode scalars from the start of the line.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var line: Int
    public var column: Int
    /// A lower-case message that quotes the culprit, e.g. `unexpected character '}'`.
    public var message: String

    public init(offset: Int, line: Int, column: Int, message: String) {
        self.offset = offset
        self.line = line
        self.column = column
        self.message = message
    }

    /// `3:14: message`.
    public var description: String { "\(line):\(column): \(message)" }
}

extension JSONParseError {
    /// Builds an error at `offset`, computing line and column from the document bytes.
    static func at(_ offset: Int, in bytes: UnsafeBufferPointer<UInt8>, _ message: String) -> JSONParseError {
        var line = 1
        var lineStart = 0
        let end = min(offset, bytes.count)
        var i = 0
        while i < end {
            if bytes[i] == UInt8(ascii: "\n") {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        var column = 1
        i = lineStart
        while i < end {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return JSONParseError(offset: offset, line: line, column: column, message: message)
    }
}
