/// A position in a source file: 1-based line and column.
///
/// Columns count Unicode scalars (what libyaml counts), not bytes and not
/// grapheme clusters, so a position converted once at the libyaml boundary
/// stays valid all the way to the renderer.
package struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    package var file: String
    package var line: Int
    package var column: Int

    package init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// Orders by file, then line, then column, so sorted diagnostics read top to bottom.
    package static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        if lhs.file != rhs.file { return lhs.file < rhs.file }
        if lhs.line != rhs.line { return lhs.line < rhs.line }
        return lhs.column < rhs.column
    }

    /// `file:line:column`, the form editors and terminals turn into links.
    package var description: String { "\(file):\(line):\(column)" }

    /// The location `count` scalars further on the same line.
    package func advanced(by count: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column + count)
    }
}

/// A half-open range of source text: `end` is the first position after it.
package struct SourceRange: Sendable, Hashable, CustomStringConvertible {
    package var start: SourceLocation
    package var end: SourceLocation

    package init(start: SourceLocation, end: SourceLocation) {
        self.start = start
        self.end = end
    }

    /// An empty range at `location` (rendered as a single caret).
    package init(at location: SourceLocation) {
        self.start = location
        self.end = location
    }

    package var file: String { start.file }

    package var description: String { start.description }

    /// The smallest range covering both.
    package func union(_ other: SourceRange) -> SourceRange {
        SourceRange(start: min(start, other.start), end: max(end, other.end))
    }
}
