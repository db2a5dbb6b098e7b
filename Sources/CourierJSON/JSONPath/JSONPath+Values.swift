/// One piece of a query whose values are known only later (a workflow's
/// `"$.items[?@.id == {{ id }}]"`): query text, or the place of one value.
public enum JSONPathPiece: Sendable, Equatable {
    case text(String)
    case value
}

/// How a query with values still to come is written, so each substituted query has a text.
struct PathTemplate: Sendable {
    var pieces: [JSONPathPiece]
    /// Values right after a single `.`: written `['name']` in place of the dot.
    var dotted: Set<Int>
    /// Values right after `..`: written `..['name']`.
    var descendant: Set<Int>
}

/// A value that cannot stand where its query puts it (an object as an index, say).
public struct JSONPathValueError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which value (0-based, in the order of the pieces).
    public var index: Int
    /// Lower-case, e.g. `a name or index must be a string or an integer, not an object`.
    public var message: String

    public init(index: Int, message: String) {
        self.index = index
        self.message = message
    }

    public var description: String { message }
}

extension JSONPath {
    /// Parses a query whose `.value` pieces are filled in later by ``substituting(_:)``.
    ///
    /// A value is always a value, never syntax: it may stand as a whole selector (`$.a[•]`,
    /// `$.•`, `$..•`), where a string becomes a name and an integer an index, or as a filter
    /// operand (`[?@.id == •]`), where it becomes a literal. Anywhere else (inside a name, a
    /// quoted string or a slice) is an error here, so the query's shape, and whether it is
    /// singular, is fixed before any value is known. Error offsets count Unicode scalars of
    /// the text pieces, each value counting as one.
    ///
    /// ```swift
    /// let query = try JSONPath(pieces: [.text("$.errors["), .value, .text("].id")])
    /// let third = try query.substituting([2])   // $.errors[2].id
    /// ```
    public init(pieces: [JSONPathPiece]) throws(JSONPathError) {
        var parser = JSONPathParser(pieces: pieces)
        query = try parser.parseQuery()
        template = PathTemplate(pieces: pieces, dotted: parser.dottedPlaceholders, descendant: parser.descendantPlaceholders)
        text = pieces.map { piece in
            switch piece {
            case .text(let text): text
            case .value: "…"
            }
        }.joined()
    }

    /// How many values ``substituting(_:)`` takes (0 for a query parsed from text).
    public var valueCount: Int {
        template?.pieces.count { $0 == .value } ?? 0
    }

    /// The query with `values` in place, in order; its ``text`` is the query as it would be
    /// written (`$.errors[2].id`, `$['Content-Type']`, `$.items[?@.name == 'it\'s']`).
    public func substituting(_ values: [JSONValue]) throws(JSONPathValueError) -> JSONPath {
        guard let template else { return self }
        guard values.count == valueCount else {
            throw JSONPathValueError(index: min(values.count, valueCount), message: "expected \(valueCount) values, got \(values.count)")
        }
        let substitution = Substitution(values: values)
        let query = try substitution.query(self.query)
        return JSONPath(text: template.text(with: values), query: query)
    }

    /// `value` as an RFC 9535 string literal in single quotes, escaped so it cannot end early.
    static func quoted(_ value: String) -> String {
        var text = "'"
        for scalar in value.unicodeScalars {
            switch scalar {
            case "'": text += "\\'"
            case "\\": text += "\\\\"
            case "\u{8}": text += "\\b"
            case "\u{C}": text += "\\f"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "'"
    }

    /// `value` as a literal of the query language, when it is one of its kinds.
    static func literalText(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): quoted(s)
        case .number(let n): n.intValue.map(String.init) ?? n.text
        case .bool(let b): b ? "true" : "false"
        case .null: "null"
        case .array, .object: "…"
        }
    }
}

extension PathTemplate {
    func text(with values: [JSONValue]) -> String {
        var text = ""
        var index = 0
        for piece in pieces {
            switch piece {
            case .text(let part):
                text += part
            case .value:
                let literal = index < values.count ? JSONPath.literalText(values[index]) : "…"
                if dotted.contains(index) {
                    if text.hasSuffix(".") { text.removeLast() }
                    text += "[\(literal)]"
                } else if descendant.contains(index) {
                    text += "[\(literal)]"
                } else {
                    text += literal
                }
                index += 1
            }
        }
        return text
    }
}

/// Replaces the placeholders of a parsed query by values. Recursion follows the parsed
/// query, whose nesting the parser has bounded.
private struct Substitution {
    let values: [JSONValue]

    func query(_ query: PathQuery) throws(JSONPathValueError) -> PathQuery {
        var result = query
        result.segments = []
        result.segments.reserveCapacity(query.segments.count)
        for segment in query.segments {
            switch segment {
            case .child(let selectors): result.segments.append(.child(try self.selectors(selectors)))
            case .descendant(let selectors): result.segments.append(.descendant(try self.selectors(selectors)))
            }
        }
        return result
    }

    private func selectors(_ selectors: [PathSelector]) throws(JSONPathValueError) -> [PathSelector] {
        var result: [PathSelector] = []
        result.reserveCapacity(selectors.count)
        for selector in selectors {
            switch selector {
            case .placeholder(let index):
                result.append(try self.selector(index))
            case .filter(let expression):
                result.append(.filter(try self.expression(expression)))
            default:
                result.append(selector)
            }
        }
        return result
    }

    private func selector(_ index: Int) throws(JSONPathValueError) -> PathSelector {
        let value = values[index]
        switch value {
        case .string(let name):
            return .name(name)
        case .number(let n):
            if n.isInteger, let i = n.intValue, abs(i) <= (1 << 53) - 1 { return .index(i) }
            throw JSONPathValueError(index: index, message: "an index must be an integer within ±(2^53 − 1), not \(n.text)")
        default:
            throw JSONPathValueError(index: index, message: "a name or index must be a string or an integer, not \(Self.describe(value))")
        }
    }

    private func expression(_ expression: FilterExpression) throws(JSONPathValueError) -> FilterExpression {
        switch expression {
        case .placeholder(let index):
            let value = values[index]
            switch value {
            case .string, .number, .bool, .null: return .literal(value)
            case .array, .object:
                throw JSONPathValueError(index: index, message: "a value in a filter must be a string, a number, true, false or null, not \(Self.describe(value))")
            }
        case .or(let operands): return .or(try operands.map { operand throws(JSONPathValueError) in try self.expression(operand) })
        case .and(let operands): return .and(try operands.map { operand throws(JSONPathValueError) in try self.expression(operand) })
        case .not(let operand): return .not(try self.expression(operand))
        case .comparison(let left, let op, let right): return .comparison(try self.expression(left), op, try self.expression(right))
        case .literal: return expression
        case .query(let query): return .query(try self.query(query))
        case .function(let function, let arguments):
            return .function(function, try arguments.map { argument throws(JSONPathValueError) in try self.expression(argument) })
        }
    }

    private static func describe(_ value: JSONValue) -> String {
        switch value {
        case .array: "an array"
        case .object: "an object"
        case .string(let s): "the string \(JSONPath.quoted(s))"
        case .number(let n): n.text
        case .bool(let b): b ? "true" : "false"
        case .null: "null"
        }
    }
}
