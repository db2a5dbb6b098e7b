import CourierDiagnostics
@testable import CourierWorkflow
import Testing

/// Issue 23, item 4, as the decoder and the name checker see it: a capture's `expect:`, the
/// `regex: { json:, pattern: }` form, and a step's expectations naming the step's own captures.
@Suite struct CaptureCheckDecodingTests {
    private func problems(_ capture: String, expect: String? = nil) -> [String] {
        var yaml = "steps:\n  - request: { url: http://h/ }\n    capture:\n      \(capture)\n"
        if let expect { yaml += "    expect:\n      \(expect)\n" }
        let sources = SourceStore()
        switch decodeWorkflow(text: yaml, path: "t.yaml", sources: sources) {
        case .success(let workflow):
            return VariableChecker.check(workflow, externalNames: [], commandLineKnown: true).map(\.description)
        case .failure(let list):
            return list.diagnostics.map(\.description)
        }
    }

    @Test(arguments: [
        "id: { json: $.id, expect: { gt: 0 } }",
        "id: { json: $.id, expect: 7 }",
        "obj: { json: $.user, expect: { name: Ada } }",
        "code: { regex: '([A-Z]+)', expect: { matches: '^[A-Z]{3}$' } }",
        "n: { header: X-Count, expect: { any: [\"1\", \"2\"] } }",
        "o: { regex: { json: $.message, pattern: '#(\\d+)' } }",
        "o: { regex: { header: Location, pattern: '/(\\d+)$' } }",
        "o: { regex: { pattern: 'id=(\\d+)' } }",
        "o: { regex: { json: $.message, pattern: '#(\\d+)' }, expect: { matches: '^\\d+$' } }",
        "o: { json: $.x, default: null, expect: { type: string } }",
        "o: { json: $.x, expect: { eq: \"{{ o }}\" } }",
    ])
    func wellFormedCaptureChecksDecode(_ capture: String) {
        #expect(problems(capture) == [])
    }

    @Test(arguments: [
        ("id: { json: $.id, expect: { gtt: 0 } }", "t.yaml:4:35: error: unknown predicate 'gtt'; did you mean 'gt'?"),
        ("id: { json: $.id, expct: { gt: 0 } }", "t.yaml:4:25: error: unknown key 'expct' in capture 'id'; did you mean 'expect'?"),
        ("o: { regex: { json: $.m } }", "t.yaml:4:19: error: 'regex' needs a 'pattern'"),
        ("o: { regex: { json: $.m, patern: x } }", "t.yaml:4:32: error: unknown key 'patern' in 'regex'; did you mean 'pattern'?"),
        ("o: { regex: { json: \"$.m[*]\", pattern: x } }",
         "t.yaml:4:27: error: 'regex' reads one JSON value; '$.m[*]' can match several (use a singular path like '$.items[0].name')"),
        ("o: { regex: { json: $.m, header: X, pattern: x } }", "t.yaml:4:32: error: 'regex' reads one value; 'header' conflicts with 'json'"),
        ("o: { regex: { json: m, pattern: x } }", "t.yaml:4:27: error: JSONPath 'm' must start with '$' (e.g. '$.m')"),
        ("o: { regex: { json: $.m, pattern: '(' }, from: body }",
         "t.yaml:4:48: error: 'from' does not go with a 'regex' mapping; name what it reads inside it ('json' or 'header')"),
        ("o: { json: $.x, expect: { eq: \"{{ later }}\" } }",
         "t.yaml:4:41: error: unknown variable 'later'; define it in 'vars:', capture it in an earlier step, or pass --var later=VALUE"),
    ])
    func aBadCaptureCheckIsALoadErrorAtItsKey(capture: String, message: String) {
        let found = problems(capture)
        #expect(found.contains(message), "\(found)")
    }

    @Test func anInvalidPatternInTheMappingFormIsAnErrorAtThePattern() {
        let found = problems("o: { regex: { json: $.m, pattern: '(' } }")
        #expect(found.count == 1 && found[0].hasPrefix("t.yaml:4:41: error: invalid regular expression '(' for 'regex'"), "\(found)")
    }

    @Test func theStepsExpectationsMayNameItsCaptures() {
        #expect(problems("total: $.total", expect: "json: { $.count: \"{{ total }}\" }") == [])
    }

    @Test func theStepsRequestMayNotNameItsOwnCaptures() {
        let yaml = "steps:\n  - request: { url: \"http://h/{{ id }}\" }\n    capture: { id: $.id }\n"
        let workflow = try? decodeWorkflow(text: yaml, path: "t.yaml", sources: SourceStore()).get()
        let found = workflow.map { VariableChecker.check($0, externalNames: [], commandLineKnown: true).map(\.description) } ?? []
        #expect(found == ["t.yaml:2:34: error: variable 'id' is not defined yet here: it is first set at t.yaml:3:16, which runs later"])
    }

    @Test func theMappingFormReadsWhatItNames() throws {
        let yaml = "steps:\n  - request: { url: http://h/ }\n    capture:\n      o: { regex: { json: $.message, pattern: '#(\\d+)' }, expect: { gt: 0 } }\n"
        let workflow = try decodeWorkflow(text: yaml, path: "t.yaml", sources: SourceStore()).get()
        guard case .request = workflow.steps[0].action, let capture = workflow.steps[0].capture.first,
              case .regex(let pattern, from: .json(let query)) = capture.source else {
            Issue.record("not a regex capture on a JSON value")
            return
        }
        #expect(pattern.value.source == "#(\\d+)")
        #expect(query.text == "$.message")
        guard case .predicates(let predicates, _)? = capture.expect else {
            Issue.record("no expect")
            return
        }
        #expect(predicates.map(\.name) == ["gt"])
    }

    @Test func requestIsDefinedInTheChecksButNotInTheRequest() {
        #expect(problems("id: { json: $.id, expect: \"{{ request.json.id }}\" }", expect: "json: { $.x: \"{{ request.method }}\" }") == [])
        let yaml = "steps:\n  - request: { url: \"http://h/{{ request.url }}\" }\n"
        let workflow = try? decodeWorkflow(text: yaml, path: "t.yaml", sources: SourceStore()).get()
        let found = workflow.map { VariableChecker.check($0, externalNames: [], commandLineKnown: true).map(\.description) } ?? []
        #expect(found.count == 1 && found[0].contains("unknown variable 'request'"), "\(found)")
    }
}
