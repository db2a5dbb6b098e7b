/// Recursive-descent parser for RFC 9535 queries, type-checking filters as it goes (§2.4.3).
///
/// Works on Unicode scalars; error offsets count scalars from the start of the query.
///
/// A templated query (``JSONPathPiece``) is parsed with one scalar standing for each value:
/// it may be a whole selector (`[…]`, after `.` or `..`) or a filter operand, nothing else,
/// so a value can never become syntax.
struct JSONPathParser {
    private let scalars: [Unicode.Scalar]
    /// Position of each value's stand-in → the value's index.
    private let placeholders: [Int: Int]
    /// Values that follow a single `.` (`$.{{ k }}`): their text form needs brackets instead.
    private(set) var dottedPlaceholders: Set<Int> = []
    /// Values that follow `..` (`$..{{ k }}`): their text form needs brackets after the dots.
    private(set) var descendantPlaceholders: Set<Int> = []
    private var position = 0
    /// Nesting of filter expressions (parentheses, nested filters, function arguments).
    private var depth = 0

    /// Deeper expressions are rejected rather than risking the stack: a quarter of the shared
    /// ``NestingLimit`` (128 nested filters parsed and evaluated in under 1 MB of stack in a
    /// debug build, measured with `ulimit -s`).
    static let maxNesting = NestingLimit.maxDepth / 4

    /// Largest magnitude of an index, slice bound or step: I-JSON's exact integer range.
    private static let maxInteger = (1 << 53) - 1

    init(_ query: String) {
        scalars = Array(query.unicodeScalars)
        placeholders = [:]
    }

    init(pieces: [JSONPathPiece]) {
        var scalars: [Unicode.Scalar] = []
        var placeholders: [Int: Int] = [:]
        for piece in pieces {
            switch piece {
            case .text(let text): scalars.append(contentsOf: text.unicodeScalars)
            case .value:
                placeholders[scalars.count] = placeholders.count
                // A control character: no rule of the grammar accepts it, so only the
                // places that look for a placeholder do.
                scalars.append("\u{1}")
            }
        }
        self.scalars = scalars
        self.placeholders = placeholders
    }

    mutating func parseQuery() throws(JSONPathError) -> PathQuery {
        guard peek() == "$" else {
            throw error(position == scalars.count
                ? "empty query: a JSONPath query starts with '$'"
                : "a JSONPath query must start with '$', found \(describeCurrent())")
        }
        position += 1
        let segments = try parseSegments()
        if position < scalars.count {
            throw error("unexpected \(describeCurrent()) after the query")
        }
        return PathQuery(isRelative: false, segments: segments)
    }

    // MARK: - Segments and selectors

    private mutating func parseSegments() throws(JSONPathError) -> [PathSegment] {
        var segments: [PathSegment] = []
        while true {
            let beforeSpace = position
            skipBlank()
            switch peek() {
            case "[":
                segments.append(.child(try parseBracketedSelection()))
            case ".":
                if peek(1) == "." {
                    position += 2
                    if let value = placeholder() {
                        descendantPlaceholders.insert(value)
                        segments.append(.descendant([.placeholder(value)]))
                        continue
                    }
                    switch peek() {
                    case "[": segments.append(.descendant(try parseBracketedSelection()))
                    case "*":
                        position += 1
                        segments.append(.descendant([.wildcard]))
                    case let c? where isNameFirst(c):
                        segments.append(.descendant([.name(try parseMemberName())]))
                    default:
                        throw error("expected a member name, '*' or '[' after '..', found \(describeCurrent())")
                    }
                } else {
                    position += 1
                    if let value = placeholder() {
                        dottedPlaceholders.insert(value)
                        segments.append(.child([.placeholder(value)]))
                        continue
                    }
                    switch peek() {
                    case "*":
                        position += 1
                        segments.append(.child([.wildcard]))
                    case let c? where isNameFirst(c):
                        segments.append(.child([.name(try parseMemberName())]))
                    default:
                        throw error("expected a member name or '*' after '.', found \(describeCurrent())")
                    }
                }
            default:
                // Blank space belongs to whatever follows the query.
                position = beforeSpace
                return segments
            }
        }
    }

    private mutating func parseMemberName() throws(JSONPathError) -> String {
        let dot = position - 1
        var name = String.UnicodeScalarView()
        while let c = peek(), isNameFirst(c) || isDigit(c) {
            name.append(c)
            position += 1
        }
        if placeholders[position] != nil {
            throw error("a template cannot be part of a member name; it stands for a whole name or index: put it in brackets of its own")
        }
        if let c = peek(), !Self.mayFollowName(c) {
            // `$.headers.Content-Type`: a name the shorthand cannot spell.
            throw error("unexpected \(describeCurrent()) in member name '\(String(name))'; did you mean \(bracketedSuggestion(dot: dot))?")
        }
        return String(name)
    }

