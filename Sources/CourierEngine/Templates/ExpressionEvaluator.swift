import CourierDiagnostics
import CourierJSON
import CourierWorkflow

/// Evaluates section 9 expressions against a scope.
struct ExpressionEvaluator {
    let scope: Scope
    let functions: BuiltinFunctions
    /// Messages say "the value" instead of quoting it (see ``TemplateRenderer/redactingValues``).
    var redactingValues = false

    func evaluate(_ expression: Expression) throws(EvaluationError) -> JSONValue {
        switch expression.kind {
        case .variable(let name):
            return try lookup(name, at: expression.range)
        case .member(let base, let name):
            if case .variable("env") = base.kind {
                guard let value = scope.environment[name] else {
                    throw EvaluationError(.undefined, "environment variable '\(name)' is not set", at: expression.range)
                }
                return .string(value)
            }
            let container = try evaluate(base)
            return try member(name, of: container, base: base, at: expression.range)
        case .index(let base, let indexExpression):
            let container = try evaluate(base)
            let index = try evaluate(indexExpression)
            return try subscripted(container, by: index, base: base, at: expression.range)
        case .string(let s): return .string(s)
        case .number(let text, _):
            guard let number = JSONNumber(text: text) else {
                throw EvaluationError(.invalid, "invalid number '\(text)'", at: expression.range)
            }
            return .number(number)
        case .bool(let b): return .bool(b)
        case .null: return .null
        case .call(let name, let arguments):
            var values: [JSONValue] = []
            for argument in arguments { values.append(try evaluate(argument)) }
            return try functions.call(name, values, at: expression.range)
        case .filter(let base, let name, let arguments):
            if name == "default" {
                return try defaultFilter(base, arguments, at: expression.range)
            }
            let input = try evaluate(base)
            var values: [JSONValue] = []
            for argument in arguments { values.append(try evaluate(argument)) }
            // Unknown names are decode-time errors; this one is for expressions made in code.
            guard let filter = Filters.named(name) else {
                throw EvaluationError(.invalid, "unknown filter '\(name)'", at: expression.range)
            }
            return try filter.apply(to: input, arguments: values, at: expression.range, redactingValues: redactingValues,
                                    context: functions)
        case .binary(let op, let lhs, let rhs):
            return try binary(op, lhs, rhs, at: expression.range)
        case .not(let operand):
            return .bool(!Self.isTruthy(try evaluate(operand)))
        }
    }

    // MARK: - Names

