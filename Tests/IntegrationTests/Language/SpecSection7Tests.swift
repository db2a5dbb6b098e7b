import Foundation
import Testing

/// Section 7 of the spec: the `expect:` example as written (against a canned
/// response that has its headers, cookie and JSON together), and the failure
/// output: every expectation reported with file:line:col, expected and actual,
/// a line diff for long values, secrets masked.
@Suite(.testServer)
struct SpecSection7Tests {
    static let expectBlock = """
            expect:
              status: 200                # or [200, 201], "2xx", or a predicate map
              headers: { Location: { matches: "^/users/\\\\d+$" } }
              json:                      # keys are RFC 9535 JSONPath queries
                $.items[0].id: 42
                $.items: { length: { gte: 1 } }
                $.items[*].price: { each: { gt: 0 } }
              body: { contains: "ok" }   # the body as text
              schema: schemas/user.json  # JSON Schema (draft 2020-12 or draft-07), inline or a path
              duration: { lt: 500ms }
              cookies: { session: { exists: true } }
        """

    @Test("section 7: the example's expectations hold on a matching response (schema: another issue)")
    func example() async throws {
        let canned = try CannedServer(headers: [
            ("Content-Type", "application/json"), ("Location", "/users/42"), ("Set-Cookie", "session=abc; Path=/"),
        ], body: #"{"status": "ok", "items": [{"id": 42, "price": 9.5}, {"id": 43, "price": 0.5}]}"#)
        defer { canned.stop() }
        let workspace = try Workspace()
        try workspace.write("schemas/user.json", #"{"type": "object", "required": ["items"]}"#)
        try workspace.write("expect.yaml", "name: expect\nsteps:\n  - name: check\n    request: { url: \"\(canned.baseURL)/users/42\" }\n" + Self.expectBlock)
        let validate = try await Courier.run(["validate", "expect.yaml"], in: workspace.url)
        #expect(validate.status == 0, validate.context)

        let result = try await Courier.run(["run", "expect.yaml", "--junit", "junit.xml"], in: workspace.url)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        let check = try #require(report.testCase("check"))
        #expect(check.failure == nil, "every expectation of the example holds, the schema included:\n\(check.failure?.text ?? "")")
        #expect(result.status == 0, result.context)
    }

    @Test("without expect.status a status >= 400 fails, saying how to accept it")
    func errorStatusWithoutExpectation() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("s.yaml", "name: s\nsteps:\n  - name: gone\n    request: { url: \"{{ base_url }}/status/404\" }\n")
        let result = try await Courier.run(files: ["s.yaml"], workspace: workspace, server: server)
        #expect(result.status == 1, result.context)
        #expect(result.stdout.contains("add 'expect: { status: 404 }'"), result.context)
    }

    @Test("failures: all reported with file:line:col; long values as a line diff in console and JUnit; short ones on one line; secrets masked")
    func failureOutput() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let yaml = """
            name: diff
            secrets: { api_key: hunter2-key }
            steps:
              - name: compare
                request: { url: "{{ base_url }}/echo", query: { key: "{{ api_key }}", a: "1", b: "2", c: "3", d: "4", e: "5" } }
                expect:
                  status: 201
                  json:
                    $.method: POST
                    $.query:
                      key: ["{{ api_key }}"]
                      a: ["1"]
                      b: ["2"]
                      c: ["three"]
                      d: ["4"]
                      e: ["5"]
            """
        try workspace.write("diff.yaml", yaml)
        let result = try await Courier.run(files: ["diff.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml"])
        #expect(result.status == 1, result.context)
        let out = result.stdout
        // Every expectation is reported, at its own position.
        for (needle, marker) in [("201", "status: 201"), ("POST", "$.method: POST"), ("key:", "key: [")] {
            let position = try #require(yaml.position(of: needle, inLineContaining: marker))
            #expect(out.contains("diff.yaml:\(position.line):\(position.column): error:"), "no failure at \(needle)\n\(result.context)")
        }
        // Short values: one line each.
        #expect(out.contains("  expected: 201") && out.contains("  actual:   200"), result.context)
        // Long values: a diff with context, the changed line as - and +.
        #expect(out.contains("  diff (- expected, + actual):"), result.context)
        #expect(out.contains(#"    -     "three""#) && out.contains(#"    +     "3""#), result.context)
        #expect(out.contains("    @@ "), result.context)
        #expect(out.contains(#""key": ["#) && out.contains(#""***""#), "the secret line should be shown masked\n\(result.context)")
        #expect(!result.allOutput.contains("hunter2-key"), "the secret leaked\n\(result.context)")

        let junit = try String(contentsOf: workspace.url.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(junit.contains("diff (- expected, + actual):"), "\(junit)")
        #expect(junit.contains(#"-     &quot;three&quot;"#) || junit.contains(#"-     "three""#), "\(junit)")
        #expect(!junit.contains("hunter2-key"), "the secret leaked into JUnit")
        try await JUnitReport.validateAgainstSchema(workspace.url.appendingPathComponent("junit.xml"))
    }
}