    /// What may come right after a member-name shorthand: the next segment, blank space, the end
    /// of a bracket, parenthesis or argument, or an operator of a filter.
    private static func mayFollowName(_ c: Unicode.Scalar) -> Bool {
        ".[]), \t\n\r=!<>&|".unicodeScalars.contains(c)
    }

    /// The query with the dot-name starting at `dot` written in brackets, the name running to
    /// the next character that may end it.
    private func bracketedSuggestion(dot: Int) -> String {
        var end = dot + 1
        while end < scalars.count, placeholders[end] == nil, !Self.mayFollowName(scalars[end]) {
            end += 1
        }
        var name = String.UnicodeScalarView()
        name.append(contentsOf: scalars[(dot + 1)..<end])
        // After `..` the brackets follow the dots (`$..['a-b']`); after one dot they replace it.
        let prefixEnd = dot > 0 && scalars[dot - 1] == "." ? dot + 1 : dot
        // A template's stand-in is shown as `…`.
        func shown(_ range: Range<Int>) -> [Unicode.Scalar] { range.map { placeholders[$0] == nil ? scalars[$0] : "…" } }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: shown(0..<prefixEnd))
        text.append(contentsOf: "[\(JSONPath.quoted(String(name)))]".unicodeScalars)
        text.append(contentsOf: shown(end..<scalars.count))
        return String(text)
    }

    /// The index of the value standing at the current position, consumed; nil when there is none.
    private mutating func placeholder() -> Int? {
        guard let value = placeholders[position] else { return nil }
        position += 1
        return value
    }

    private mutating func parseBracketedSelection() throws(JSONPathError) -> [PathSelector] {
        position += 1  // [
        var selectors: [PathSelector] = []
        while true {
            skipBlank()
            selectors.append(try parseSelector())
            skipBlank()
            switch peek() {
            case ",": position += 1
            case "]":
                position += 1
                return selectors
            case nil: throw error("unterminated bracketed selection, expected ']'")
            default: throw error("unexpected \(describeCurrent()) in selector, expected ',' or ']'")
            }
        }
    }

    private mutating func parseSelector() throws(JSONPathError) -> PathSelector {
        if let value = placeholder() {
            let after = position
            skipBlank()
            if peek() == ":" { throw error("a template cannot be a slice bound; select with an index or a filter instead", at: after - 1) }
            position = after
            return .placeholder(value)
        }
        switch peek() {
        case "'", "\"":
            return .name(try parseStringLiteral())
        case "*":
            position += 1
            return .wildcard
        case "?":
            position += 1
            skipBlank()
            return .filter(try parseLogicalOr())
        case ":":
            return try parseSlice(start: nil)
        case let c? where c == "-" || isDigit(c):
            let start = try parseInteger()
            let afterInteger = position
            skipBlank()
            if peek() == ":" { return try parseSlice(start: start) }
            position = afterInteger
            return .index(start)
        case nil:
            throw error("expected a selector, found end of query")
        default:
            throw error("unexpected \(describeCurrent()) in selector")
        }
    }

    /// Parses from the first ':' of a slice.
    private mutating func parseSlice(start: Int?) throws(JSONPathError) -> PathSelector {
        position += 1  // :
        skipBlank()
        if placeholders[position] != nil { throw error("a template cannot be a slice bound; select with an index or a filter instead") }
        var end: Int?
        var step: Int?
        if let c = peek(), c == "-" || isDigit(c) {
            end = try parseInteger()
            skipBlank()
        }
        if peek() == ":" {
            position += 1
            skipBlank()
            if placeholders[position] != nil { throw error("a template cannot be a slice bound; select with an index or a filter instead") }
            if let c = peek(), c == "-" || isDigit(c) {
                step = try parseInteger()
            }
        }
        return .slice(start: start, end: end, step: step)
    }

    /// `int = "0" / (["-"] DIGIT1 *DIGIT)` within ±(2^53 − 1).
    private mutating func parseInteger() throws(JSONPathError) -> Int {
        let start = position
        var negative = false
        if peek() == "-" {
            negative = true
            position += 1
        }
        guard let first = peek(), isDigit(first) else {
            throw error("expected a digit, found \(describeCurrent())")
        }
        if first == "0" {
            if negative { throw error("'-0' is not a valid integer here", at: start) }
            if let next = peek(1), isDigit(next) {
                throw error("integers cannot have leading zeros", at: start)
            }
        }
        var value = 0
        while let c = peek(), isDigit(c) {
            value = value * 10 + Int(c.value - 0x30)
            if value > JSONPathParser.maxInteger {
                throw error("integer is outside the range ±(2^53 − 1)", at: start)
            }
            position += 1
        }
        return negative ? -value : value
    }

    // MARK: - String literals

    private mutating func parseStringLiteral() throws(JSONPathError) -> String {
        guard let quote = peek() else { throw error("expected a string") }
        let start = position
        position += 1
        var result = String.UnicodeScalarView()
        while true {
            guard let c = peek() else {
                throw error("unterminated string literal", at: start)
            }
            if placeholders[position] != nil {
                throw error("a template inside a quoted string; write it without quotes: a string value is quoted for you")
            }
            position += 1
            if c == quote { return String(result) }
            if c == "\\" {
                guard let e = peek() else { throw error("unterminated string literal", at: start) }
                position += 1
                switch e {
                case "b": result.append("\u{8}")
                case "f": result.append("\u{C}")
                case "n": result.append("\n")
                case "r": result.append("\r")
                case "t": result.append("\t")
                case "/": result.append("/")
                case "\\": result.append("\\")
                case "'" where quote == "'", "\"" where quote == "\"": result.append(e)
                case "u": result.append(try parseUnicodeEscape(escapeStart: position - 2))
                default:
                    throw error("invalid escape '\\\(e)' in string literal", at: position - 2)
                }
            } else if c.value < 0x20 {
                throw error("control character \(scalarName(c.value)) must be escaped in a string literal", at: position - 1)
            } else {
                result.append(c)
            }
        }
    }

    private mutating func parseUnicodeEscape(escapeStart: Int) throws(JSONPathError) -> Unicode.Scalar {
        let high = try parseHex4(escapeStart: escapeStart)
        if (0xDC00...0xDFFF).contains(high) {
            throw error("unpaired low surrogate in '\\u' escape", at: escapeStart)
        }
        if (0xD800...0xDBFF).contains(high) {
            guard peek() == "\\", peek(1) == "u" else {
                throw error("a high surrogate escape must be followed by a low surrogate escape", at: escapeStart)
            }
            position += 2
            let low = try parseHex4(escapeStart: position - 2)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw error("expected a low surrogate escape", at: position - 6)
            }
            let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            return Unicode.Scalar(value) ?? "\u{FFFD}"
        }
        guard let scalar = Unicode.Scalar(high) else { throw error("invalid '\\u' escape", at: escapeStart) }
        return scalar
    }

    private mutating func parseHex4(escapeStart: Int) throws(JSONPathError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let c = peek(), let digit = hexValue(c) else {
                throw error("'\\u' must be followed by four hex digits", at: escapeStart)
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private func hexValue(_ c: Unicode.Scalar) -> UInt32? {
        switch c {
        case "0"..."9": c.value - 0x30
        case "a"..."f": c.value - 0x61 + 10
        case "A"..."F": c.value - 0x41 + 10
        default: nil
        }
    }

    // MARK: - Filter expressions

    private mutating func parseLogicalOr() throws(JSONPathError) -> FilterExpression {
        depth += 1
        defer { depth -= 1 }
        if depth > JSONPathParser.maxNesting {
            throw error("filter expression \(NestingLimit.tooDeep(limit: JSONPathParser.maxNesting))")
        }
        var operands = [try parseLogicalAnd()]
        while true {
            let save = position
            skipBlank()
            guard peek() == "|", peek(1) == "|" else {
                position = save
                break
            }
            position += 2
            skipBlank()
            operands.append(try parseLogicalAnd())
        }
        return operands.count == 1 ? operands[0] : .or(operands)
    }

    private mutating func parseLogicalAnd() throws(JSONPathError) -> FilterExpression {
        var operands = [try parseBasic()]
        while true {
            let save = position
            skipBlank()
            guard peek() == "&", peek(1) == "&" else {
                position = save
                break
            }
            position += 2
            skipBlank()
            operands.append(try parseBasic())
        }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    /// `paren-expr / comparison-expr / test-expr`.
    private mutating func parseBasic() throws(JSONPathError) -> FilterExpression {
        if peek() == "!" {
            position += 1
            skipBlank()
            if peek() == "(" { return .not(try parseParenthesized()) }
            let start = position
            let operand = try parseOperand()
            try checkTestable(operand, at: start)
            return .not(operand)
        }
        if peek() == "(" { return try parseParenthesized() }
        let start = position
        let left = try parseOperand()
        let afterLeft = position
        skipBlank()
        if let op = parseComparisonOperator() {
            try checkComparable(left, at: start)
            skipBlank()
            let rightStart = position
            let right = try parseOperand()
            try checkComparable(right, at: rightStart)
            return .comparison(left, op, right)
        }
        position = afterLeft
        try checkTestable(left, at: start)
        return left
    }

    private mutating func parseParenthesized() throws(JSONPathError) -> FilterExpression {
        let open = position
        position += 1
        skipBlank()
        let inner = try parseLogicalOr()
        skipBlank()
        guard peek() == ")" else {
            throw error(peek() == nil
                ? "unbalanced parenthesis: expected ')' to close the one at offset \(open)"
                : "unexpected \(describeCurrent()), expected ')'")
        }
        position += 1
        return inner
    }

    private mutating func parseComparisonOperator() -> ComparisonOperator? {
        let two = peek().map { first in peek(1).map { String(first) + String($0) } ?? String(first) } ?? ""
        for op in [ComparisonOperator.equal, .notEqual, .lessOrEqual, .greaterOrEqual] where two == op.rawValue {
            position += 2
            return op
        }
        if peek() == "<" {
            position += 1
            return .less
        }
        if peek() == ">" {
            position += 1
            return .greater
        }
        return nil
    }

    /// A literal, a query or a function call.
    private mutating func parseOperand() throws(JSONPathError) -> FilterExpression {
        guard let c = peek() else { throw error("expected an expression, found end of query") }
        if let value = placeholder() { return .placeholder(value) }
        switch c {
        case "@", "$":
            position += 1
            return .query(PathQuery(isRelative: c == "@", segments: try parseSegments()))
        case "'", "\"":
            return .literal(.string(try parseStringLiteral()))
        case "-", "0"..."9":
            return .literal(.number(try parseNumberLiteral()))
        case "a"..."z":
            let start = position
            var name = ""
            while let n = peek(), ("a"..."z").contains(n) || isDigit(n) || n == "_" {
                name.unicodeScalars.append(n)
                position += 1
            }
            if peek() == "(" {
                return try parseFunctionCall(name, at: start)
            }
            switch name {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null": return .literal(.null)
            default:
                throw error("unknown name '\(name)'; expected a function call, a query, or true, false or null", at: start)
            }
        default:
            throw error("unexpected \(describeCurrent()), expected a query, a literal or a function call")
        }
    }

    /// `number = (int / "-0") [ frac ] [ exp ]`.
    private mutating func parseNumberLiteral() throws(JSONPathError) -> JSONNumber {
        let start = position
        if peek() == "-" { position += 1 }
        guard let first = peek(), isDigit(first) else { throw error("expected a digit, found \(describeCurrent())") }
        position += 1
        if first == "0", let next = peek(), isDigit(next) {
            throw error("numbers cannot have leading zeros", at: start)
        }
        while let c = peek(), isDigit(c) { position += 1 }
        if peek() == "." {
            position += 1
            guard let c = peek(), isDigit(c) else { throw error("expected a digit after '.'") }
            while let c = peek(), isDigit(c) { position += 1 }
        }
        if peek() == "e" || peek() == "E" {
            position += 1
            if peek() == "+" || peek() == "-" { position += 1 }
            guard let c = peek(), isDigit(c) else { throw error("expected a digit in the exponent") }
            while let c = peek(), isDigit(c) { position += 1 }
        }
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[start..<position])
        guard let number = JSONNumber(text: text) else { throw error("invalid number '\(text)'", at: start) }
        return number
    }

    private mutating func parseFunctionCall(_ name: String, at start: Int) throws(JSONPathError) -> FilterExpression {
        depth += 1
        defer { depth -= 1 }
        if depth > JSONPathParser.maxNesting {
            throw error("filter expression \(NestingLimit.tooDeep(limit: JSONPathParser.maxNesting))", at: start)
        }
        guard let function = PathFunction(rawValue: name) else {
            let known = PathFunction.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            throw error("unknown function '\(name)'; the functions are \(known)", at: start)
        }
        position += 1  // (
        skipBlank()
        var arguments: [FilterExpression] = []
        if peek() != ")" {
            while true {
                let argumentStart = position
                let argument = try parseArgument()
                let index = arguments.count
                if index < function.parameters.count {
                    try checkArgument(argument, of: function, type: function.parameters[index], at: argumentStart)
                }
                arguments.append(argument)
                skipBlank()
                if peek() == "," {
                    position += 1
                    skipBlank()
                    continue
                }
                guard peek() == ")" else {
                    throw error("unexpected \(describeCurrent()) in the arguments of '\(name)', expected ',' or ')'")
                }
                break
            }
        }
        guard arguments.count == function.parameters.count else {
            let expected = function.parameters.count
            throw error("'\(name)' takes \(expected) argument\(expected == 1 ? "" : "s"), found \(arguments.count)", at: start)
        }
        position += 1  // )
        return .function(function, arguments)
    }

    /// `function-argument = literal / filter-query / logical-expr / function-expr`.
    private mutating func parseArgument() throws(JSONPathError) -> FilterExpression {
        let start = position
        if let c = peek(), c != "!" && c != "(" {
            let operand = try parseOperand()
            let after = position
            skipBlank()
            if peek() == "," || peek() == ")" {
                position = after
                return operand
            }
            position = start
        }
        return try parseLogicalOr()
    }

    // MARK: - Type checks (RFC 9535 §2.4.3)

    private func checkTestable(_ expression: FilterExpression, at offset: Int) throws(JSONPathError) {
        switch expression {
        case .query: return
        case .placeholder:
            throw error("a template's value cannot be used as a test; compare it with something", at: offset)
        case .function(let function, _):
            guard function.result != .value else {
                throw error("'\(function.rawValue)' returns a value, which cannot be used as a test; compare it with something", at: offset)
            }
        case .literal:
            throw error("a literal cannot be used as a test; compare it with something", at: offset)
        default: return
        }
    }

    private func checkComparable(_ expression: FilterExpression, at offset: Int) throws(JSONPathError) {
        switch expression {
        case .literal, .placeholder: return
        case .query(let query):
            guard query.isSingular else {
                throw error("a non-singular query cannot be compared; select a single node with names and indexes only", at: offset)
            }
        case .function(let function, _):
            guard function.result == .value else {
                throw error("'\(function.rawValue)' returns a logical result, which cannot be compared", at: offset)
            }
        default:
            throw error("a logical expression cannot be compared", at: offset)
        }
    }

    private func checkArgument(
        _ argument: FilterExpression, of function: PathFunction, type: FunctionType, at offset: Int
    ) throws(JSONPathError) {
        let name = function.rawValue
        switch (type, argument) {
        case (.value, .literal), (.value, .placeholder):
            return
        case (.value, .query(let query)):
            guard query.isSingular else {
                throw error("'\(name)' expects a value; a non-singular query is not one", at: offset)
            }
        case (.value, .function(let inner, _)):
            guard inner.result == .value else {
                throw error("'\(name)' expects a value; '\(inner.rawValue)' returns a logical result", at: offset)
            }
        case (.value, _):
            throw error("'\(name)' expects a value, not a logical expression", at: offset)
        case (.nodes, .query):
            return
        case (.nodes, .function(let inner, _)):
            guard inner.result == .nodes else {
                throw error("'\(name)' expects a query; '\(inner.rawValue)' does not return nodes", at: offset)
            }
        case (.nodes, _):
            throw error("'\(name)' expects a query", at: offset)
        case (.logical, .literal), (.logical, .placeholder):
            throw error("'\(name)' expects a logical expression, not a literal", at: offset)
        case (.logical, .function(let inner, _)):
            guard inner.result != .value else {
                throw error("'\(name)' expects a logical expression; '\(inner.rawValue)' returns a value", at: offset)
            }
        case (.logical, _):
            return
        }
    }

    // MARK: - Characters

    private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        position + ahead < scalars.count ? scalars[position + ahead] : nil
    }

    private mutating func skipBlank() {
        while let c = peek(), c == " " || c == "\t" || c == "\n" || c == "\r" { position += 1 }
    }

    private func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }

    /// `name-first = ALPHA / "_" / %x80-D7FF / %xE000-10FFFF`.
    private func isNameFirst(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || c == "_" || c.value >= 0x80
    }

    private func describeCurrent() -> String {
        guard let c = peek() else { return "end of query" }
        if placeholders[position] != nil { return "template" }
        if c.value < 0x20 || c.value == 0x7F { return "character \(scalarName(c.value))" }
        return "character '\(c)'"
    }

    private func error(_ message: String, at offset: Int? = nil) -> JSONPathError {
        JSONPathError(offset: offset ?? position, message: message)
    }
}
