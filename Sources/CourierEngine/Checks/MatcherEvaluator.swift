import CourierDiagnostics
import CourierJSON
import CourierResults
import CourierSecrets
import CourierWorkflow
import Foundation

/// Checks a value against a plain value or a map of predicates (spec section 7).
///
/// `actual == nil` means "nothing there" (a singular JSONPath that matched no node, a
/// missing header): only `exists: false` passes then. A `nodelist` is the list a
/// non-singular JSONPath always gives: for it `exists` means "at least one match".
struct MatcherEvaluator {
    let renderer: TemplateRenderer
    /// For `expect.duration`: operands like `500ms` are durations in milliseconds.
    var durationOperands = false
    /// For `expect.headers`: a plain value nested in a predicate (`any: [42, 43]`) is compared
    /// with a text value as text, as the header's own plain value is.
    var comparesAsText = false
    /// The run's secrets, for the `jwt` predicate: a secret token's claims are named, not shown.
    var secrets: SecretRegistry?

    func check(_ matcher: Matcher, actual: JSONValue?, subject: String, nodelist: Bool = false) -> [ExpectationResult] {
        switch matcher {
        case .equals(let expectedValue):
            var expected: JSONValue
            do { expected = try operand(expectedValue) } catch { return [templateFailure(error, subject: subject)] }
            if comparesAsText, let actual, Self.isHeaderText(actual) {
                // As a header's own plain value: a value of a repeated header, or the joined text.
                let text = TemplateRenderer.interpolation(expected)
                if case .array(let values) = actual, values.contains(.string(text)) { return [] }
                if TemplateRenderer.interpolation(actual) == text { return [] }
                expected = .string(text)
            }
            guard let actual else {
                return [ExpectationResult.failure(location: expectedValue.range, subject: subject,
                                         message: "\(subject): expected \(Self.short(expected)), but there is no value",
                                         expectedValue: .value(expected), actualValue: .nothing)]
            }
            if Self.equal(actual, expected) { return [] }
            // Keys sorted on both sides: equality ignores key order, so the
            // reporters' line diff should not show reordered keys as changes.
            return [ExpectationResult.failure(location: expectedValue.range, subject: subject,
                                     message: "\(subject): expected \(Self.short(expected)), got \(Self.short(actual))",
                                     expectedValue: .value(Self.sortingKeys(expected)), actualValue: .value(Self.sortingKeys(actual)))]
        case .predicates(let predicates, let range):
            guard actual == nil else {
                return predicates.flatMap { check($0, actual: actual, subject: subject, nodelist: nodelist) }
            }
            // Nothing there: only `exists: false` (or its spelling `not: { exists: true }`)
            // can pass. Anything else is one "no value" failure, not one per predicate.
            var failures: [ExpectationResult] = []
            var needsValue = false
            /// The first predicate that wants a list, named in the failure.
            var needsList: String?
            for predicate in predicates {
                if Self.decidesWithoutValue(predicate) {
                    failures += check(predicate, actual: nil, subject: subject)
                } else {
                    needsValue = true
                    if case .needsList = predicate.definition.absence, needsList == nil { needsList = predicate.name }
                }
            }
            if needsValue {
                // `each` holds on an empty list, but nothing at all is not an empty list.
                let why = needsList.map { " ('\($0)' needs a list)" } ?? ""
                failures.append(ExpectationResult.failure(location: range, subject: subject,
                                                 message: "\(subject): there is no value to check\(why)",
                                                 expected: needsList == nil ? "a value" : "a list", actual: "(nothing)"))
            }
            return failures
        }
    }

    /// Whether a predicate decides on a missing value (`exists`, `not: { exists: true }`).
    private static func decidesWithoutValue(_ predicate: CourierWorkflow.Predicate) -> Bool {
        switch predicate.definition.absence {
        case .decides: return true
        case .decidesWhenNestedDoes:
            guard case .matcher(.predicates(let inner, _)) = predicate.operand else { return false }
            return inner.allSatisfy(decidesWithoutValue)
        case .needsValue, .needsList: return false
        }
    }

    // MARK: - One predicate

