import CourierJSON

/// One predicate of spec section 7: its shape and its evaluation, declared together in one
/// of the `Predicates+…` files and listed in ``PredicateDefinition/all``.
///
/// The evaluation is pure: it sees the operand with its templates rendered and the checked
/// value, and returns a ``Verdict``. What only the engine can do (render templates, check
/// a nested matcher, validate against a JSON Schema with its files and cache) it asks for
/// through the verdict, and the engine does it generically for every predicate.
///
/// A class so that each decoded ``Predicate`` holds one reference, found once when the
/// workflow is decoded: checking a predicate calls its evaluation without looking it up.
package final class PredicateDefinition: Sendable {
    package let shape: CheckShape
    /// What the predicate says about a value that is not there.
    package let absence: Absence
    /// Whether the predicate only makes sense on one value, for the operand it was given: the
    /// decoder warns when a JSONPath that yields a list meets it.
    private let oneValueRule: @Sendable (PredicateOperand) -> Bool
    private let evaluation: @Sendable (ResolvedOperand, PredicateInput) -> Verdict
    /// Whether a rendered operand is checked against the shape (see ``OperandShape/problem(with:for:)``).
    package let checksResolvedOperand: Bool

    package init(_ shape: CheckShape, absence: Absence = .needsValue,
                 checksOneValue: @escaping @Sendable (PredicateOperand) -> Bool = { _ in false },
                 evaluation: @escaping @Sendable (ResolvedOperand, PredicateInput) -> Verdict) {
        self.shape = shape
        self.absence = absence
        self.oneValueRule = checksOneValue
        self.evaluation = evaluation
        self.checksResolvedOperand = shape.operand.checksResolvedValues
    }

    /// The verdict on `input`; `operand` is this predicate's, resolved.
    @inline(__always)
    package func evaluate(_ operand: ResolvedOperand, _ input: PredicateInput) -> Verdict {
        evaluation(operand, input)
    }

    /// Whether the predicate checks a single value with this operand.
    package func checksOneValue(_ operand: PredicateOperand) -> Bool { oneValueRule(operand) }

    /// The words of a ``OperandShape/choice(_:)`` operand, by index.
    package var choices: [String] {
        if case .choice(let words) = shape.operand { return words }
        return []
    }

    /// What a missing value (a singular JSONPath that matched nothing, a missing header) means.
    package enum Absence: Sendable {
        /// The check needs a value: nothing there fails it, once for the whole predicate map.
        case needsValue
        /// As ``needsValue``, and the failure says a list was wanted (`each`).
        case needsList
        /// The evaluation decides, with ``PredicateInput/value`` nil (`exists`).
        case decides
        /// The evaluation decides when its nested matcher does (`not: { exists: true }`).
        case decidesWhenNestedDoes
    }
}

/// What a predicate checks: the value, or nil when there is none (only evaluations whose
/// ``PredicateDefinition/Absence`` decides see nil).
package struct PredicateInput {
    package let value: JSONValue?
    /// The value is the list a non-singular JSONPath always gives.
    package let isNodelist: Bool

    package init(value: JSONValue?, isNodelist: Bool) {
        self.value = value
        self.isNodelist = isNodelist
    }
}

/// A predicate's operand with its templates rendered, one case per ``PredicateOperand`` case.
package enum ResolvedOperand {
    case value(JSONValue)
    case flag(Bool)
    case choice(Int)
    case regex(RegexPattern)
    /// The nested matcher stays with the engine, which checks it when the verdict asks.
    case matcher
    /// The nested matchers stay with the engine too.
    case matchers
    /// The schema stays with the engine, which validates when the verdict asks.
    case schema
    /// The `jwt` predicate's requirements, rendered, with the engine's clock and secrets.
    case jwt(JWTRequirements)
}

/// A predicate's answer. Besides holding or failing, a verdict can hand the decision to the
/// predicate's nested matcher or schema, which the engine checks.
package enum Verdict {
    case holds
    /// Fails, saying why (without the subject, which the engine puts in front).
    case fails(String, expected: Expected?)
    /// The nested matcher's verdict on `value`, checked as "`prefix` + the subject" (`length of body`).
    case nested(JSONValue, subjectPrefix: String)
    /// The nested matcher's verdict on every item, each checked as "subject[index]".
    case eachNested([JSONValue])
    /// Holds when the nested matcher fails on the same value; fails with this otherwise.
    case negated(String, expected: Expected?)
    /// Holds when every matcher of the list operand holds on the same value; otherwise
    /// their failures, each at its own place (`all`).
    case everyMatcher
    /// Holds when at least one matcher of the list operand holds on the same value; otherwise
    /// fails with this, followed by what each one said (`any`).
    case someMatcher(String, expected: Expected?)
    /// The verdict of validating `instance` against the schema operand.
    case schema(JSONValue)
    /// The token verified: its claims, each checked by the engine against the operand's
    /// `claims:` matchers as "claim 'name' of" the subject. `hidingValues`: the token is a
    /// secret, so a failure names the claim and never shows its value.
    case claims(JSONObject, hidingValues: Bool)

    /// What a failed check expected, as reports show it.
    package enum Expected {
        /// A value, after words that say how it is compared (`≠`, `one of`).
        case value(JSONValue, after: String? = nil)
        /// Words alone (`a UUID`).
        case words(String)
    }

    /// The value has the wrong type for `key`: the one message every predicate gives.
    static func needs(_ key: String, _ what: String, _ value: JSONValue?) -> Verdict {
        .fails("'\(key)' needs \(what), but the value is \(value?.kindDescription ?? "missing")", expected: nil)
    }
}
