import Foundation
import Testing

/// Whole runs through the built executable: console, exit status, JUnit report.
@Suite(.testServer)
struct PassingAndFailingTests {
    @Test("a passing workflow exits 0, shows every step and writes one valid testcase per step")
    func passingWorkflow() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("flows/passing.yaml", """
            name: passing flow
            steps:
              - name: health check
                request: { url: "{{ base_url }}/health" }
                expect:
                  status: 200
                  json:
                    $.status: ok
              - name: create user
                id: create
                request:
                  method: POST
                  url: "{{ base_url }}/echo"
                  json: { user: demo, roles: [admin, dev], n: 3 }
                expect:
                  status: 200
                  headers:
                    Content-Type: application/json
                  json:
                    $.method: POST
                    $.json.user: demo
                    $.json.n: 3
                    $.json.roles: [admin, dev]
                capture:
                  who: $.json.user
                  role: $.json.roles[1]
              - name: use the captures
                request:
                  url: "{{ base_url }}/echo?who={{ who }}"
                  query: { role: "{{ role }}" }
                  headers: { X-User: "{{ who }}-{{ role }}" }
                expect:
                  status: 200
                  json:
                    $.query.who: [demo]
                    $.query.role[0]: dev
                    $.headers[?@[0] == 'X-User'][1]: [demo-dev]   # a filter gives a list
            """)
        let result = try await Courier.run(files: ["flows/passing.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "out/junit.xml"])
        #expect(result.status == 0, result.context)
        for step in ["health check", "create user", "use the captures"] {
            #expect(result.stdout.line(containing: "PASS", step) != nil, "no PASS line for '\(step)'\n\(result.context)")
        }
        #expect(result.stdout.line(containing: "FAIL") == nil, result.context)

        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("out/junit.xml"))
        #expect(report.suites.map(\.name) == ["passing flow"])
        #expect(report.cases.map(\.name) == ["health check", "create user", "use the captures"])
        #expect(report.cases.allSatisfy { $0.classname == "flows.passing" }, "classname = path from the project root (here the working directory), directories joined by '.'")
        #expect(report.cases.allSatisfy { $0.passed })
        #expect(report.suites.first?.attributes["tests"] == "3")
        #expect(report.suites.first?.attributes["failures"] == "0")
        // Written atomically: nothing but the report is left in its folder.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: workspace.path("out"))
        #expect(leftovers == ["junit.xml"], "temporary files left next to the report: \(leftovers)")
    }

    @Test("a failed expectation: exit 1, file:line:col with caret, expected/actual, JUnit failure, later steps skipped, teardown runs")
    func failingExpectation() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let key = "teardown-\(UUID().uuidString)"
        let yaml = """
            name: failing flow
            steps:
              - name: first ok
                request: { url: "{{ base_url }}/health" }
              - name: wrong colour
                request:
                  method: POST
                  url: "{{ base_url }}/echo"
                  json: { colour: red }
                expect:
                  status: 200
                  json:
                    $.json.colour: blue
              - name: never runs
                request: { url: "{{ base_url }}/health" }
            teardown:
              - name: clean up
                request: { url: "{{ base_url }}/flaky?key=\(key)&fail=0" }
            """
        try workspace.write("failing.yaml", yaml)
        let result = try await Courier.run(files: ["failing.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml"])
        #expect(result.status == 1, result.context)