    /// Renders the predicate's operand, asks its definition for a verdict and does what the
    /// verdict hands back (a nested matcher, a schema): the same steps for every predicate.
    private func check(_ predicate: CourierWorkflow.Predicate, actual: JSONValue?, subject: String, nodelist: Bool = false) -> [ExpectationResult] {
        func fail(_ message: String, expected: CheckedValue? = nil) -> [ExpectationResult] {
            [ExpectationResult.failure(location: predicate.range, subject: subject, message: "\(subject): \(message)",
                                       expectedValue: expected, actualValue: actual.map { .value($0) } ?? .nothing)]
        }
        let definition = predicate.definition
        // Reported once for the whole map by the caller.
        if actual == nil, !Self.decidesWithoutValue(predicate) { return [] }

        let resolved: ResolvedOperand
        switch predicate.operand {
        case .value(_, let literal?) where !durationOperands:
            // The common case: a literal, made JSON at decode time (and checked against the shape there).
            resolved = .value(literal)
        case .value(let value, let literal):
            let rendered: JSONValue
            do { rendered = try operand(value, literal: literal) } catch { return [templateFailure(error, subject: subject)] }
            if definition.checksResolvedOperand, let problem = definition.shape.operand.problem(with: rendered, for: definition.shape.key) {
                return fail("'\(definition.shape.key)': \(problem)")
            }
            resolved = .value(rendered)
        case .flag(let flag): resolved = .flag(flag)
        case .choice(let index): resolved = .choice(index)
        case .regex(_, let compiled?): resolved = .regex(compiled)
        case .regex(let value, nil):
            // A templated pattern is rendered and compiled when it is checked.
            let pattern: String
            do { pattern = try operand(value).interpolationText } catch { return [templateFailure(error, subject: subject)] }
            do { resolved = .regex(try RegexPattern(pattern, dialect: .workflow)) } catch {
                return fail("invalid regular expression /\(pattern)/: \(error)")
            }
        case .matcher: resolved = .matcher
        case .matchers: resolved = .matchers
        case .schema: resolved = .schema
        case .jwt(let jwt):
            do { resolved = .jwt(try requirements(jwt, token: actual)) } catch { return [templateFailure(error, subject: subject)] }
        }

        switch definition.evaluate(resolved, PredicateInput(value: actual, isNodelist: nodelist)) {
        case .holds:
            return []
        case .fails(let message, let expected):
            return fail(message, expected: expected.map(Self.checked))
        case .nested(let value, let prefix):
            guard case .matcher(let inner) = predicate.operand else { return [] }
            return check(inner, actual: value, subject: prefix + subject)
        case .eachNested(let items):
            guard case .matcher(let inner) = predicate.operand else { return [] }
            return items.enumerated().flatMap { index, item in check(inner, actual: item, subject: "\(subject)[\(index)]") }
        case .negated(let message, let expected):
            guard case .matcher(let inner) = predicate.operand else { return [] }
            return check(inner, actual: actual, subject: subject, nodelist: nodelist).isEmpty ? fail(message, expected: expected.map(Self.checked)) : []
        case .everyMatcher:
            guard case .matchers(let list) = predicate.operand else { return [] }
            return list.flatMap { check($0, actual: actual, subject: subject, nodelist: nodelist) }
        case .someMatcher(let message, let expected):
            guard case .matchers(let list) = predicate.operand else { return [] }
            guard let reasons = reasonsNoneHolds(list, actual: actual, subject: subject, nodelist: nodelist) else { return [] }
            return fail("\(message): \(reasons)", expected: expected.map(Self.checked))
        case .schema(let instance):
            guard case .schema(let source) = predicate.operand else { return [] }
            return SchemaChecker(renderer: renderer).check(source, instance: instance, subject: subject)
        case .claims(let claims, let hidingValues):
            guard case .jwt(let jwt) = predicate.operand else { return [] }
            return check(claims: jwt, of: claims, hidingValues: hidingValues, subject: subject)
        }
    }

    /// Nil when one of the matchers holds; otherwise what each said, numbered from 1
    /// (`[1] expected > 5, got 3; [2] expected "x", got 3`).
    private func reasonsNoneHolds(_ matchers: [Matcher], actual: JSONValue?, subject: String, nodelist: Bool) -> String? {
        var reasons: [String] = []
        for (index, matcher) in matchers.enumerated() {
            let failures = check(matcher, actual: actual, subject: subject, nodelist: nodelist)
            if failures.isEmpty { return nil }
            let said = failures.map { failure in
                failure.message.hasPrefix(subject + ": ") ? String(failure.message.dropFirst(subject.count + 2)) : failure.message
            }
            reasons.append("[\(index + 1)] " + said.joined(separator: ", "))
        }
        return reasons.joined(separator: "; ")
    }

    /// A header's value: a string, or the strings of a header received several times.
    private static func isHeaderText(_ value: JSONValue) -> Bool {
        switch value {
        case .string: true
        case .array(let items): items.allSatisfy { if case .string = $0 { true } else { false } }
        default: false
        }
    }

    private static func checked(_ expected: Verdict.Expected) -> CheckedValue {
        switch expected {
        case .value(let value, let words): .value(value, after: words)
        case .words(let words): .words(words)
        }
    }

    // MARK: - Operands and values

    /// An expected value, resolved; `500ms` becomes 500 where durations are compared.
    /// `literal` is `value` as JSON when it holds no template (made at decode time).
    func operand(_ value: TemplateValue, literal: JSONValue? = nil) throws(EvaluationError) -> JSONValue {
        let resolved: JSONValue
        if let literal { resolved = literal } else { resolved = try renderer.value(value) }
        if durationOperands, case .string(let text) = resolved, let duration = Duration.parse(text) {
            // Same rule as a literal duration at load time (templates are only known now).
            guard duration >= Duration.shortestAllowed else {
                throw EvaluationError(.invalid, "duration '\(text)' is shorter than 1ms; write at least 1ms", at: value.range)
            }
            guard duration <= Duration.longestAllowed else {
                throw EvaluationError(.invalid, "duration '\(text)' is longer than \(Duration.longestAllowedText), the longest Courier accepts", at: value.range)
            }
            return .number(JSONNumber(Int(duration.wholeMilliseconds)))
        }
        return resolved
    }

    private func templateFailure(_ error: EvaluationError, subject: String) -> ExpectationResult {
        ExpectationResult.failure(location: error.range, subject: subject, message: "\(subject): \(error.message)")
    }

    /// JSON equality (`1 == 1.0`, key order ignored).
    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool { a == b }

    /// One line, cut to a readable length, for messages.
    static func short(_ value: JSONValue) -> String { value.shortText }

    /// The value with every object's keys in code-point order.
    static func sortingKeys(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            return .object(JSONObject(object.keys.sorted().compactMap { key in object[key].map { (key, sortingKeys($0)) } }))
        case .array(let items):
            return .array(items.map(sortingKeys))
        default:
            return value
        }
    }
}
