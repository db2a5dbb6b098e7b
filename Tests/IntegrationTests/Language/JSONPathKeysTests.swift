import Foundation
import Testing

/// Issue 10 §1–3 end to end: JSONPath keys and captures are compiled when the workflow loads
/// (an invalid one sends nothing), templates in them are values, and a query that is not
/// singular always gives a list.
@Suite(.testServer)
struct JSONPathKeysTests {
    static let invalid = """
        name: invalid query
        steps:
          - name: would be sent first
            request: { url: "{{ base_url }}/first" }
          - name: bad key
            request: { url: "{{ base_url }}/second" }
            expect:
              json:
                "$.naïve[?@.price >]": 1
          - name: bad capture
            request: { url: "{{ base_url }}/third" }
            capture:
              broken: { json: "$..[" }
              group: { regex: '(' }
        """

    @Test("an invalid JSONPath key or capture: exit 2 at file:line:col inside the key, for run and validate, and nothing is sent")
    func invalidQueriesSendNothing() async throws {
        let recorder = try RequestRecorder()
        defer { recorder.stop() }
        let workspace = try Workspace()
        try workspace.write("invalid.yaml", Self.invalid)
        let key = try #require(Self.invalid.position(of: "]\": 1", inLineContaining: "$.naïve"))
        let capture = try #require(Self.invalid.position(of: "\" }", inLineContaining: "broken"))
        let regex = try #require(Self.invalid.position(of: "'('", inLineContaining: "group"))
        let expected = [
            "invalid.yaml:\(key.line):\(key.column): error: invalid JSONPath '$.naïve[?@.price >]': unexpected character ']'",
            "invalid.yaml:\(capture.line):\(capture.column): error: invalid JSONPath '$..[': expected a selector, found end of query",
            "invalid.yaml:\(regex.line):\(regex.column): error: invalid regular expression '(' for 'regex'",
        ]

        let run = try await Courier.run(["run", "invalid.yaml", "--var", "base_url=\(recorder.baseURL)"], in: workspace.url)
        #expect(run.status == 2, run.context)
        for line in expected { #expect(run.stderr.contains(line), "no '\(line)'\n\(run.context)") }
        #expect(run.stderr.hasCaret(under: "]\": 1", inSourceLine: "\"$.naïve[?@.price >]\": 1", underlineLength: 1), run.context)

        let validate = try await Courier.run(["validate", "invalid.yaml"], in: workspace.url)
        #expect(validate.status == 2, validate.context)
        for line in expected { #expect(validate.stderr.contains(line), "no '\(line)'\n\(validate.context)") }

        #expect(recorder.received.isEmpty, "requests were sent: \(recorder.received)")

        // Control: the same file with valid queries does reach the recorder.
        try workspace.write("valid.yaml", Self.invalid
            .replacingOccurrences(of: "[?@.price >]\": 1", with: "[?@.price > 1]\": []")
            .replacingOccurrences(of: "$..[", with: "$..id")
            .replacingOccurrences(of: "'('", with: "'(.*)'"))
        _ = try await Courier.run(["run", "valid.yaml", "--var", "base_url=\(recorder.baseURL)"], in: workspace.url)
        #expect(recorder.received.count == 3, "\(recorder.received.count) requests")
    }

    @Test("templates in JSONPath keys and captures are values: an index, a quoted name, a filter literal")
    func templatedKeys() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("templated.yaml", """
            name: templated keys
            vars: { index: 1, id: 2, key: "it's]" }
            steps:
              - name: echo
                request:
                  method: POST
                  url: "{{ base_url }}/echo"
                  json:
                    errors: [{ id: error1 }, { id: error2 }]
                    items: [{ id: 1, name: mug }, { id: 2, name: cup }]
                    "it's]": tricky
                expect:
                  status: 200
                  json:
                    "$.json.errors[{{ index }}].id": error2
                    "$.json.items[?@.id == {{ id }}].name": [cup]
                    "$.json[{{ key }}]": tricky
                    $.json.items[?@.id == 1].name: [mug]
                capture:
                  second: "$.json.items[{{ index }}].name"
                  ids: $.json.errors..id
              - name: use them
                request:
                  method: POST
                  url: "{{ base_url }}/echo"
                  json: { second: "{{ second }}", ids: "{{ ids }}" }
                expect:
                  json:
                    $.json.second: cup
                    $.json.ids: [error1, error2]
            """)
        let result = try await Courier.run(files: ["templated.yaml"], workspace: workspace, server: server)
        #expect(result.status == 0, result.context)
        #expect(!result.stderr.contains("warning"), result.context)
    }
}
