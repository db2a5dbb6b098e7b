import CourierDiagnostics
import CourierJSON
@testable import CourierWorkflow
import Testing

/// JSONPath keys and captures are compiled into the model when the workflow loads (issue 10 §2),
/// templates in them are checked and kept as values (§3), and a query that yields a list met
/// by what only one value can meet is a warning (§1).
@Suite struct JSONQueryDecodingTests {
    static func workflow(json: [String], capture: [String] = []) -> String {
        var yaml = "vars: { i: 1 }\nsteps:\n  - request: { url: /x }\n    expect:\n      json:\n"
        for line in json { yaml += "        \(line)\n" }
        if !capture.isEmpty { yaml += "    capture:\n" + capture.map { "      \($0)\n" }.joined() }
        return yaml
    }

    func warnings(_ json: String...) throws -> [String] {
        switch decode(Self.workflow(json: json)) {
        case .success(let workflow): return workflow.warnings.map(\.description)
        case .failure(let list): throw list
        }
    }

    @Test func queriesAreCompiledIntoTheModel() throws {
        let yaml = Self.workflow(json: [#""$.errors[{{ i }}].id": e"#, "$.items[*].id: [1]"],
                                 capture: [#"a: "$.items[{{ i }}]""#, "b: { regex: 'id=(\\d+)' }"])
        guard case .success(let workflow) = decode(yaml), case .request = workflow.steps[0].action else {
            Issue.record("does not decode")
            return
        }
        let json = workflow.steps[0].expect.json
        #expect(json.map(\.path.text) == ["$.errors[{{ i }}].id", "$.items[*].id"])
        #expect(json.map(\.path.isSingular) == [true, false])
        #expect(json.map(\.path.templates.count) == [1, 0])
        #expect(json[0].path.range.start == SourceLocation(file: "t.yaml", line: 6, column: 9))
        guard case .json(let query) = workflow.steps[0].capture[0].source,
              case .regex(let regex, .body) = workflow.steps[0].capture[1].source else {
            Issue.record("capture sources")
            return
        }
        #expect(query.path.valueCount == 1)
        #expect(regex.value.groupCount == 1)
    }

    @Test func aListMetByOneValueIsAWarningAtTheKeyOrPredicate() throws {
        #expect(try warnings("$.items[*].name: mug") == [
            "t.yaml:6:9: warning: '$.items[*].name' yields a list (it can select any number of nodes), never a single string; did you mean [mug] or { each: mug }?",
        ])
        #expect(try warnings("$..id: 7", "$.a[0,1]: { gt: 1, starts_with: x, type: string, eq: null }").count == 5)
        #expect(try warnings("$.a[?@.x]: { matches: 'a' }") == [
            "t.yaml:6:22: warning: 'matches' checks a single value, but '$.a[?@.x]' yields a list (it can select any number of nodes); did you mean { each: { matches: … } }?",
        ])
    }

    @Test func noWarningWhereAListOrOneValueIsMeant() throws {
        #expect(try warnings(
            "$.items[*].name: [mug]", "$.items[*].id: { each: 7 }", "$.items[0].name: mug", "$.tags[*]: { contains: a }",
            "$.all[*]: { length: 1, type: array, empty: false, exists: true }", #"$.x[*]: "{{ i }}""#, "$.y[*]: { eq: [1] }"
        ) == [])
    }

    @Test func templatedKeysAreCheckedForNames() throws {
        func unknown(_ yaml: String) throws -> [String] {
            guard case .success(let workflow) = decode(yaml) else { throw DiagnosticList([]) }
            return VariableChecker.check(workflow, externalNames: []).map(\.description)
        }
        // At the name inside the key.
        #expect(try unknown(Self.workflow(json: [#""$.errors[{{ ii }}].id": e"#])).first?
            .hasPrefix("t.yaml:6:22: error: unknown variable 'ii'") == true)
        #expect(try unknown(Self.workflow(json: ["$.a: 1"], capture: [#"x: "$.items[?@.id == {{ nope }}]""#])).first?
            .contains("unknown variable 'nope'") == true)
    }
}
