import CourierDiagnostics
@testable import CourierEngine
import CourierHTTP
import CourierJSON
import CourierWorkflow
import Testing

/// Running included steps: naming, vars scope, captures afterwards, paths,
/// templated paths, cycles at run time, skips and failures.
@Suite struct IncludeTests {
    let base = "/tmp/courier-etests/inc"

    func sources(_ files: [String: String]) -> SourceStore {
        let store = SourceStore()
        for (path, text) in files { store.register(path: "\(base)/\(path)", text: text) }
        return store
    }

    @Test func includedStepsRunAsStepsNamedAfterTheInclude() async throws {
        let store = sources([
            "_login.yaml": """
                - name: log in
                  request: { method: POST, url: "http://api/login", json: { user: "{{ user }}" } }
                  capture: { token: $.token }
                - name: upload
                  request:
                    url: http://api/upload
                    multipart: [{ name: f, file: data/a.txt }]
                """,
            "data/a.txt": "hello",
        ])
        let yaml = """
            vars: { user: grace }
            steps:
              - include: _login.yaml
                vars: { user: ada }
              - name: after
                request: { url: "http://api/me/{{ token }}/{{ user }}" }
              - name: twice
                include: _login.yaml
                for_each: [1, 2]
            """
        let transport = FakeTransport(always: jsonResponse(200, #"{"token": "t1"}"#))
        let run = try await run(yaml, transport: transport, path: "\(base)/main.yaml", sources: store)
        #expect(run.steps.map(\.displayName) == ["login › log in", "login › upload", "after",
                                                   "twice [1] › log in", "twice [1] › upload",
                                                   "twice [2] › log in", "twice [2] › upload"])
        #expect(run.steps.allSatisfy { $0.outcome.isPassed }, "\(run.steps.map(\.outcome))")
        // Include vars inside, the outer value again afterwards; captures stay.
        #expect(run.requests[0].bodyText == #"{"user":"ada"}"#)
        #expect(run.requests[2].url.hasSuffix("/me/t1/grace"))
        // Relative paths in the included file resolve against its directory.
        #expect(run.steps[1].location?.start.file == "\(base)/_login.yaml")
    }

    @Test func aFailedIncludedStepSkipsTheRestAndFailsTheInclude() async throws {
        let store = sources(["_two.yaml": "- name: a\n  request: { url: http://api/a }\n- name: b\n  request: { url: http://api/b }\n"])
        let yaml = """
            steps:
              - include: _two.yaml
              - name: next
                request: { url: http://api/next }
            teardown:
              - include: _two.yaml
            """
        let transport = FakeTransport(always: jsonResponse(500, "{}"))
        let run = try await run(yaml, transport: transport, path: "\(base)/main.yaml", sources: store)
        // The teardown's run of the same include is numbered: names are unique per workflow (spec section 12).
        #expect(run.steps.map(\.displayName) == ["two › a", "two › b", "next", "two › a (2)", "two › b (2)"])
        #expect(run.steps[1].outcome.skipReason?.description == "an earlier step failed")
        #expect(run.steps[2].outcome.skipReason?.description == "an earlier step failed")
        // Teardown runs every step, failures or not.
        #expect(run.steps[3].outcome.failures.count == 1 && run.steps[4].outcome.failures.count == 1)
    }

    @Test func templatedPathIsLoadedAtRunTimeWithTheSameChecks() async throws {
        let store = sources([
            "_a.yaml": "- name: from a\n  request: { url: \"http://api/{{ x }}\" }\n",
            "_typo.yaml": "- name: typo\n  request: { url: \"http://api/{{ nope }}\" }\n",
            "_loop.yaml": "- include: main.yaml\n",
        ])
        let yaml = """
            vars: { x: 1 }
            steps:
              - include: "_{{ which }}.yaml"
                continue_on_failure: true
            """
        for (which, expected) in [("a", "from a"), ("typo", "unknown variable 'nope'"), ("loop", "include cycle"), ("zzz", "does not exist")] {
            var settings = RunSettings()
            settings.commandLineVariables = [("which", .string(which))]
            let run = try await run(yaml, transport: FakeTransport(always: jsonResponse(200, "{}")), settings: settings,
                                    path: "\(base)/main.yaml", sources: store)
            if which == "a" {
                #expect(run.steps.map(\.displayName) == ["a › from a"])
                #expect(run.steps[0].outcome.isPassed)
            } else {
                let error = try #require(run.steps.first?.outcome.error, "\(which): \(run.steps.map(\.outcome))")
                #expect(error.message.contains(expected), "\(which): \(error.message)")
            }
        }
        // The cycle names the chain.
        var settings = RunSettings()
        settings.commandLineVariables = [("which", .string("loop"))]
        let run = try await run(yaml, settings: settings, path: "\(base)/main.yaml", sources: store)
        #expect(run.steps.first?.outcome.error?.message.contains("\(base)/main.yaml → \(base)/_loop.yaml → \(base)/main.yaml") == true)
    }

    @Test func skippedIncludeListsItsSteps() async throws {
        let store = sources(["_two.yaml": "- name: a\n  request: { url: http://api/a }\n- name: b\n  request: { url: http://api/b }\n"])
        let yaml = """
            steps:
              - include: _two.yaml
                if: false
            """
        let run = try await run(yaml, path: "\(base)/main.yaml", sources: store)
        #expect(run.steps.map(\.displayName) == ["two › a", "two › b"])
        #expect(run.steps.allSatisfy { $0.outcome.skipReason?.description == "condition is false" })
    }
}
