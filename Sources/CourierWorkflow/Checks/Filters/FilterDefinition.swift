import CourierDiagnostics
import CourierJSON

/// One `| filter` of spec section 9: its shape and its evaluation, listed in ``Filters/all``.
package final class FilterDefinition: Sendable {
    package let shape: CallShape
    /// Nil for `default`, which the expression evaluator applies itself: it must see whether
    /// its input is undefined, not just its value.
    private let evaluation: (@Sendable (_ input: JSONValue, _ arguments: [JSONValue], _ call: FilterCall) throws(EvaluationError) -> JSONValue)?

    init(_ shape: CallShape,
         evaluation: (@Sendable (JSONValue, [JSONValue], FilterCall) throws(EvaluationError) -> JSONValue)?) {
        self.shape = shape
        self.evaluation = evaluation
    }

    /// The filter applied to `input`; `context` has the clock (`days_before_now`).
    package func apply(to input: JSONValue, arguments: [JSONValue], at range: SourceRange,
                       redactingValues: Bool, context: any FunctionContext) throws(EvaluationError) -> JSONValue {
        let call = FilterCall(name: shape.name, range: range, redactingValues: redactingValues, context: context)
        guard let evaluation else {
            throw EvaluationError(.invalid, "filter '\(shape.name)' is applied by the template evaluator", at: range)
        }
        return try evaluation(input, arguments, call)
    }
}

/// Where a filter is applied, for its messages.
package struct FilterCall {
    package let name: String
    package let range: SourceRange
    /// Say "the value" instead of quoting the input: it may be a secret being computed, which
    /// no output may show.
    package let redactingValues: Bool
    /// The engine's clock, for the filters that compare with now.
    let context: any FunctionContext

    /// `'abc'` in a message, or `the value` when values must not be shown.
    func quoted(_ text: some StringProtocol) -> String { redactingValues ? "the value" : "'\(text)'" }

    /// The input as a string, or the error every string filter gives.
    func string(_ input: JSONValue) throws(EvaluationError) -> String {
        guard case .string(let s) = input else {
            throw EvaluationError(.type, "filter '\(name)' needs a string, found \(input.kindDescription)", at: range)
        }
        return s
    }
}
