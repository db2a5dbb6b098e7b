/// A position in a source file: 1-based line and column.
///
/// Columns count Unicode scalars (what libyaml counts), not bytes and not
/// grapheme clusters, so a position converted once at the libyaml boundary
/// stays valid all the way to the renderer.
///
/// Line and column are stored as 32-bit numbers: every node of a parsed
/// workflow carries locations, and halving them shrank large files' trees.
/// Values beyond 32 bits (a line of more than 2 GB) are clamped.
package struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    package var file: String
    private var storedLine: Int32
    private var storedColumn: Int32

    package var line: Int {
        get { Int(storedLine) }
        set { storedLine = Int32(clamping: newValue) }
    }

    package var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = Int32(clamping: newValue) }
    }

    package init(file: String, line: Int, column: Int) {
        self.file = file
        self.storedLine = Int32(clamping: line)
        self.storedColumn = Int32(clamping: column)
    }

    /// Orders by file, then line, then column, so sorted diagnostics read top to bottom.
    package static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        if lhs.file != rhs.file { return lhs.file < rhs.file }
        if lhs.storedLine != rhs.storedLine { return lhs.storedLine < rhs.storedLine }
        return lhs.storedColumn < rhs.storedColumn
    }

    /// `file:line:column`, the form editors and terminals turn into links.
    package var description: String { "\(file):\(line):\(column)" }

    /// The location `count` scalars further on the same line.
    package func advanced(by count: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column + count)
    }
}

/// A half-open range of source text: `end` is the first position after it.
///
/// A range lies in one file: it stores the file name once (`end` reports the
/// start's file), which keeps the range at 32 bytes with a single reference —
/// ranges are copied into every decoded value.
package struct SourceRange: Sendable, Hashable, CustomStringConvertible {
    package private(set) var file: String
    private var startLine: Int32
    private var startColumn: Int32
    private var endLine: Int32
    private var endColumn: Int32

    package var start: SourceLocation {
        get { SourceLocation(file: file, line: Int(startLine), column: Int(startColumn)) }
        set {
            file = newValue.file
            startLine = Int32(clamping: newValue.line)
            startColumn = Int32(clamping: newValue.column)
        }
    }

    package var end: SourceLocation {
        get { SourceLocation(file: file, line: Int(endLine), column: Int(endColumn)) }
        set {
            endLine = Int32(clamping: newValue.line)
            endColumn = Int32(clamping: newValue.column)
        }
    }

    package init(start: SourceLocation, end: SourceLocation) {
        self.file = start.file
        self.startLine = Int32(clamping: start.line)
        self.startColumn = Int32(clamping: start.column)
        self.endLine = Int32(clamping: end.line)
        self.endColumn = Int32(clamping: end.column)
    }

    /// An empty range at `location` (rendered as a single caret).
    package init(at location: SourceLocation) {
        self.init(start: location, end: location)
    }

    /// A range from 1-based line/column pairs, without building locations first.
    package init(file: String, startLine: Int, startColumn: Int, endLine: Int, endColumn: Int) {
        self.file = file
        self.startLine = Int32(clamping: startLine)
        self.startColumn = Int32(clamping: startColumn)
        self.endLine = Int32(clamping: endLine)
        self.endColumn = Int32(clamping: endColumn)
    }

    package var description: String { start.description }

    /// The smallest range covering both.
    package func union(_ other: SourceRange) -> SourceRange {
        SourceRange(start: min(start, other.start), end: max(end, other.end))
    }
}
