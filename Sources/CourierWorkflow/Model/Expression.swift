import CourierDiagnostics

/// A parsed `{{ … }}` expression or `if:` condition (spec section 9).
///
/// Every node carries its range so the engine can say where an unknown
/// variable or a type error is.
package struct Expression: Sendable {
    package indirect enum Kind: Sendable {
        /// `user`, `env`, `steps`, `item`, `index`.
        case variable(String)
        /// `base.name`
        case member(Expression, String)
        /// `base[index]`
        case index(Expression, Expression)
        case string(String)
        /// A number literal with its text (`1.50` stays `1.50`).
        case number(String, isInteger: Bool)
        case bool(Bool)
        case null
        /// `uuid()`, `now()`, `timestamp()`, `random_int(a, b)`, `random_string(n)`.
        case call(String, [Expression])
        /// `base | name(args)`
        case filter(Expression, String, [Expression])
        case binary(BinaryOperator, Expression, Expression)
        /// `not operand`
        case not(Expression)
    }

    package enum BinaryOperator: String, Sendable, Hashable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        case and, or
    }

    package var kind: Kind
    package var range: SourceRange

    package init(_ kind: Kind, range: SourceRange) {
        self.kind = kind
        self.range = range
    }

    /// Filters the engine implements; others are decode-time errors.
    package static let knownFilters: [String: ClosedRange<Int>] = [
        "default": 1...1, "upper": 0...0, "lower": 0...0, "trim": 0...0, "length": 0...0,
        "first": 0...0, "last": 0...0, "base64_encode": 0...0, "base64_decode": 0...0,
        "url_encode": 0...0, "json": 0...0, "sha256": 0...0, "int": 0...0, "float": 0...0, "string": 0...0,
    ]

    /// Functions the engine implements, with their argument counts.
    package static let knownFunctions: [String: ClosedRange<Int>] = [
        "uuid": 0...0, "now": 0...0, "timestamp": 0...0, "random_int": 2...2, "random_string": 1...1,
    ]
}
