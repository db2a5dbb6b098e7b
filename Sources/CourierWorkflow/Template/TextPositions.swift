import CourierDiagnostics

/// Maps offsets inside a scalar's text (in Unicode scalars) to file positions.
///
/// Exact for single-line plain scalars and for quoted ones without escapes,
/// where the text is the source verbatim; otherwise every offset maps to the
/// scalar's start (escapes and line folding break the correspondence).
struct TextPositions {
    let base: SourceLocation
    let exact: Bool

    init(base: SourceLocation, exact: Bool) {
        self.base = base
        self.exact = exact
    }

    /// For a YAML scalar node: works out where its text begins and whether offsets are exact.
    init(node: YAMLNode) {
        let range = node.range
        guard let scalar = node.scalar, range.start.line == range.end.line else {
            self.init(base: range.start, exact: false)
            return
        }
        let width = range.end.column - range.start.column
        let count = scalar.text.unicodeScalars.count
        switch scalar.style {
        case .plain where width == count:
            self.init(base: range.start, exact: true)
        case .singleQuoted where width == count + 2, .doubleQuoted where width == count + 2:
            self.init(base: range.start.advanced(by: 1), exact: true)
        default:
            self.init(base: range.start, exact: false)
        }
    }

    func location(_ offset: Int) -> SourceLocation {
        exact ? base.advanced(by: offset) : base
    }

    func range(_ start: Int, _ end: Int) -> SourceRange {
        exact ? SourceRange(start: base.advanced(by: start), end: base.advanced(by: end)) : SourceRange(at: base)
    }
}
