import CourierDiagnostics
import CourierJSON

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
///
/// It reads UTF-8 bytes: every token is ASCII, so only positions need Unicode
/// scalars, and those are counted when a range is made (a no-op for ASCII text).
///
/// Every later walk (validator, variable checker, evaluator) recurses over the
/// tree, so the parser bounds both its own recursion (parentheses, `[ ]`,
/// arguments, `not`) and the depth of the tree it builds (chains of filters,
/// members and operators build deep trees in loops) by ``NestingLimit``.
///
/// The parser's own recursion has a lower bound, ``maxNesting``: one level of
/// parentheses runs through seven parse functions whose frames took 22 KB per
/// level in a debug build (measured with gdb), so 512 levels overflowed the
/// 8 MB stack of the thread that loads workflows; 128 levels use about 2.8 MB.
struct ExpressionParser {
    /// The most parentheses, brackets, argument lists and `not`s open at once.
    static let maxNesting = NestingLimit.maxDepth / 4

    /// The UTF-8 of the whole text the expression is part of.
    private let s: UTF8Text
    /// The byte just past the expression.
    private let end: Int
    private let start: Int
    private let positions: TextPositions
    private var i: Int
    /// How many parentheses, brackets, argument lists and `not`s are open.
    private var nesting = 0
    /// The tree depth of the expression the last `parse…` call returned.
    private var lastDepth = 0