        // The console: where, what was expected, what came back.
        let position = try #require(yaml.position(of: "blue", inLineContaining: "$.json.colour: blue"))
        let location = "failing.yaml:\(position.line):\(position.column)"
        #expect(result.stdout.contains(location), "no \(location) in the console\n\(result.context)")
        #expect(result.stdout.hasCaret(under: "blue", inSourceLine: "$.json.colour: blue", underlineLength: 4),
                "no source line with a caret under 'blue'\n\(result.context)")
        #expect(result.stdout.line(containing: "expected", "\"blue\"") != nil, result.context)
        #expect(result.stdout.line(containing: "actual", "\"red\"") != nil, result.context)
        #expect(result.stdout.line(containing: "FAIL", "wrong colour") != nil, result.context)
        #expect(result.stdout.line(containing: "SKIP", "never runs") != nil, result.context)
        #expect(result.stdout.line(containing: "PASS", "clean up") != nil, result.context)

        // The report.
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.cases.map(\.name) == ["first ok", "wrong colour", "never runs", "clean up"])
        #expect(report.testCase("first ok")?.passed == true)
        let failed = try #require(report.testCase("wrong colour"))
        let failure = try #require(failed.failure, "no <failure> for the failed step")
        #expect(failure.type == "assertion")
        #expect(failure.message?.contains("$.json.colour") == true, "message: \(failure.message ?? "nil")")
        #expect(failure.text.contains(location), "failure text: \(failure.text)")
        #expect(failure.text.contains("\"blue\"") && failure.text.contains("\"red\""), "failure text: \(failure.text)")
        #expect(failed.error == nil)
        let systemOut = try #require(failed.systemOut, "no <system-out> with the request and response")
        #expect(systemOut.contains("POST \(server.baseURL)/echo"), "system-out: \(systemOut)")
        #expect(systemOut.contains(#"{"colour":"red"}"#), "request body missing from system-out: \(systemOut)")
        #expect(systemOut.contains("HTTP/1.1 200"), "response missing from system-out: \(systemOut)")
        #expect(report.testCase("never runs")?.skipped == true)
        #expect(report.testCase("clean up")?.passed == true)
        #expect(report.suites.first?.attributes["failures"] == "1")
        #expect(report.suites.first?.attributes["skipped"] == "1")

        // The teardown request really reached the server: this is the key's second call.
        let flaky = try server.getJSON("/flaky?key=\(key)&fail=0")
        #expect(flaky["attempt"] as? Int == 2, "teardown did not reach the server: \(flaky)")
    }

    @Test("status >= 400 without expect.status fails and says how to accept it; 404, [200, 201] and \"2xx\" forms")
    func statusRules() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("status.yaml", """
            name: statuses
            continue_on_failure: true
            steps:
              - name: unexpected 404
                request: { url: "{{ base_url }}/status/404" }
              - name: accepted 404
                request: { url: "{{ base_url }}/status/404" }
                expect: { status: 404 }
              - name: list hit
                request: { url: "{{ base_url }}/status/201" }
                expect: { status: [200, 201] }
              - name: class hit
                request: { url: "{{ base_url }}/status/204" }
                expect: { status: "2xx" }
              - name: list miss
                request: { url: "{{ base_url }}/status/202" }
                expect: { status: [200, 201] }
              - name: class miss
                request: { url: "{{ base_url }}/status/404" }
                expect: { status: "2xx" }
              - name: plain 302 is fine
                request: { url: "{{ base_url }}/status/302", follow_redirects: false }
            """)
        let result = try await Courier.run(files: ["status.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml"])
        #expect(result.status == 1, result.context)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        let unexpected = try #require(report.testCase("unexpected 404")?.failure, "a 404 without expect.status must fail")
        #expect(unexpected.type == "assertion")
        let message = (unexpected.message ?? "") + unexpected.text
        #expect(message.contains("404"))
        #expect(message.contains("status: 404"), "the message should say how to accept it: \(message)")
        #expect(result.stdout.contains("status: 404"), "console should say how to accept it\n\(result.context)")
        for name in ["accepted 404", "list hit", "class hit", "plain 302 is fine"] {
            #expect(report.testCase(name)?.passed == true, "\(name): \(String(describing: report.testCase(name)))")
        }
        for name in ["list miss", "class miss"] {
            let failure = report.testCase(name)?.failure
            #expect(failure?.type == "assertion", "\(name) should fail its status expectation")
        }
        #expect(report.testCase("list miss")?.failure.map { $0.text.contains("202") } == true)
        #expect(report.testCase("class miss")?.failure.map { $0.text.contains("404") && $0.text.contains("2xx") } == true)
    }
}
