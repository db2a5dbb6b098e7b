import CourierDiagnostics
import CourierJSON

extension WorkflowDecoder {
    /// `text` (the text of scalar `node`: an `expect.json` key or a `json:` capture) compiled
    /// as a JSONPath whose templates stand for values; nil after reporting why it is invalid,
    /// at the offending character inside the scalar.
    func jsonQuery(_ text: String, _ node: YAMLNode) -> JSONQuery? {
        let before = diagnostics.count
        let template = parseTemplate(text, node)
        // A broken template was reported already; the query around it would only repeat it.
        if diagnostics[before...].contains(where: { $0.severity == .error }) { return nil }

        var pieces: [JSONPathPiece] = []
        var templates: [Template] = []
        // Where each piece starts among the parser's offsets (a value counts one) and in the
        // scalar's text, and which value it is.
        var spans: [(parsed: Int, source: Int, value: Int?)] = []
        var parsed = 0
        var source = 0
        for part in template.parts {
            spans.append((parsed, source, nil))
            switch part {
            case .literal(let literal):
                pieces.append(.text(literal))
                let length = literal.unicodeScalars.count
                parsed += length
                source += length
            case .expression(_, let range):
                spans[spans.count - 1].value = templates.count
                pieces.append(.value)
                templates.append(Template(parts: [part], range: range))
                parsed += 1
                // Exact positions are on one line; otherwise every offset maps to the start anyway.
                source += range.start.line == range.end.line ? range.end.column - range.start.column : 0
            }
        }
        do {
            let path = try JSONPath(pieces: pieces)
            return JSONQuery(text: text, path: path, templates: templates, range: node.range)
        } catch {
            let range: SourceRange
            if let span = spans.last(where: { $0.parsed <= error.offset }), let value = span.value, span.parsed == error.offset {
                range = templates[value].range
            } else {
                let span = spans.last(where: { $0.parsed <= error.offset }) ?? (0, 0, nil)
                let offset = span.source + (error.offset - span.parsed)
                let positions = TextPositions(node: node)
                if !positions.exact, templates.isEmpty, let columns = escapedColumns(node) {
                    // A quoted key with escapes: each character of the text has its own column.
                    let start = node.range.start
                    let at = SourceLocation(file: start.file, line: start.line, column: columns[min(offset, columns.count - 1)])
                    range = SourceRange(start: at, end: offset < columns.count - 1 ? at.advanced(by: 1) : at)
                } else {
                    range = positions.range(offset, offset < source ? offset + 1 : offset)
                }
            }
            self.error("invalid JSONPath '\(text)': \(error.message)", at: range)
            return nil
        }
    }

    /// For a quoted scalar on one line whose escapes (`\u00e9`, `''`) make its text differ
    /// from its source: the column of each character of the text, then of the closing quote.
    /// Nil when the source is not at hand or does not read back to the same text.
    private func escapedColumns(_ node: YAMLNode) -> [Int]? {
        let range = node.range
        guard let scalar = node.scalar, range.start.line == range.end.line,
              scalar.style == .doubleQuoted || scalar.style == .singleQuoted,
              let line = loading?.sources.fileIfAvailable(range.start.file)?.line(range.start.line) else { return nil }
        let raw = Array(line.unicodeScalars)
        var i = range.start.column  // 0-based index of the character after the opening quote
        var columns: [Int] = []
        var text = String.UnicodeScalarView()
        let double = scalar.style == .doubleQuoted
        while i < raw.count, i < range.end.column - 2 {
            columns.append(i + 1)
            if double, raw[i] == "\\", i + 1 < raw.count {
                let lengths: [Unicode.Scalar: Int] = ["x": 4, "u": 6, "U": 10]
                let length = lengths[raw[i + 1]] ?? 2
                let digits = String(String.UnicodeScalarView(raw[min(i + 2, raw.count)..<min(i + length, raw.count)]))
                if length > 2 {
                    guard let value = UInt32(digits, radix: 16), let decoded = Unicode.Scalar(value) else { return nil }
                    text.append(decoded)
                } else {
                    text.append(Self.yamlEscapes[raw[i + 1]] ?? raw[i + 1])
                }
                i += length
            } else if !double, raw[i] == "'", i + 1 < raw.count, raw[i + 1] == "'" {
                text.append("'")
                i += 2
            } else {
                text.append(raw[i])
                i += 1
            }
        }
        guard String(text) == scalar.text else { return nil }
        return columns + [i + 1]
    }

    /// YAML's one-character escapes that do not stand for themselves.
    private static let yamlEscapes: [Unicode.Scalar: Unicode.Scalar] = [
        "0": "\u{0}", "a": "\u{7}", "b": "\u{8}", "t": "\t", "n": "\n", "v": "\u{B}", "f": "\u{C}",
        "r": "\r", "e": "\u{1B}", "N": "\u{85}", "_": "\u{A0}", "L": "\u{2028}", "P": "\u{2029}",
    ]

    /// Warns where a query that yields a list (not singular) meets what only a single value
    /// can meet: a plain scalar, or a predicate such as `gt` or `starts_with`.
    func warnIfExpectingOneValue(_ matcher: Matcher, from query: JSONQuery) {
        guard !query.isSingular else { return }
        switch matcher {
        case .equals(let value):
            guard let shown = Self.scalarText(value) else { return }
            diagnostics.append(.warning(
                "'\(query.text)' yields a list (it can select any number of nodes), never a single \(Self.kindName(value)); "
                    + "did you mean [\(shown)] or { each: \(shown) }?", at: query.range))
        case .predicates(let predicates, _):
            for predicate in predicates where predicate.definition.checksOneValue(predicate.operand) {
                let name = predicate.name
                diagnostics.append(.warning(
                    "'\(name)' checks a single value, but '\(query.text)' yields a list (it can select any number of nodes); "
                        + "did you mean { each: { \(name): … } }?", at: predicate.range))
            }
        }
    }

    /// The YAML text of a plain scalar without templates; nil for anything else.
    private static func scalarText(_ value: TemplateValue) -> String? {
        switch value.kind {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .number(let text, _): text
        case .string(let template): template.literalText
        case .array, .object: nil
        }
    }

    private static func kindName(_ value: TemplateValue) -> String {
        switch value.kind {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        default: "string"
        }
    }
}
