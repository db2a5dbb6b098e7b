import CourierJSON
import Foundation
import Testing

/// Issue 23, item 4, end to end against testserver.py: a capture's `expect:`, `regex:` on one
/// JSON value, and expectations that use the step's own captures; a failing capture check is in
/// the console, JUnit and the JSON report with its expected and actual values.
@Suite(.testServer)
struct CaptureChecksTests {
    @Test("capture checks pass and fail against a real server; every report shows the failed one's expected and actual values")
    func captureChecks() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("checks.yaml", """
            name: capture checks
            continue_on_failure: true
            steps:
              - name: checked captures
                request: { method: POST, url: "{{ base_url }}/echo?order=4711", json: { message: "order #4711 placed", n: 3 } }
                capture:
                  method: { json: $.method, expect: POST }
                  n: { json: $.json.n, expect: { all: [{ type: integer }, { gt: 0 }] } }
                  order: { regex: { json: $.json.message, pattern: 'order #(\\d+)' }, expect: { matches: '^\\d+$' } }
                  coupon: { json: $.json.coupon, default: none, expect: { matches: '^[A-Z]{8}$' } }
                expect:
                  json:
                    "$.query.order[0]": "{{ order }}"
                    $.json.n: "{{ n }}"
              - name: a capture out of range
                request: { method: POST, url: "{{ base_url }}/echo", json: { n: 3 } }
                capture:
                  n: { json: $.json.n, expect: { gt: 10 } }
            """)
        let result = try await Courier.run(files: ["checks.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml", "--json", "report.json"])
        #expect(result.status == 1, result.context)
        #expect(result.stdout.contains("capture n: expected > 10, got 3"), result.context)
        #expect(result.stdout.contains("checks.yaml:18:"), "the failure points at the capture's expect line\n\(result.context)")

        let junit = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(junit.testCase("checked captures")?.passed == true, "\(junit.cases)")
        let failure = try #require(junit.testCase("a capture out of range")?.failure)
        #expect(failure.text.contains("capture n: expected > 10, got 3"), "\(failure.text)")

        let report = try JSONReportFile.load(workspace.url.appendingPathComponent("report.json"))
        let checked = try #require(report.step("checked captures"))
        #expect(checked["captures"]?.arrayValue?.map { $0["value"]?.stringValue ?? $0["value"]?.int.map(String.init) }
                == ["POST", "3", "4711", "none"])
        let failed = try #require(report.step("a capture out of range"))
        let failures = failed["outcome"]?["failures"]?.arrayValue ?? []
        #expect(failures.map { $0["subject"]?.stringValue } == ["capture n"])
        #expect(failures.first?["actual"]?["json"]?.int == 3)
        #expect(failures.first?["location"]?["line"]?.int == 18)
    }

    @Test("request.* in checks: a generated id sent in the body and a header comes back from the echo server")
    func requestValues() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("sent.yaml", """
            name: sent values
            steps:
              - name: echoed
                request:
                  method: POST
                  url: "{{ base_url }}/echo"
                  headers: { X-Request-Id: "{{ uuid() }}" }
                  json: { id: "{{ uuid() }}", n: 3 }
                capture:
                  echoed_id: { json: $.json.id, expect: "{{ request.json.id }}" }
                expect:
                  json:
                    $.json.n: "{{ request.json.n }}"
                    $.method: "{{ request.method }}"
                    "$.headers[?@[0] == 'X-Request-Id'][1]": ["{{ request.headers['x-request-id'] }}"]
              - name: a wrong expectation names the sent value
                request: { method: POST, url: "{{ base_url }}/echo", json: { n: 3 } }
                expect:
                  json:
                    $.json.n: { gt: "{{ request.json.n }}" }
            """)
        let result = try await Courier.run(files: ["sent.yaml"], workspace: workspace, server: server, extra: ["--junit", "junit.xml"])
        #expect(result.status == 1, result.context)
        let junit = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(junit.testCase("echoed")?.passed == true, "\(junit.cases)\n\(result.context)")
        let failure = try #require(junit.testCase("a wrong expectation names the sent value")?.failure)
        #expect(failure.text.contains("json $.json.n: expected > 3, got 3"), "\(failure.text)")
    }
}
