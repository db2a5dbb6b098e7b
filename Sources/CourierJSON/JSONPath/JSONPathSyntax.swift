// The syntax tree of an RFC 9535 query, already type-checked by the parser.

/// A query: `$` or `@` followed by segments.
struct PathQuery: Sendable {
    var isRelative: Bool
    var segments: [PathSegment]

    /// A singular query has only single name and index selectors (RFC 9535 §2.3.5.1).
    var isSingular: Bool {
        segments.allSatisfy { segment in
            guard case .child(let selectors) = segment, selectors.count == 1 else { return false }
            switch selectors[0] {
            // A placeholder becomes a name or an index: never more than one node.
            case .name, .index, .placeholder: return true
            default: return false
            }
        }
    }
}

enum PathSegment: Sendable {
    case child([PathSelector])
    case descendant([PathSelector])
}

enum PathSelector: Sendable {
    case name(String)
    case wildcard
    case index(Int)
    case slice(start: Int?, end: Int?, step: Int?)
    case filter(FilterExpression)
    /// Where the `n`th value of a templated query goes (``JSONPath/substituting(_:)``): a
    /// string becomes a name, an integer an index.
    case placeholder(Int)
}

/// A filter expression. Logical nodes (`or`, `and`, `not`, `comparison`, `exists`,
/// `logicalFunction`) yield booleans; the others are operands of comparisons and functions.
indirect enum FilterExpression: Sendable {
    case or([FilterExpression])
    case and([FilterExpression])
    case not(FilterExpression)
    case comparison(FilterExpression, ComparisonOperator, FilterExpression)
    case literal(JSONValue)
    case query(PathQuery)
    case function(PathFunction, [FilterExpression])
    /// The `n`th value of a templated query, a literal once substituted.
    case placeholder(Int)
}

enum ComparisonOperator: String, Sendable {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
}

/// The RFC 9535 function extension types (§2.4.1).
enum FunctionType: Sendable {
    case value, logical, nodes
}

/// The functions of RFC 9535 §2.4.4–2.4.8.
enum PathFunction: String, Sendable, CaseIterable {
    case length, count, match, search, value

    var parameters: [FunctionType] {
        switch self {
        case .length: [.value]
        case .count: [.nodes]
        case .match, .search: [.value, .value]
        case .value: [.nodes]
        }
    }

    var result: FunctionType {
        switch self {
        case .length, .count, .value: .value
        case .match, .search: .logical
        }
    }
}
