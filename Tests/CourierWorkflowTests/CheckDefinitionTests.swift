import CourierDiagnostics
import CourierJSON
@testable import CourierWorkflow
import Foundation
import Testing

/// The declared shapes and the pure evaluations of checks, filters and functions.
@Suite struct CheckDefinitionTests {
    private static func decode(_ yaml: String) throws -> Workflow {
        let sources = SourceStore()
        // The file the `schema` examples name.
        sources.register(path: "schemas/user.json", text: #"{"type": "object"}"#)
        return try decodeWorkflow(text: yaml, path: "t.yaml", sources: sources).get()
    }

    /// A verdict as text, to compare.
    private static func text(_ verdict: Verdict) -> String {
        switch verdict {
        case .holds: "holds"
        case .fails(let message, _): "fails: \(message)"
        case .nested(let value, let prefix): "nested \(prefix)\(value.serialized())"
        case .eachNested(let items): "each of \(items.count)"
        case .negated(let message, _): "negated: \(message)"
        case .everyMatcher: "every matcher"
        case .someMatcher(let message, _): "some matcher: \(message)"
        case .schema(let instance): "schema \(instance.serialized())"
        case .claims(let claims, let hiding): "claims \(JSONValue.object(claims).serialized())\(hiding ? " hidden" : "")"
        }
    }

    private static func verdict(_ definition: PredicateDefinition, _ operand: ResolvedOperand, _ value: JSONValue?,
                                nodelist: Bool = false) -> String {
        text(definition.evaluate(operand, PredicateInput(value: value, isNodelist: nodelist)))
    }

    // MARK: - Predicates, evaluated alone

    @Test func comparisonsEvaluateOverJSONValues() {
        #expect(Self.verdict(.eq, .value(1), .number(JSONNumber(1.0))) == "holds")
        #expect(Self.verdict(.eq, .value("a"), "b") == "fails: expected \"a\", got \"b\"")
        #expect(Self.verdict(.ne, .value(1), 1) == "fails: expected anything but 1")
        #expect(Self.verdict(.gt, .value(1), 2) == "holds")
        #expect(Self.verdict(.lte, .value("b"), "c") == "fails: expected <= \"b\", got \"c\"")
        #expect(Self.verdict(.gt, .value(1), "2") == "fails: 'gt' needs a number, but the value is a string")
        #expect(Self.verdict(.lt, .value("x"), true) == "fails: 'lt' needs two numbers or two strings, but the value is a boolean")
    }

    @Test func structuralPredicatesHandTheirNestedCheckToTheEngine() {
        #expect(Self.verdict(.length, .matcher, [1, 2, 3]) == "nested length of 3")
        #expect(Self.verdict(.each, .matcher, [1, 2]) == "each of 2")
        #expect(Self.verdict(.each, .matcher, "x") == "fails: 'each' needs an array, but the value is a string")
        #expect(Self.verdict(.schema, .schema, ["a": 1]) == "schema {\"a\":1}")
        #expect(Self.verdict(.not, .matcher, 1).hasPrefix("negated:"))
    }

    @Test func combinatorsHandTheirListToTheEngineAndDecideOnNothing() {
        #expect(Self.verdict(.allOf, .matchers, 1) == "every matcher")
        #expect(Self.verdict(.anyOf, .matchers, nil) == "some matcher: expected at least one of the 'any' conditions to hold, but none did")
        #expect(PredicateDefinition.allOf.absence == .decides && PredicateDefinition.anyOf.absence == .decides)
        #expect(PredicateDefinition.named("all") === PredicateDefinition.allOf && PredicateDefinition.named("any") === PredicateDefinition.anyOf)
    }

    /// `integer` by the value (JSON Schema's rule), `float` by the text a JSON number keeps.
    @Test(arguments: [
        ("3", true, false), ("-3.0", true, true), ("1e3", true, true), ("1.5", false, true), ("2E-2", false, true), ("0", true, false),
    ])
    func integerIsByValueFloatByText(text: String, isInteger: Bool, isFloat: Bool) throws {
        let number = JSONValue.number(try #require(JSONNumber(text: text)))
        func type(_ type: JSONType) -> String { Self.verdict(.type, .choice(JSONType.allCases.firstIndex(of: type)!), number) }
        #expect(type(.integer) == (isInteger ? "holds" : "fails: expected an integer, got a number"))
        #expect(type(.float) == (isFloat ? "holds" : "fails: expected a float, got a number"))
        #expect(type(.number) == "holds")
    }

    @Test func collectionIsAnArrayOrAnObject() {
        let collection = JSONType.allCases.firstIndex(of: .collection)!
        #expect(Self.verdict(.type, .choice(collection), [1]) == "holds")
        #expect(Self.verdict(.type, .choice(collection), ["a": 1]) == "holds")
        #expect(Self.verdict(.type, .choice(collection), "ab") == "fails: expected a collection, got a string")
        #expect(Self.verdict(.type, .choice(JSONType.allCases.firstIndex(of: .float)!), "1.5") == "fails: expected a float, got a string")
    }

    @Test func existsDecidesOnNothingAndOnLists() {
        #expect(PredicateDefinition.exists.absence == .decides)
        #expect(Self.verdict(.exists, .flag(false), nil) == "holds")
        #expect(Self.verdict(.exists, .flag(true), nil) == "fails: expected a value, found none")
        #expect(Self.verdict(.exists, .flag(true), [], nodelist: true) == "fails: expected at least one match, found none")
        #expect(Self.verdict(.exists, .flag(false), [1], nodelist: true) == "fails: expected no match, found [1]")
    }

    @Test func textPredicates() throws {
        #expect(Self.verdict(.contains, .value(42), "a42b") == "holds")
        #expect(Self.verdict(.notContains, .value("k"), ["k": 1]) == "fails: expected not to contain \"k\"")
        #expect(Self.verdict(.startsWith, .value("ht"), "http") == "holds")
        #expect(Self.verdict(.endsWith, .value("x"), 1) == "fails: 'ends_with' needs a string, but the value is a number")
        let regex = try RegexPattern("^a+$", dialect: .workflow)
        #expect(Self.verdict(.matches, .regex(regex), "aaa") == "holds")
        #expect(Self.verdict(.notMatches, .regex(regex), "aa") == "fails: expected not to match /^a+$/")
        #expect(Self.verdict(.uuid, .flag(false), 3) == "holds")
        #expect(Self.verdict(.isoDate, .flag(true), "2024-02-30") == "fails: expected an ISO 8601 date, got \"2024-02-30\"")
        #expect(Self.verdict(.type, .choice(JSONType.allCases.firstIndex(of: .integer)!), 1.5) == "fails: expected an integer, got a number")
    }

    // MARK: - Shapes

    @Test func numberAndFieldShapesCheckResolvedValues() {
        let within = OperandShape.number(minimum: 0)
        #expect(within.problem(with: 0, for: "within") == nil)
        #expect(within.problem(with: -1, for: "within") == "'within' must be at least 0, found -1")
        #expect(within.problem(with: "1", for: "within") == "expected a number for 'within', found a string")
        let huge = JSONValue.number(JSONNumber(text: "1e400")!)
        #expect(within.problem(with: huge, for: "within") == "'within' is past the range of a number, found 1e400")
        let fields = OperandShape.fields([FieldShape(key: "value", operand: .number(minimum: nil), description: "the target"),
                                          FieldShape(key: "within", operand: within, description: "the tolerance")])
        #expect(fields.problem(with: ["value": 1, "within": 0.5], for: "near") == nil)
        #expect(fields.problem(with: ["value": 1], for: "near") == "'near' needs 'within' (the tolerance)")
        #expect(fields.problem(with: ["value": true, "within": 1], for: "near") == "expected a number for 'value', found a boolean")
        #expect(fields.problem(with: 3, for: "near") == "expected a mapping for 'near', found a number")
        #expect(fields.checksResolvedValues && !OperandShape.comparable.checksResolvedValues)
    }

    /// Every `expect:` key's example decodes, without a diagnostic, to expectations of that kind.
    @Test(arguments: ExpectationKind.keys)
    func expectationExampleDecodes(key: String) throws {
        let kind = try #require(ExpectationKind.all.first { $0.shape.key == key })
        let workflow = try Self.decode("steps:\n  - request: { url: http://h/ }\n    expect: { \(kind.shape.example) }\n")
        let items = workflow.steps[0].expect.items
        #expect(!items.isEmpty)
        #expect(items.allSatisfy { $0.kind === kind })
    }

    /// Every capture source's example decodes to a capture.
    @Test(arguments: CaptureSourceKind.keys)
    func captureExampleDecodes(key: String) throws {
        let kind = try #require(CaptureSourceKind.all.first { $0.shape.key == key })
        let workflow = try Self.decode("steps:\n  - request: { url: http://h/ }\n    capture: { x: { \(kind.shape.example) } }\n")
        #expect(workflow.steps[0].capture.count == 1)
    }

    /// Expectations are kept in the kinds' order whatever the file's: the status first.
    @Test func expectationsAreInKindOrder() throws {
        let workflow = try Self.decode("steps:\n  - request: { url: http://h/ }\n    expect: { body: ok, headers: { A: b }, status: 201 }\n")
        #expect(workflow.steps[0].expect.items.map(\.kind.shape.key) == ["status", "headers", "body"])
    }

    // MARK: - Filters and functions

    @Test func parserKnowsExactlyTheDefinedFiltersAndFunctions() {
        #expect(Set(Expression.knownFilters.keys) == Set(Filters.all.map(\.shape.name)))
        #expect(Set(Expression.knownFunctions.keys) == Set(Functions.all.map(\.shape.name)))
        #expect(Expression.knownFunctions["random_int"] == 2...2)
    }

    /// Every filter's and function's example is a template the parser accepts.
    @Test(arguments: Filters.all.map(\.shape.example) + Functions.all.map(\.shape.example))
    func callExampleParses(example: String) throws {
        let yaml = "vars: { name: a, items: [1], query: q, body: b, user: u, region: r, part: YQ, id: 1 }\nsteps:\n  - request: { url: \"http://h/\(example)\" }\n"
        _ = try Self.decode(yaml)
    }

    @Test func filtersEvaluateOverJSONValues() throws {
        let range = SourceRange(at: SourceLocation(file: "t.yaml", line: 1, column: 1))
        func apply(_ name: String, _ input: JSONValue) throws -> JSONValue {
            try #require(Filters.named(name)).apply(to: input, arguments: [], at: range, redactingValues: false, context: PinnedContext())
        }
        #expect(try apply("url_encode", "a b/é") == "a%20b%2F%C3%A9")
        #expect(try apply("length", [1, 2]) == 2)
        #expect(try apply("int", "-3.9") == -3)
        #expect(throws: EvaluationError.self) { try apply("upper", 1) }
    }

    private struct PinnedContext: FunctionContext {
        func now() -> Date { Date(timeIntervalSince1970: 1_700_000_000) }
        func randomInt(in range: ClosedRange<Int>) -> Int { range.upperBound }
        func uuid() -> UUID { UUID(uuid: (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)) }
    }

    @Test func functionsReadTheClockAndRandomSourceOfTheirContext() throws {
        let range = SourceRange(at: SourceLocation(file: "t.yaml", line: 1, column: 1))
        func call(_ name: String, _ arguments: [JSONValue] = []) throws -> JSONValue {
            try #require(Functions.named(name)).call(arguments, context: PinnedContext(), at: range)
        }
        #expect(try call("timestamp") == 1_700_000_000)
        #expect(try call("now") == "2023-11-14T22:13:20Z")
        #expect(try call("random_int", [1, 6]) == 6)
        #expect(try call("random_string", [3]) == "999")
        #expect(try call("uuid") == "00010203-0405-0607-0809-0a0b0c0d0e0f")
        #expect(throws: EvaluationError.self) { try call("random_int", [5, 1]) }
    }
}
