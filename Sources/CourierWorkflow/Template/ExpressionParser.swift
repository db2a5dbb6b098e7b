import CourierDiagnostics

/// Recursive-descent parser for template expressions (spec section 9).
///
/// ```
/// or      := and ('or' and)*
/// and     := not ('and' not)*
/// not     := 'not' not | compare
/// compare := filtered (('=='|'!='|'<'|'<='|'>'|'>=') filtered)?
/// filtered:= postfix ('|' name ('(' args ')')?)*
/// postfix := primary ('.' name | '[' or ']')*
/// primary := number | string | true | false | null | name '(' args ')' | name | '(' or ')'
/// ```
struct ExpressionParser {
    private let s: [Unicode.Scalar]
    /// Offset of `s[0]` in the scalar's text, for positions.
    private let offset: Int
    private let positions: TextPositions
    private var i = 0

    init(scalars: [Unicode.Scalar], offset: Int, positions: TextPositions) {
        self.s = scalars
        self.offset = offset
        self.positions = positions
    }

    /// A failure carries the diagnostic so parsing stops at the first syntax error.
    struct Failure: Error {
        let diagnostic: Diagnostic
    }

    /// Parses the whole input as one expression.
    mutating func parseWhole() -> Result<Expression, Diagnostic> {
        do throws(Failure) {
            skipSpaces()
            if i >= s.count {
                return .failure(.error("empty template expression; write a name between '{{' and '}}'", at: range(0, s.count)))
            }
            let e = try parseOr()
            skipSpaces()
            if i < s.count {
                throw fail("unexpected '\(tokenText())' after the expression", at: i, i + tokenLength())
            }
            return .success(e)
        } catch {
            return .failure(error.diagnostic)
        }
    }

    // MARK: - Grammar

    private mutating func parseOr() throws(Failure) -> Expression {
        var lhs = try parseAnd()
        while keyword("or") {
            let rhs = try parseAnd()
            lhs = Expression(.binary(.or, lhs, rhs), range: lhs.range.union(rhs.range))
        }
        return lhs
    }

    private mutating func parseAnd() throws(Failure) -> Expression {
        var lhs = try parseNot()
        while keyword("and") {
            let rhs = try parseNot()
            lhs = Expression(.binary(.and, lhs, rhs), range: lhs.range.union(rhs.range))
        }
        return lhs
    }

    private mutating func parseNot() throws(Failure) -> Expression {
        skipSpaces()
        let start = i
        if keyword("not") {
            let operand = try parseNot()
            return Expression(.not(operand), range: range(start, i))
        }
        return try parseCompare()
    }

    private mutating func parseCompare() throws(Failure) -> Expression {
        let lhs = try parseFiltered()
        skipSpaces()
        let ops: [(String, Expression.BinaryOperator)] = [("==", .equal), ("!=", .notEqual), ("<=", .lessOrEqual),
                                                            (">=", .greaterOrEqual), ("<", .less), (">", .greater)]
        for (text, op) in ops where lookingAt(text) {
            i += text.unicodeScalars.count
            let rhs = try parseFiltered()
            return Expression(.binary(op, lhs, rhs), range: lhs.range.union(rhs.range))
        }
        if lookingAt("&&") { throw fail("use 'and' instead of '&&'", at: i, i + 2) }
        if lookingAt("||") { throw fail("use 'or' instead of '||'", at: i, i + 2) }
        if lookingAt("=") { throw fail("use '==' to compare; '=' is not an operator", at: i, i + 1) }
        return lhs
    }

    private mutating func parseFiltered() throws(Failure) -> Expression {
        var base = try parsePostfix()
        while true {
            skipSpaces()
            guard peek == "|" else { return base }
            if lookingAt("||") { throw fail("use 'or' instead of '||'", at: i, i + 2) }
            i += 1
            skipSpaces()
            let nameStart = i
            guard let name = identifier() else {
                throw fail("expected a filter name after '|'", at: i, i + tokenLength())
            }
            var arguments: [Expression] = []
            skipSpaces()
            if peek == "(" { arguments = try parseArguments() }
            // A filter's range is its name and arguments: what a bad-filter diagnostic should underline.
            base = Expression(.filter(base, name, arguments), range: range(nameStart, i))
        }
    }

    private mutating func parsePostfix() throws(Failure) -> Expression {
        var base = try parsePrimary()
        while true {
            if peek == "." {
                i += 1
                guard let name = identifier(allowLeadingDigit: true) else {
                    throw fail("expected a name after '.'", at: i, i + tokenLength())
                }
                base = Expression(.member(base, name), range: SourceRange(start: base.range.start, end: location(i)))
            } else if peek == "[" {
                i += 1
                let index = try parseOr()
                skipSpaces()
                guard peek == "]" else { throw fail("expected ']' to close '['", at: i, i + tokenLength()) }
                i += 1
                base = Expression(.index(base, index), range: SourceRange(start: base.range.start, end: location(i)))
            } else {
                return base
            }
        }
    }

    private mutating func parsePrimary() throws(Failure) -> Expression {
        skipSpaces()
        let start = i
        guard let c = peek else { throw fail("incomplete expression; expected a name, a number or a string", at: i, i) }
        if c == "(" {
            i += 1
            var inner = try parseOr()
            skipSpaces()
            guard peek == ")" else { throw fail("expected ')' to close '('", at: i, i + tokenLength()) }
            i += 1
            inner.range = range(start, i)
            return inner
        }
        if c == "'" || c == "\"" { return try parseString() }
        if isDigit(c) || (c == "-" && i + 1 < s.count && isDigit(s[i + 1])) { return parseNumber() }
        if let name = identifier() {
            switch name {
            case "true": return Expression(.bool(true), range: range(start, i))
            case "false": return Expression(.bool(false), range: range(start, i))
            case "null": return Expression(.null, range: range(start, i))
            default: break
            }
            skipSpaces()
            if peek == "(" {
                let arguments = try parseArguments()
                return Expression(.call(name, arguments), range: range(start, i))
            }
            return Expression(.variable(name), range: range(start, start + name.unicodeScalars.count))
        }
        throw fail("expected a name, a number or a string, found '\(tokenText())'", at: i, i + tokenLength())
    }