    private func lookup(_ name: String, at range: SourceRange) throws(EvaluationError) -> JSONValue {
        if name == "request", let sent = scope.sentRequest { return SentRequestValue.json(of: sent) }
        if let value = scope.variables[name] { return value }
        switch name {
        case "env":
            return .object(JSONObject(scope.environment.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }))
        case "steps":
            return .object(JSONObject(scope.steps.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        default:
            var message = "unknown variable '\(name)'"
            if let close = suggestion(for: name, among: scope.variables.keys) {
                message += "; did you mean '\(close)'?"
            }
            throw EvaluationError(.undefined, message, at: range)
        }
    }

    private func member(_ name: String, of container: JSONValue, base: Expression, at range: SourceRange) throws(EvaluationError) -> JSONValue {
        guard case .object(let object) = container else {
            throw EvaluationError(.type, "cannot read member '\(name)' of \(Self.describe(container)) '\(Self.sourceName(base))'", at: range)
        }
        guard let value = object[name] ?? (Self.isStepHeaders(base) ? object[name.lowercased()] : nil) else {
            var message = "'\(Self.sourceName(base))' has no member '\(name)'"
            if let close = suggestion(for: name, among: object.keys) { message += "; did you mean '\(close)'?" }
            throw EvaluationError(.undefined, message, at: range)
        }
        return value
    }

    /// `steps.<id>.headers` (or `steps['<id>'].headers`), `request.headers` and
    /// `steps.<id>.request.headers`: their names are case-insensitive (RFC 9110), like every
    /// other header lookup. The object holds each name as sent and in lower case, so any other
    /// spelling is found through the lower-case one.
    private static func isStepHeaders(_ expression: Expression) -> Bool {
        guard case .member(let owner, "headers") = expression.kind else { return false }
        return isStep(owner) || isRequest(owner)
    }

    /// `steps.<id>` or `steps['<id>']`.
    private static func isStep(_ expression: Expression) -> Bool {
        switch expression.kind {
        case .member(let steps, _), .index(let steps, _):
            if case .variable("steps") = steps.kind { return true }
            return false
        default:
            return false
        }
    }

    /// `request` (in a step's checks) or `steps.<id>.request`.
    private static func isRequest(_ expression: Expression) -> Bool {
        switch expression.kind {
        case .variable("request"): true
        case .member(let step, "request"): isStep(step)
        default: false
        }
    }

    private func subscripted(_ container: JSONValue, by index: JSONValue, base: Expression, at range: SourceRange) throws(EvaluationError) -> JSONValue {
        switch (container, index) {
        case (.array(let items), .number(let number)):
            guard let i = number.intValue else {
                throw EvaluationError(.type, "an array index must be an integer, found \(redactingValues ? "a fraction" : number.text)", at: range)
            }
            // Negative indexes count from the end, as in JSONPath.
            let position = i < 0 ? items.count + i : i
            guard items.indices.contains(position) else {
                let shown = redactingValues ? "" : " \(i)"
                throw EvaluationError(.undefined, "index\(shown) is out of range for '\(Self.sourceName(base))' (\(items.count) items)", at: range)
            }
            return items[position]
        case (.object, .string(let key)):
            return try member(key, of: container, base: base, at: range)
        default:
            throw EvaluationError(.type, "cannot index \(Self.describe(container)) '\(Self.sourceName(base))' with \(Self.describe(index))", at: range)
        }
    }

    // MARK: - default()

    private func defaultFilter(_ base: Expression, _ arguments: [Expression], at range: SourceRange) throws(EvaluationError) -> JSONValue {
        guard let fallback = arguments.first else {
            throw EvaluationError(.invalid, "filter 'default' needs one argument", at: range)
        }
        do {
            let value = try evaluate(base)
            if value != .null { return value }
        } catch where error.kind == .undefined {
            // Only a missing name falls back; a type error is still an error.
        }
        return try evaluate(fallback)
    }

    // MARK: - Operators

    private func binary(_ op: Expression.BinaryOperator, _ lhs: Expression, _ rhs: Expression, at range: SourceRange) throws(EvaluationError) -> JSONValue {
        switch op {
        case .and:
            let left = try evaluate(lhs)
            return Self.isTruthy(left) ? .bool(Self.isTruthy(try evaluate(rhs))) : .bool(false)
        case .or:
            let left = try evaluate(lhs)
            return Self.isTruthy(left) ? .bool(true) : .bool(Self.isTruthy(try evaluate(rhs)))
        case .equal:
            return .bool(try evaluate(lhs) == evaluate(rhs))
        case .notEqual:
            return .bool(try evaluate(lhs) != evaluate(rhs))
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            let left = try evaluate(lhs), right = try evaluate(rhs)
            guard let order = Self.compare(left, right) else {
                throw EvaluationError(.type, "cannot compare \(Self.describe(left)) with \(Self.describe(right)) using '\(op.rawValue)'", at: range)
            }
            switch op {
            case .less: return .bool(order < 0)
            case .lessOrEqual: return .bool(order <= 0)
            case .greater: return .bool(order > 0)
            default: return .bool(order >= 0)
            }
        }
    }

    // MARK: - Helpers shared with filters and checks

    /// -1, 0 or 1 for two numbers or two strings; nil for anything else.
    static func compare(_ a: JSONValue, _ b: JSONValue) -> Int? { JSONValue.order(a, b) }

    static func isTruthy(_ value: JSONValue) -> Bool {
        switch value {
        case .null: false
        case .bool(let b): b
        case .number(let n): n.doubleValue != 0
        case .string(let s): !s.isEmpty
        case .array(let a): !a.isEmpty
        case .object(let o): !o.isEmpty
        }
    }

    /// "a string", "an array", … for messages.
    static func describe(_ value: JSONValue) -> String { value.kindDescription }

    /// The expression as the user wrote it, for messages (`user.roles[0]`).
    static func sourceName(_ expression: Expression) -> String {
        switch expression.kind {
        case .variable(let name): name
        case .member(let base, let name): "\(sourceName(base)).\(name)"
        case .index(let base, let index): "\(sourceName(base))[\(sourceName(index))]"
        case .string(let s): "'\(s)'"
        case .number(let text, _): text
        case .bool(let b): b ? "true" : "false"
        case .null: "null"
        case .call(let name, _): "\(name)(…)"
        case .filter(let base, let name, _): "\(sourceName(base)) | \(name)"
        case .binary(let op, let l, let r): "\(sourceName(l)) \(op.rawValue) \(sourceName(r))"
        case .not(let e): "not \(sourceName(e))"
        }
    }
}
