import CourierDiagnostics
@testable import CourierEngine
import CourierHTTP
import CourierJSON
import CourierWorkflow
import Foundation
import Testing

/// After an include its `vars` come back to the outer value, unless a capture inside the
/// include defined the name again: restored by definition, never by comparing values.
@Suite struct IncludeVarsRestoreTests {
    let base = "/tmp/courier-etests/inc-restore"

    func sources(_ files: [String: String]) -> SourceStore {
        let store = SourceStore()
        for (path, text) in files { store.register(path: "\(base)/\(path)", text: text) }
        return store
    }

    /// The captured `id` holds the include's own value (1): it must stay after the include.
    @Test(arguments: [
        ("", "/after/1"),              // no outer value: the capture defines it
        ("vars: { id: 5 }\n", "/after/1"), // an outer value: the capture inside wins over the rollback
    ])
    func aCaptureOfTheSameValueInsideTheIncludeStays(outerVars: String, expectedSuffix: String) async throws {
        let store = sources(["_get.yaml": """
            - name: get
              request: { url: "http://api/items/{{ id }}" }
              capture: { id: $.id }
            """])
        let yaml = outerVars + """
            steps:
              - include: _get.yaml
                vars: { id: 1 }
              - name: after
                request: { url: "http://api/after/{{ id }}" }
            """
        let transport = FakeTransport(always: jsonResponse(200, #"{"id": 1}"#))
        let run = try await run(yaml, transport: transport, path: "\(base)/main.yaml", sources: store)
        #expect(run.steps.allSatisfy { $0.outcome.isPassed }, "\(run.steps.map(\.outcome))")
        #expect(run.requests.map(\.url).last?.hasSuffix(expectedSuffix) == true, "\(run.requests.map(\.url))")
    }

    /// Without a capture the outer value comes back, also when nested includes define the same name.
    @Test func withoutACaptureTheOuterValueComesBack() async throws {
        let store = sources([
            "_outer.yaml": """
                - include: _inner.yaml
                  vars: { id: 3 }
                - name: middle
                  request: { url: "http://api/middle/{{ id }}" }
                """,
            "_inner.yaml": "- name: inner\n  request: { url: \"http://api/inner/{{ id }}\" }\n",
        ])
        let yaml = """
            vars: { id: 5 }
            steps:
              - include: _outer.yaml
                vars: { id: 2 }
              - name: after
                request: { url: "http://api/after/{{ id }}" }
            """
        let run = try await run(yaml, transport: FakeTransport(always: jsonResponse(200, "{}")), path: "\(base)/main.yaml", sources: store)
        #expect(run.requests.map { $0.url.replacingOccurrences(of: "http://api/", with: "") }
                    == ["inner/3", "middle/2", "after/5"], "\(run.requests.map(\.url))")
    }

    /// A capture in a nested include survives both rollbacks.
    @Test func aCaptureInANestedIncludeSurvivesBothLevels() async throws {
        let store = sources([
            "_outer.yaml": "- include: _inner.yaml\n  vars: { id: 2 }\n",
            "_inner.yaml": "- name: inner\n  request: { url: \"http://api/inner/{{ id }}\" }\n  capture: { id: $.id }\n",
        ])
        let yaml = """
            vars: { id: 5 }
            steps:
              - include: _outer.yaml
                vars: { id: 2 }
              - name: after
                request: { url: "http://api/after/{{ id }}" }
            """
        let run = try await run(yaml, transport: FakeTransport(always: jsonResponse(200, #"{"id": 2}"#)), path: "\(base)/main.yaml", sources: store)
        #expect(run.requests.map(\.url).last?.hasSuffix("/after/2") == true, "\(run.requests.map(\.url))")
    }
}
