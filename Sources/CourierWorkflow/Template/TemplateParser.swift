import CourierDiagnostics

/// Splits a string into literal text and `{{ expr }}` parts.
struct TemplateParser {
    /// Parses `text`; problems are appended to `diagnostics` (the template then
    /// keeps the text as a literal so decoding can go on).
    ///
    /// `positions` is only worked out for text that holds a `{`.
    static func parse(_ text: String, positions makePositions: @autoclosure () -> TextPositions, range: SourceRange,
                      diagnostics: inout [Diagnostic]) -> Template {
        // Fast path: most strings hold no template at all.
        guard text.containsUTF8Byte(UInt8(ascii: "{")) else {
            return Template(literal: text, range: range)
        }
        let positions = makePositions()
        let bytes = UTF8Text(text)
        var parts: [Template.Part] = []
        var literalStart = 0
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "{"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "{") else {
                i += 1
                continue
            }
            let open = i
            guard let close = findClose(bytes, from: i + 2) else {
                diagnostics.append(.error("unterminated template: '{{' has no matching '}}'",
                                          at: positions.range(bytes.scalarOffset(open), bytes.scalarOffset(open) + 2)))
                return Template(literal: text, range: range)
            }
            if literalStart < open {
                parts.append(.literal(bytes.string(literalStart, open)))
            }
            var parser = ExpressionParser(text: bytes, start: open + 2, end: close, positions: positions)
            switch parser.parseWhole() {
            case .success(let expression):
                ExpressionValidator.validate(expression, diagnostics: &diagnostics)
                parts.append(.expression(expression, positions.range(bytes.scalarOffset(open), bytes.scalarOffset(close + 2))))
            case .failure(let diagnostic):
                diagnostics.append(diagnostic)
                return Template(literal: text, range: range)
            }
            i = close + 2
            literalStart = i
        }
        if literalStart < bytes.count { parts.append(.literal(bytes.string(literalStart, bytes.count))) }
        return Template(parts: parts, range: range)
    }

    /// The byte index of the `}}` closing an expression, skipping quoted strings inside it.
    private static func findClose(_ s: UTF8Text, from start: Int) -> Int? {
        var i = start
        var quote: UInt8?
        while i < s.count {
            let c = s[i]
            if let q = quote {
                if c == UInt8(ascii: "\\") { i += 2; continue }
                if c == q { quote = nil }
            } else if c == UInt8(ascii: "'") || c == UInt8(ascii: "\"") {
                quote = c
            } else if c == UInt8(ascii: "}"), i + 1 < s.count, s[i + 1] == UInt8(ascii: "}") {
                return i
            }
            i += 1
        }
        return nil
    }
}

/// Decode-time checks the grammar cannot make: known filter and function names and their arity.
enum ExpressionValidator {
    static func validate(_ expression: Expression, diagnostics: inout [Diagnostic]) {
        switch expression.kind {
        case .variable, .string, .number, .bool, .null:
            break
        case .member(let base, _):
            validate(base, diagnostics: &diagnostics)
        case .index(let base, let index):
            validate(base, diagnostics: &diagnostics)
            validate(index, diagnostics: &diagnostics)
        case .not(let operand):
            validate(operand, diagnostics: &diagnostics)
        case .binary(_, let lhs, let rhs):
            validate(lhs, diagnostics: &diagnostics)
            validate(rhs, diagnostics: &diagnostics)
        case .call(let name, let arguments):
            check(name, arguments.count, kind: "function", known: Expression.knownFunctions, at: expression.range, diagnostics: &diagnostics)
            for argument in arguments { validate(argument, diagnostics: &diagnostics) }
        case .filter(let base, let name, let arguments):
            validate(base, diagnostics: &diagnostics)
            check(name, arguments.count, kind: "filter", known: Expression.knownFilters, at: expression.range, diagnostics: &diagnostics)
            for argument in arguments { validate(argument, diagnostics: &diagnostics) }
        }
    }

    private static func check(_ name: String, _ count: Int, kind: String, known: [String: ClosedRange<Int>],
                              at range: SourceRange, diagnostics: inout [Diagnostic]) {
        guard let arity = known[name] else {
            let names = known.keys.sorted()
            let hint = suggestion(for: name, among: names).map { "did you mean '\($0)'?" }
                ?? "known \(kind)s: \(names.joined(separator: ", "))"
            diagnostics.append(.error("unknown \(kind) '\(name)'; \(hint)", at: range))
            return
        }
        if !arity.contains(count) {
            let expected = arity.lowerBound == 1 ? "1 argument" : "\(arity.lowerBound) arguments"
            diagnostics.append(.error("\(kind) '\(name)' takes \(expected), found \(count)", at: range))
        }
    }
}
