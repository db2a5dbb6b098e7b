@testable import CourierEngine
@testable import CourierHTTP
import CourierJSON
import CourierWorkflow
import Foundation
import Testing

/// Issue 10 §1 and §3 in the engine: one shape for every query's result, and templates in
/// JSONPath keys and `json:` captures that are values, never syntax.
@Suite struct JSONQueryTests {
    static let body = #"""
        {"errors": [{"id": "error1"}, {"id": "error2"}],
         "items": [{"id": 1, "name": "mug"}],
         "none": [],
         "it's]": "tricky",
         "*": "star"}
        """#

    /// A one-step workflow with `vars`, the `expect.json` lines and `capture` lines given.
    static func workflow(vars: String = "{}", json: [String], capture: [String] = []) -> String {
        var yaml = """
            vars: \(vars)
            steps:
              - request: { url: "http://127.0.0.1:9/x" }
                expect:
                  json:

            """
        for line in json { yaml += "          \(line)\n" }
        if !capture.isEmpty {
            yaml += "    capture:\n"
            for line in capture { yaml += "      \(line)\n" }
        }
        return yaml
    }

    func failures(vars: String = "{}", _ json: String...) async throws -> [String] {
        try await runStep(Self.workflow(vars: vars, json: json), response: jsonResponse(200, Self.body)).failures().map(\.message)
    }

    // MARK: - Templates in keys

    @Test func aNumberRendersToAnIndex() async throws {
        #expect(try await failures(vars: "{ index: 1 }", #""$.errors[{{ index }}].id": error2"#) == [])
        #expect(try await failures(vars: "{ index: 1 }", #""$.errors[{{ index }}].id": error1"#)
                == [#"json $.errors[{{ index }}].id: expected "error1", got "error2""#])
    }

    @Test func aStringWithAQuoteRendersToAnEscapedName() async throws {
        #expect(try await failures(vars: #"{ key: "it's]" }"#, #""$[{{ key }}]": tricky"#) == [])
        #expect(try await failures(vars: #"{ key: "it's]" }"#, #""$.{{ key }}": tricky"#) == [])
    }

    @Test func aStringCannotBecomeAWildcard() async throws {
        // `*` is a name here: the member called "*", not every member.
        #expect(try await failures(vars: #"{ key: "*" }"#, #""$[{{ key }}]": star"#) == [])
        #expect(try await failures(vars: #"{ key: "*" }"#, #""$.errors[{{ key }}]": { exists: false }"#) == [])
    }

    @Test func aValueInAFilterIsALiteral() async throws {
        #expect(try await failures(vars: "{ id: 1 }", #""$.items[?@.id == {{ id }}].name": [mug]"#) == [])
        #expect(try await failures(vars: #"{ name: "mug' || true" }"#, #""$.items[?@.name == {{ name }}]": []"#) == [])
    }

    @Test func aValueThatCannotStandWhereItIsFailsTheStepAtTheTemplate() async throws {
        let yaml = Self.workflow(vars: "{ index: { a: 1 } }", json: [#""$.errors[{{ index }}].id": error2"#])
        let run = try await runStep(yaml, response: jsonResponse(200, Self.body))
        #expect(run.failures().map(\.message) == [
            "json $.errors[{{ index }}].id: {{ index }}: a name or index must be a string or an integer, not an object",
        ])
        starts(run.failures().first?.location, at: "{{ index }}", in: yaml)
    }

    @Test func aJSONCaptureMayHoldTemplates() async throws {
        let yaml = Self.workflow(vars: "{ index: 1 }", json: ["$.none: []"], capture: [#"second: "$.errors[{{ index }}].id""#])
        let run = try await runStep(yaml, response: jsonResponse(200, Self.body))
        #expect(run.steps.first?.outcome.isPassed == true, "\(run.steps.map(\.outcome))")
        #expect(run.steps.first?.captures.map(\.value) == ["error2"])
    }

    // MARK: - One shape

    @Test func oneMatchOfANonSingularQueryIsAListOfOne() async throws {
        #expect(try await failures("$.items[*].id: { contains: 1 }", "$.items[*].name: { length: 1 }", "$.items[*]['id']: [1]") == [])
        #expect(try await failures("$.items[0].id: 1") == [])
    }

    @Test func eachHoldsOnAnEmptyListAndFailsOnNothing() async throws {
        #expect(try await failures("$.none[*].id: { each: { gt: 0 } }", "$.none: { each: { gt: 0 } }") == [])
        #expect(try await failures("$.missing: { each: { gt: 0 } }")
                == ["json $.missing: there is no value to check ('each' needs a list)"])
    }

    @Test func existsOnANonSingularQueryMeansAtLeastOneMatch() async throws {
        #expect(try await failures("$.none[*]: { exists: false }", "$.items[*]: { exists: true }",
                                   "$.items[?@.id == 9]: { exists: false }", "$.items[?@.id == 8]: { not: { exists: true } }") == [])
        #expect(try await failures("$.none[*]: { exists: true }") == ["json $.none[*]: expected at least one match, found none"])
        #expect(try await failures("$.items[*].id: { exists: false }") == ["json $.items[*].id: expected no match, found [1]"])
        #expect(try await failures("$.none[*]: { empty: true, length: 0 }") == [])
    }

    @Test func aDescendantCaptureWithOneMatchIsAList() async throws {
        let yaml = Self.workflow(json: ["$.none: []"], capture: ["ids: $.items..id", "none: $.none[*]", "one: $.items[0].id"])
        let run = try await runStep(yaml, response: jsonResponse(200, Self.body))
        #expect(run.steps.first?.outcome.isPassed == true, "\(run.steps.map(\.outcome))")
        #expect(run.steps.first?.captures.map(\.name) == ["ids", "none", "one"])
        #expect(run.steps.first?.captures.map(\.value) == [[1], [], 1])
    }
}