    private mutating func parseArguments() throws(Failure) -> [Expression] {
        i += 1  // (
        var arguments: [Expression] = []
        skipSpaces()
        if peek == ")" { i += 1; return arguments }
        while true {
            arguments.append(try parseOr())
            skipSpaces()
            if peek == "," { i += 1; continue }
            if peek == ")" { i += 1; return arguments }
            throw fail("expected ',' or ')' in the argument list", at: i, i + tokenLength())
        }
    }

    private mutating func parseString() throws(Failure) -> Expression {
        let start = i
        let quote = s[i]
        i += 1
        var value = String.UnicodeScalarView()
        while i < s.count {
            let c = s[i]
            if c == quote {
                i += 1
                return Expression(.string(String(value)), range: range(start, i))
            }
            if c == "\\", i + 1 < s.count {
                let next = s[i + 1]
                switch next {
                case "n": value.append("\n")
                case "t": value.append("\t")
                case "r": value.append("\r")
                default: value.append(next)
                }
                i += 2
                continue
            }
            value.append(c)
            i += 1
        }
        throw fail("unterminated string; add the closing \(quote)", at: start, start + 1)
    }

    private mutating func parseNumber() -> Expression {
        let start = i
        if peek == "-" { i += 1 }
        while let c = peek, isDigit(c) { i += 1 }
        var isInteger = true
        if peek == ".", i + 1 < s.count, isDigit(s[i + 1]) {
            isInteger = false
            i += 1
            while let c = peek, isDigit(c) { i += 1 }
        }
        let text = String(String.UnicodeScalarView(s[start..<i]))
        return Expression(.number(text, isInteger: isInteger), range: range(start, i))
    }

    // MARK: - Lexing helpers

    private var peek: Unicode.Scalar? { i < s.count ? s[i] : nil }

    private func isDigit(_ c: Unicode.Scalar) -> Bool { c >= "0" && c <= "9" }

    private func isNameStart(_ c: Unicode.Scalar) -> Bool {
        (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c == "_"
    }

    private func isNameChar(_ c: Unicode.Scalar) -> Bool {
        isNameStart(c) || isDigit(c) || c == "-"
    }

    private mutating func skipSpaces() {
        while let c = peek, c == " " || c == "\t" || c == "\n" || c == "\r" { i += 1 }
    }

    /// A name (`user_id`, `X-Request-Id` after a dot); digits may lead after `.`
    /// so `items.0` reads as a member.
    private mutating func identifier(allowLeadingDigit: Bool = false) -> String? {
        guard let c = peek, isNameStart(c) || (allowLeadingDigit && isDigit(c)) else { return nil }
        let start = i
        while let c = peek, isNameChar(c) {
            // `a-1` should not swallow a minus that starts a number; names rarely end in '-'.
            if c == "-", i + 1 < s.count, !isNameStart(s[i + 1]) { break }
            i += 1
        }
        return String(String.UnicodeScalarView(s[start..<i]))
    }

    /// Consumes a keyword (`and`, `or`, `not`) that is not the prefix of a longer name.
    private mutating func keyword(_ word: String) -> Bool {
        skipSpaces()
        guard lookingAt(word) else { return false }
        let end = i + word.unicodeScalars.count
        if end < s.count, isNameChar(s[end]) { return false }
        i = end
        return true
    }

    private func lookingAt(_ text: String) -> Bool {
        var j = i
        for c in text.unicodeScalars {
            guard j < s.count, s[j] == c else { return false }
            j += 1
        }
        return true
    }

    private func tokenLength() -> Int {
        guard i < s.count else { return 0 }
        var j = i
        if isNameChar(s[j]) {
            while j < s.count, isNameChar(s[j]) { j += 1 }
            return j - i
        }
        return 1
    }

    private func tokenText() -> String {
        guard i < s.count else { return "end of expression" }
        return String(String.UnicodeScalarView(s[i..<(i + tokenLength())]))
    }

    private func location(_ index: Int) -> SourceLocation { positions.location(offset + index) }

    private func range(_ start: Int, _ end: Int) -> SourceRange { positions.range(offset + start, offset + end) }

    private func fail(_ message: String, at start: Int, _ end: Int) -> Failure {
        Failure(diagnostic: .error(message, at: range(start, max(end, start))))
    }
}

extension ExpressionParser {
    /// Parses a bare expression (an `if:` condition), also accepting one `{{ … }}` around it.
    static func parseCondition(_ text: String, positions: TextPositions, diagnostics: inout [Diagnostic]) -> Expression? {
        let scalars = Array(text.unicodeScalars)
        var parser = ExpressionParser(scalars: scalars, offset: 0, positions: positions)
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("{{") {
            let template = TemplateParser.parse(text, positions: positions, range: positions.range(0, scalars.count), diagnostics: &diagnostics)
            if let single = template.singleExpression { return single }
            if template.parts.isEmpty || template.literalText != nil { return nil }
            diagnostics.append(.error("a condition is one expression; write it without text around '{{ }}'", at: positions.range(0, scalars.count)))
            return nil
        }
        switch parser.parseWhole() {
        case .success(let e):
            ExpressionValidator.validate(e, diagnostics: &diagnostics)
            return e
        case .failure(let d):
            diagnostics.append(d)
            return nil
        }
    }
}

import Foundation
