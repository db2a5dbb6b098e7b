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
                range = positions.range(offset, offset < source ? offset + 1 : offset)
            }
            self.error("invalid JSONPath '\(text)': \(error.message)", at: range)
            return nil
        }
    }

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
            for predicate in predicates {
                let name: String
                switch predicate.kind {
                case .eq(let v), .ne(let v):
                    guard Self.scalarText(v) != nil else { continue }
                    name = predicate.kind.yamlName
                case .type(let type):
                    guard type != .array else { continue }
                    name = "type"
                case .gt, .gte, .lt, .lte, .startsWith, .endsWith, .matches, .notMatches, .uuid, .isoDate:
                    name = predicate.kind.yamlName
                default:
                    continue
                }
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

private extension PredicateKind {
    var yamlName: String {
        switch self {
        case .eq: "eq"
        case .ne: "ne"
        case .gt: "gt"
        case .gte: "gte"
        case .lt: "lt"
        case .lte: "lte"
        case .startsWith: "starts_with"
        case .endsWith: "ends_with"
        case .matches: "matches"
        case .notMatches: "not_matches"
        case .uuid: "uuid"
        case .isoDate: "iso_date"
        case .type: "type"
        default: "predicate"
        }
    }
}
