import CourierDiagnostics
@testable import CourierEngine
import CourierJSON
import CourierResults
import CourierWorkflow
import Testing

/// One include step: its vars, its file (literal or templated), its steps, and the scope after.
@Suite struct IncludeRunnerTests {
    let base = "/tmp/courier-etests/flows"

    func sources(_ files: [String: String]) -> SourceStore {
        let store = SourceStore()
        for (path, text) in files { store.register(path: "\(base)/\(path)", text: text) }
        return store
    }

    @Test func aTemplatedIncludeIsLoadedAndCheckedOnTheExecutorOffTheDriverThread() async throws {
        let executor = CountingExecutor()
        let transport = FakeTransport()
        let parts = try RunParts("""
            steps:
              - { include: "_{{ which }}.yaml", vars: { who: ada } }
            """, transport: transport, sources: sources(["_a.yaml": "- { name: hi, request: { url: \"http://api/{{ who }}\" } }\n"]),
            offDriver: executor)
        parts.state.scope["which"] = .string("a")
        let (failed, _) = await parts.runSteps()
        #expect(!failed)
        #expect(transport.requests.map(\.url) == ["http://api/ada"])
        #expect(parts.results.map(\.name) == ["a › hi"])
        #expect(executor.jobs > 0)
        // The include's vars were visible inside only.
        #expect(parts.state.scope["who"] == nil)
    }

    @Test func aTemplatedIncludeThatDoesNotLoadIsTheIncludeStepsError() async throws {
        let parts = try RunParts("""
            steps:
              - { name: inc, include: "_{{ which }}.yaml" }
            """, sources: sources([:]))
        parts.state.scope["which"] = .string("missing")
        let (failed, _) = await parts.runSteps()
        #expect(failed)
        let error = try #require(parts.results.first?.outcome.error)
        #expect(error.type == "include")
        #expect(error.message.hasPrefix("include '_missing.yaml': "))
    }

    @Test func aTemplatedIncludeUsingAnUndefinedNameFailsBeforeAnyStepRuns() async throws {
        let transport = FakeTransport()
        let parts = try RunParts("""
            steps:
              - { name: inc, include: "_{{ which }}.yaml" }
            """, transport: transport, sources: sources(["_b.yaml": "- { name: x, request: { url: \"http://api/{{ nope }}\" } }\n"]))
        parts.state.scope["which"] = .string("b")
        let (failed, _) = await parts.runSteps()
        #expect(failed)
        #expect(transport.requests.isEmpty)
        #expect(parts.results.first?.outcome.error?.type == "template")
        #expect(parts.results.first?.outcome.error?.message.hasPrefix("include '_b.yaml': ") == true)
    }

    @Test func aCaptureInsideKeepsTheNameTheIncludesVarsShadowed() async throws {
        let transport = FakeTransport { _ in .success(jsonResponse(200, #"{"v":"captured"}"#)) }
        let parts = try RunParts("""
            steps:
              - { include: _c.yaml, vars: { v: from-include } }
            """, transport: transport, sources: sources(["_c.yaml": "- { name: c, request: { url: \"http://api/{{ v }}\" }, capture: { v: $.v } }\n"]))
        parts.state.scope["v"] = .string("outer")
        _ = await parts.runSteps()
        #expect(transport.requests.map(\.url) == ["http://api/from-include"])
        #expect(parts.state.scope["v"] == .string("captured"))
    }
}
