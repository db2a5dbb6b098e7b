import Foundation
import Testing

/// continue_on_failure, if:, for_each, steps.<id>.…, and the capture sources.
@Suite(.testServer)
struct FlowControlTests {
    @Test("step-level continue_on_failure, if: skips (reported skipped), for_each runs are numbered testcases")
    func stepLevelFlow() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("flow.yaml", """
            name: flow
            steps:
              - name: status probe
                id: probe
                request: { url: "{{ base_url }}/status/201" }
                expect: { status: 201 }
              - name: allowed to fail
                continue_on_failure: true
                request: { url: "{{ base_url }}/status/500" }
              - name: only when 200
                if: "{{ steps.probe.status == 200 }}"
                request: { url: "{{ base_url }}/health" }
              - name: only when 201
                if: "{{ steps.probe.status == 201 }}"
                request: { url: "{{ base_url }}/health" }
              - name: colour
                for_each: [red, green, blue]
                request:
                  url: "{{ base_url }}/echo"
                  query: { c: "{{ item }}", i: "{{ index }}" }
                expect:
                  json:
                    $.query.c[0]: "{{ item }}"
              - name: after the loop
                request: { url: "{{ base_url }}/health" }
            """)
        let result = try await Courier.run(files: ["flow.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml"])
        // One step failed (continue_on_failure does not make it pass), so the run fails.
        #expect(result.status == 1, result.context)
        #expect(result.stdout.line(containing: "SKIP", "only when 200") != nil, result.context)

        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.testCase("allowed to fail")?.failure?.type == "assertion")
        #expect(report.testCase("only when 200")?.skipped == true)
        #expect(report.testCase("only when 201")?.passed == true)
        let loop = report.cases.filter { $0.name.hasPrefix("colour") }
        #expect(loop.count == 3, "for_each over 3 items should give 3 testcases: \(report.cases.map(\.name))")
        #expect(Set(loop.map(\.name)).count == 3, "for_each testcases should be numbered: \(loop.map(\.name))")
        #expect(loop.allSatisfy { $0.passed && ($0.name.contains("1") || $0.name.contains("2") || $0.name.contains("3")) })
        #expect(report.testCase("after the loop")?.passed == true, "continue_on_failure: the steps after it must run")
    }

    @Test("workflow-level continue_on_failure runs every step; without it the rest is skipped")
    func workflowLevelContinue() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        for (file, flag) in [("continue.yaml", "true"), ("stop.yaml", "false")] {
            try workspace.write(file, """
                name: \(file)
                continue_on_failure: \(flag)
                steps:
                  - name: one fails
                    request: { url: "{{ base_url }}/status/503" }
                  - name: two fails
                    request: { url: "{{ base_url }}/status/418" }
                  - name: three passes
                    request: { url: "{{ base_url }}/health" }
                """)
        }
        let result = try await Courier.run(files: ["continue.yaml", "stop.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml"])
        #expect(result.status == 1, result.context)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        let continued = try #require(report.suite("continue.yaml"))
        #expect(continued.cases.map { $0.failure != nil } == [true, true, false], "\(continued.cases)")
        #expect(continued.cases.last?.passed == true)
        let stopped = try #require(report.suite("stop.yaml"))
        #expect(stopped.cases.map(\.skipped) == [false, true, true], "\(stopped.cases)")
    }

    @Test("captures from header, cookie, regex (body and header) and status; steps.<id>.json/.status in later steps")
    func capturesAndStepAccess() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("captures.yaml", #"""
            name: captures
            steps:
              - name: set a cookie
                id: cookie
                request: { url: "{{ base_url }}/cookies/set?session_id=abc123" }
                capture:
                  session: { cookie: session_id }
                  code: { status: true }
              - name: headers
                id: hdr
                request: { url: "{{ base_url }}/headers?X-Trace=trace-77&Location=/users/42" }
                capture:
                  trace: { header: X-Trace }
                  user_id: { regex: 'users/(\d+)', from: header Location }
                  from_body: { regex: '"X-Trace", "([a-z]+)-' }
              - name: created
                id: made
                request: { url: "{{ base_url }}/status/201" }
                expect: { status: 201 }
              - name: use everything
                request:
                  url: "{{ base_url }}/echo"
                  query:
                    session: "{{ session }}"
                    code: "{{ code }}"
                    trace: "{{ trace }}"
                    user: "{{ user_id }}"
                    body: "{{ from_body }}"
                    made: "{{ steps.made.status }}"
                    set: "{{ steps.cookie.json.set.session_id }}"
                expect:
                  json:
                    $.query.session[0]: abc123
                    $.query.code[0]: "200"
                    $.query.trace[0]: trace-77
                    $.query.user[0]: "42"
                    $.query.body[0]: trace
                    $.query.made[0]: "201"
                    $.query.set[0]: abc123
              - name: the jar sends the cookie back
                request: { url: "{{ base_url }}/cookies" }
                expect:
                  json:
                    $.cookies.session_id: abc123
            """#)
        let result = try await Courier.run(files: ["captures.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml"])
        #expect(result.status == 0, result.context)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.cases.count == 5)
        #expect(report.cases.allSatisfy { $0.passed }, "\(report.cases.filter { !$0.passed })")
    }

    @Test("a capture that finds nothing fails the step (no default) and names the capture")
    func missingCapture() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("missing.yaml", """
            name: missing capture
            steps:
              - name: capture nothing
                request: { url: "{{ base_url }}/health" }
                capture:
                  nothing_here: $.no.such.path
                  fallback: { json: $.also.missing, default: none }
            """)
        let result = try await Courier.run(files: ["missing.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml"])
        #expect(result.status == 1, result.context)
        #expect(result.stdout.contains("nothing_here"), result.context)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        let failure = report.testCase("capture nothing")?.failure
        #expect(failure?.type == "assertion", "capture failures are assertion failures")
        #expect(failure.map { $0.text.contains("nothing_here") && !$0.text.contains("fallback") } == true,
                "only the capture without a default fails: \(String(describing: failure))")
    }
}
