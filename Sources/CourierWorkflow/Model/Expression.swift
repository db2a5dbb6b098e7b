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

    /// Filters, with their argument counts (``Filters``); others are decode-time errors.
    package static var knownFilters: [String: ClosedRange<Int>] { Filters.arities }

    /// Functions, with their argument counts (``Functions``); others are decode-time errors.
    package static var knownFunctions: [String: ClosedRange<Int>] { Functions.arities }
}