    /// Parses `text.bytes[start..<end]`; positions are relative to the start of `text`.
    init(text: UTF8Text, start: Int, end: Int, positions: TextPositions) {
        self.s = text
        self.start = start
        self.end = end
        self.i = start
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
            if i >= end {
                return .failure(.error("empty template expression; write a name between '{{' and '}}'", at: range(start, end)))
            }
            let e = try parseOr()
            skipSpaces()
            if i < end {
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
        var depth = lastDepth
        while keyword("or") {
            let start = i
            let rhs = try parseAnd()
            depth = try deeper(depth, lastDepth, at: start)
            lhs = Expression(.binary(.or, lhs, rhs), range: lhs.range.union(rhs.range))
        }
        lastDepth = depth
        return lhs
    }

    private mutating func parseAnd() throws(Failure) -> Expression {
        var lhs = try parseNot()
        var depth = lastDepth
        while keyword("and") {
            let start = i
            let rhs = try parseNot()
            depth = try deeper(depth, lastDepth, at: start)
            lhs = Expression(.binary(.and, lhs, rhs), range: lhs.range.union(rhs.range))
        }
        lastDepth = depth
        return lhs
    }

    private mutating func parseNot() throws(Failure) -> Expression {
        skipSpaces()
        let start = i
        if keyword("not") {
            try enter(at: start)
            let operand = try parseNot()
            nesting -= 1
            lastDepth = try deeper(lastDepth, 0, at: start)
            return Expression(.not(operand), range: range(start, i))
        }
        return try parseCompare()
    }

    private mutating func parseCompare() throws(Failure) -> Expression {
        let lhs = try parseFiltered()
        let lhsDepth = lastDepth
        skipSpaces()
        for (text, op) in Self.comparisons where lookingAt(text) {
            let start = i
            i += text.utf8.count
            let rhs = try parseFiltered()
            lastDepth = try deeper(lhsDepth, lastDepth, at: start)
            return Expression(.binary(op, lhs, rhs), range: lhs.range.union(rhs.range))
        }
        if lookingAt("&&") { throw fail("use 'and' instead of '&&'", at: i, i + 2) }
        if lookingAt("||") { throw fail("use 'or' instead of '||'", at: i, i + 2) }
        if lookingAt("=") { throw fail("use '==' to compare; '=' is not an operator", at: i, i + 1) }
        return lhs
    }

    private static let comparisons: [(String, Expression.BinaryOperator)] = [
        ("==", .equal), ("!=", .notEqual), ("<=", .lessOrEqual), (">=", .greaterOrEqual), ("<", .less), (">", .greater),
    ]

    private mutating func parseFiltered() throws(Failure) -> Expression {
        var base = try parsePostfix()
        var depth = lastDepth
        while true {
            skipSpaces()
            guard peek == UInt8(ascii: "|") else {
                lastDepth = depth
                return base
            }
            if lookingAt("||") { throw fail("use 'or' instead of '||'", at: i, i + 2) }
            i += 1
            skipSpaces()
            let nameStart = i
            guard let name = identifier() else {
                throw fail("expected a filter name after '|'", at: i, i + tokenLength())
            }
            var arguments: [Expression] = []
            skipSpaces()
            lastDepth = 0
            if peek == UInt8(ascii: "(") { arguments = try parseArguments() }
            depth = try deeper(depth, lastDepth, at: nameStart)
            // A filter's range is its name and arguments: what a bad-filter diagnostic should underline.
            base = Expression(.filter(base, name, arguments), range: range(nameStart, i))
        }
    }

    private mutating func parsePostfix() throws(Failure) -> Expression {
        var base = try parsePrimary()
        var depth = lastDepth
        while true {
            if peek == UInt8(ascii: ".") {
                depth = try deeper(depth, 0, at: i)
                i += 1
                guard let name = identifier(allowLeadingDigit: true) else {
                    throw fail("expected a name after '.'", at: i, i + tokenLength())
                }
                base = Expression(.member(base, name), range: SourceRange(start: base.range.start, end: location(i)))
            } else if peek == UInt8(ascii: "[") {
                let open = i
                try enter(at: open)
                i += 1
                let index = try parseOr()
                nesting -= 1
                depth = try deeper(depth, lastDepth, at: open)
                skipSpaces()
                guard peek == UInt8(ascii: "]") else { throw fail("expected ']' to close '['", at: i, i + tokenLength()) }
                i += 1
                base = Expression(.index(base, index), range: SourceRange(start: base.range.start, end: location(i)))
            } else {
                lastDepth = depth
                return base
            }
        }
    }

    private mutating func parsePrimary() throws(Failure) -> Expression {
        skipSpaces()
        let start = i
        guard let c = peek else { throw fail("incomplete expression; expected a name, a number or a string", at: i, i) }
        // Leaves are one level deep; parentheses add recursion but no tree level.
        lastDepth = 1
        if c == UInt8(ascii: "(") {
            try enter(at: start)
            i += 1
            var inner = try parseOr()
            nesting -= 1
            skipSpaces()
            guard peek == UInt8(ascii: ")") else { throw fail("expected ')' to close '('", at: i, i + tokenLength()) }
            i += 1
            inner.range = range(start, i)
            return inner
        }
        if c == UInt8(ascii: "'") || c == UInt8(ascii: "\"") { return try parseString() }
        if isDigit(c) || (c == UInt8(ascii: "-") && i + 1 < end && isDigit(s[i + 1])) { return parseNumber() }
        if let name = identifier() {
            switch name {
            case "true": return Expression(.bool(true), range: range(start, i))
            case "false": return Expression(.bool(false), range: range(start, i))
            case "null": return Expression(.null, range: range(start, i))
            default: break
            }
            skipSpaces()
            if peek == UInt8(ascii: "(") {
                let arguments = try parseArguments()
                lastDepth = try deeper(lastDepth, 0, at: start)
                return Expression(.call(name, arguments), range: range(start, i))
            }
            return Expression(.variable(name), range: range(start, start + name.utf8.count))
        }
        throw fail("expected a name, a number or a string, found '\(tokenText())'", at: i, i + tokenLength())
    }

    /// Parses `( args )`; `lastDepth` is then the deepest argument's depth (0 for none).
    private mutating func parseArguments() throws(Failure) -> [Expression] {
        try enter(at: i)
        i += 1  // (
        var arguments: [Expression] = []
        var depth = 0
        skipSpaces()
        if peek == UInt8(ascii: ")") {
            i += 1
            nesting -= 1
            lastDepth = 0
            return arguments
        }
        while true {
            arguments.append(try parseOr())
            depth = max(depth, lastDepth)
            skipSpaces()
            if peek == UInt8(ascii: ",") { i += 1; continue }
            if peek == UInt8(ascii: ")") {
                i += 1
                nesting -= 1
                lastDepth = depth
                return arguments
            }
            throw fail("expected ',' or ')' in the argument list", at: i, i + tokenLength())
        }
    }

    private mutating func parseString() throws(Failure) -> Expression {
        let start = i
        let quote = s[i]
        i += 1
        var value: [UInt8] = []
        while i < end {
            let c = s[i]
            if c == quote {
                i += 1
                return Expression(.string(String(decoding: value, as: UTF8.self)), range: range(start, i))
            }
            if c == UInt8(ascii: "\\"), i + 1 < end {
                // A multi-byte character after the backslash keeps its
                // continuation bytes: they are copied on the next rounds.
                let next = s[i + 1]
                switch next {
                case UInt8(ascii: "n"): value.append(UInt8(ascii: "\n"))
                case UInt8(ascii: "t"): value.append(UInt8(ascii: "\t"))
                case UInt8(ascii: "r"): value.append(UInt8(ascii: "\r"))
                default: value.append(next)
                }
                i += 2
                continue
            }
            value.append(c)
            i += 1
        }
        throw fail("unterminated string; add the closing \(Unicode.Scalar(quote))", at: start, start + 1)
    }

    private mutating func parseNumber() -> Expression {
        let start = i
        if peek == UInt8(ascii: "-") { i += 1 }
        while let c = peek, isDigit(c) { i += 1 }
        var isInteger = true
        if peek == UInt8(ascii: "."), i + 1 < end, isDigit(s[i + 1]) {
            isInteger = false
            i += 1
            while let c = peek, isDigit(c) { i += 1 }
        }
        return Expression(.number(s.string(start, i), isInteger: isInteger), range: range(start, i))
    }

    // MARK: - Nesting limit

    /// Opens one level of parser recursion, failing past the limit.
    private mutating func enter(at position: Int) throws(Failure) {
        nesting += 1
        if nesting > Self.maxNesting {
            throw fail("template expression nests parentheses, brackets, argument lists and 'not' more than \(Self.maxNesting) deep; split it over several variables",
                       at: position, position + tokenLength())
        }
    }

    /// The depth of a node over children `a` and `b` deep, failing past the limit.
    private func deeper(_ a: Int, _ b: Int, at position: Int) throws(Failure) -> Int {
        let depth = max(a, b) + 1
        if depth > NestingLimit.maxDepth { throw tooDeep(at: position) }
        return depth
    }

    private func tooDeep(at position: Int) -> Failure {
        fail("template expression \(NestingLimit.message); split it over several variables", at: position, position + tokenLength())
    }

    // MARK: - Lexing helpers

    private var peek: UInt8? { i < end ? s[i] : nil }

    private func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    private func isNameStart(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z")) || c == UInt8(ascii: "_")
    }

    private func isNameChar(_ c: UInt8) -> Bool {
        isNameStart(c) || isDigit(c) || c == UInt8(ascii: "-")
    }

    private mutating func skipSpaces() {
        while let c = peek, c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\n") || c == UInt8(ascii: "\r") { i += 1 }
    }

    /// A name (`user_id`, `X-Request-Id` after a dot); digits may lead after `.`
    /// so `items.0` reads as a member.
    private mutating func identifier(allowLeadingDigit: Bool = false) -> String? {
        guard let c = peek, isNameStart(c) || (allowLeadingDigit && isDigit(c)) else { return nil }
        let start = i
        while let c = peek, isNameChar(c) {
            // `a-1` should not swallow a minus that starts a number; names rarely end in '-'.
            if c == UInt8(ascii: "-"), i + 1 < end, !isNameStart(s[i + 1]) { break }
            i += 1
        }
        return s.string(start, i)
    }

    /// Consumes a keyword (`and`, `or`, `not`) that is not the prefix of a longer name.
    private mutating func keyword(_ word: StaticString) -> Bool {
        skipSpaces()
        guard lookingAt(word) else { return false }
        let wordEnd = i + word.utf8CodeUnitCount
        if wordEnd < end, isNameChar(s[wordEnd]) { return false }
        i = wordEnd
        return true
    }

    private func lookingAt(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard i + count <= end else { return false }
        let bytes = text.utf8Start
        for k in 0..<count where s[i + k] != bytes[k] { return false }
        return true
    }

    private func lookingAt(_ text: String) -> Bool {
        var j = i
        for c in text.utf8 {
            guard j < end, s[j] == c else { return false }
            j += 1
        }
        return true
    }

    /// The length in bytes of the token at `i`: a name, or one whole character.
    private func tokenLength() -> Int {
        guard i < end else { return 0 }
        var j = i
        if isNameChar(s[j]) {
            while j < end, isNameChar(s[j]) { j += 1 }
            return j - i
        }
        j += 1
        while j < end, s[j] & 0xC0 == 0x80 { j += 1 }
        return j - i
    }

    private func tokenText() -> String {
        guard i < end else { return "end of expression" }
        return s.string(i, i + tokenLength())
    }

    private func location(_ index: Int) -> SourceLocation { positions.location(s.scalarOffset(index)) }

    private func range(_ start: Int, _ end: Int) -> SourceRange { positions.range(s.scalarOffset(start), s.scalarOffset(end)) }

    private func fail(_ message: String, at start: Int, _ end: Int) -> Failure {
        Failure(diagnostic: .error(message, at: range(start, max(end, start))))
    }
}

extension ExpressionParser {
    /// Parses a bare expression (an `if:` condition), also accepting one `{{ … }}` around it.
    static func parseCondition(_ text: String, positions: TextPositions, diagnostics: inout [Diagnostic]) -> Expression? {
        let utf8 = UTF8Text(text)
        var parser = ExpressionParser(text: utf8, start: 0, end: utf8.count, positions: positions)
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("{{") {
            let whole = positions.range(0, utf8.scalarOffset(utf8.count))
            let template = TemplateParser.parse(text, positions: positions, range: whole, diagnostics: &diagnostics)
            if let single = template.singleExpression { return single }
            if template.parts.isEmpty || template.literalText != nil { return nil }
            diagnostics.append(.error("a condition is one expression; write it without text around '{{ }}'", at: whole))
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
