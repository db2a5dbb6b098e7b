import Foundation
import Testing

/// Section 8 of the spec: the capture example as written, against a canned
/// response holding everything it reads; the values are then sent to
/// testserver.py's /echo and checked there. Adapted: the body is JSON, where
/// the quotes of `name="csrf"` would be escaped, so the regex capture reads a
/// header with the spec's `from: header Name` form; the regex is as written.
@Suite(.testServer)
struct SpecSection8Tests {
    @Test("section 8: every capture source; secret captures masked from then on; default; a missing capture fails")
    func captures() async throws {
        let server = try TestServer.shared()
        let canned = try CannedServer(status: 201, headers: [
            ("Content-Type", "application/json"), ("Location", "/users/7"), ("Set-Cookie", "session_id=s-123; Path=/"),
            ("X-Form", #"<input name="csrf" value="c-42">"#),
        ], body: #"{"access_token": "tok-abc", "id": 7, "refresh_token": "refresh-SECRET-9"}"#)
        defer { canned.stop() }
        let workspace = try Workspace()
        try workspace.write("capture.yaml", """
            name: captures
            steps:
              - name: capture everything
                request: { url: "\(canned.baseURL)/login" }
                expect: { status: 201 }
                capture:
                  token: $.access_token                       # JSONPath shorthand
                  id: { json: $.id }
                  next: { header: Location }
                  session: { cookie: session_id }
                  csrf: { regex: 'name="csrf" value="([^"]+)"', from: header X-Form }   # first group, from the body (or `from: header Name`)
                  code: { status: true }
                  raw: { body: true }
                  refresh: { json: $.refresh_token, secret: true }  # masked everywhere from now on
                  maybe: { json: $.optional, default: null }        # without `default`, capturing nothing fails the step
              - name: use them
                request:
                  method: POST
                  url: "{{ base_url }}/echo"
                  json: { token: "{{ token }}", id: "{{ id }}", next: "{{ next }}", session: "{{ session }}", csrf: "{{ csrf }}",
                          code: "{{ code }}", raw_has_token: "{{ raw }}", refresh: "{{ refresh }}", maybe: "{{ maybe }}" }
                expect:
                  json:
                    $.json.token: tok-abc
                    $.json.id: 7
                    $.json.next: /users/7
                    $.json.session: s-123
                    $.json.csrf: c-42
                    $.json.code: 201
                    $.json.raw_has_token: { contains: tok-abc }
                    $.json.refresh: refresh-SECRET-9
                    $.json.maybe: null
              - name: nothing to capture
                request: { url: "\(canned.baseURL)/again" }
                expect: { status: 201 }
                capture:
                  missing: $.not_there
            """)
        let result = try await Courier.run(files: ["capture.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml", "--verbose"])
        #expect(result.status == 1, "the last step must fail\n\(result.context)")
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.testCase("capture everything")?.passed == true, "\(report.cases)")
        #expect(report.testCase("use them")?.passed == true, "\(report.cases)")
        let missing = try #require(report.testCase("nothing to capture")?.failure)
        #expect(missing.text.contains("missing"), "\(missing.text)")
        #expect(!result.allOutput.contains("refresh-SECRET-9"), "a secret capture leaked\n\(result.context)")
    }
}
