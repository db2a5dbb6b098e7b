import CourierJSON
import CourierResults
import CourierWorkflow

extension MatcherEvaluator {
    /// What a matcher expects, as a value for a passed expectation's record: a plain
    /// value as itself, a predicate map as a map of resolved operands (`{"lt": 500}`).
    /// An operand whose template cannot be evaluated is recorded as null (it passed,
    /// so it was evaluated once; only a side-effect-free re-evaluation is attempted).
    func expected(_ matcher: Matcher) -> CheckedValue {
        .value(json(of: matcher))
    }

    private func json(of matcher: Matcher) -> JSONValue {
        switch matcher {
        case .equals(let value):
            return (try? operand(value)) ?? .null
        case .predicates(let predicates, _):
            return .object(JSONObject(predicates.map { ($0.name, json(of: $0)) }))
        }
    }

    private func json(of predicate: CourierWorkflow.Predicate) -> JSONValue {
        switch predicate.operand {
        case .value(_, let literal?) where !durationOperands:
            return literal
        case .value(let v, let literal):
            return (try? operand(v, literal: literal)) ?? .null
        case .regex(let v, _):
            return (try? operand(v)) ?? .null
        case .flag(let flag):
            return .bool(flag)
        case .choice(let index):
            return .string(predicate.definition.choices[index])
        case .matcher(let inner):
            return json(of: inner)
        case .matchers(let list):
            return .array(list.map { json(of: $0) })
        case .schema:
            return .string("schema")
        case .jwt(let jwt):
            return json(of: jwt)
        }
    }
}
