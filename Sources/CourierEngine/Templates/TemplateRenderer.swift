import CourierDiagnostics
import CourierJSON
import CourierWorkflow

/// Turns templates and template values into resolved values in a scope.
///
/// Rendering never changes the parsed workflow; it returns new values.
package struct TemplateRenderer {
    package var scope: Scope
    package var functions: BuiltinFunctions
    /// Set while computing a secret (`secrets:`, a `secret: true` capture's default):
    /// error messages then describe values instead of quoting them, because the value
    /// being computed, or a step towards it, is not yet known to be masked.
    package var redactingValues = false

    package init(scope: Scope, functions: BuiltinFunctions = BuiltinFunctions(), redactingValues: Bool = false) {
        self.scope = scope
        self.functions = functions
        self.redactingValues = redactingValues
    }

    private var evaluator: ExpressionEvaluator {
        ExpressionEvaluator(scope: scope, functions: functions, redactingValues: redactingValues)
    }

    /// The template as text: values are interpolated as text, arrays and objects as compact JSON.
    package func string(_ template: Template) throws(EvaluationError) -> String {
        var text = ""
        for part in template.parts {
            switch part {
            case .literal(let literal): text += literal
            case .expression(let expression, _): text += Self.interpolation(try evaluator.evaluate(expression))
            }
        }
        return text
    }

    /// A template that is exactly one `{{ expr }}` keeps its value's type; any other is a string.
    package func value(_ template: Template) throws(EvaluationError) -> JSONValue {
        if let expression = template.singleExpression {
            return try evaluator.evaluate(expression)
        }
        return .string(try string(template))
    }

    /// A YAML value with templates in its strings, resolved to JSON.
    package func value(_ value: TemplateValue) throws(EvaluationError) -> JSONValue {
        switch value.kind {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let text, _):
            guard let number = JSONNumber(text: text) else {
                throw EvaluationError(.invalid, "the number '\(text)' cannot be represented in JSON", at: value.range)
            }
            return .number(number)
        case .string(let template): return try self.value(template)
        case .array(let items):
            var result: [JSONValue] = []
            result.reserveCapacity(items.count)
            for item in items { result.append(try self.value(item)) }
            return .array(result)
        case .object(let pairs):
            var result: [(key: String, value: JSONValue)] = []
            result.reserveCapacity(pairs.count)
            for pair in pairs { result.append((pair.key, try self.value(pair.value))) }
            return .object(JSONObject(result))
        }
    }

    /// Evaluates an `if:`-style condition to a boolean by truthiness.
    package func condition(_ expression: Expression) throws(EvaluationError) -> Bool {
        ExpressionEvaluator.isTruthy(try evaluator.evaluate(expression))
    }

    package func evaluate(_ expression: Expression) throws(EvaluationError) -> JSONValue {
        try evaluator.evaluate(expression)
    }

    /// How a value reads inside a longer string.
    package static func interpolation(_ value: JSONValue) -> String { value.interpolationText }
}
