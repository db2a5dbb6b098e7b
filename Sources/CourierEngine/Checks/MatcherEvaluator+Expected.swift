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
            return .object(JSONObject(predicates.map { ($0.kind.name, json(of: $0.kind)) }))
        }
    }

    private func json(of kind: PredicateKind) -> JSONValue {
        switch kind {
        case .eq(let v), .ne(let v), .gt(let v), .gte(let v), .lt(let v), .lte(let v), .in(let v), .notIn(let v),
             .contains(let v), .notContains(let v), .startsWith(let v), .endsWith(let v), .matches(let v, _), .notMatches(let v, _):
            return (try? operand(v)) ?? .null
        case .exists(let flag), .empty(let flag), .uuid(let flag), .isoDate(let flag):
            return .bool(flag)
        case .type(let type):
            return .string(type.rawValue)
        case .length(let inner), .each(let inner), .not(let inner):
            return json(of: inner)
        case .schema:
            return .string("schema")
        }
    }
}
