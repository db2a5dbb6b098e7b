import Foundation
import Testing

/// Problems below HTTP: nobody listening, a server too slow. They are errors, not failures.
@Suite(.testServer)
struct TransportErrorTests {
    @Test("connection refused: exit 1, the console says so with a hint, JUnit <error type=\"connection_refused\">")
    func connectionRefused() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let port = try RawHTTP.refusingPort()
        try workspace.write("refused.yaml", """
            name: refused
            steps:
              - name: nobody home
                request: { url: "http://127.0.0.1:\(port)/health" }
              - name: not attempted
                request: { url: "{{ base_url }}/health" }
            teardown:
              - name: still tidy up
                request: { url: "{{ base_url }}/health" }
            """)
        let result = try await Courier.run(files: ["refused.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml"])
        #expect(result.status == 1, result.context)
        let console = result.stdout.lowercased()
        #expect(console.contains("connection refused") || console.contains("connection_refused"),
                "the console should say the connection was refused\n\(result.context)")
        let hint = result.stdout.lines.first { ($0.hasPrefix("note:") || $0.hasPrefix("hint:")) && $0.contains("127.0.0.1:\(port)") }
        #expect(hint != nil, "no hint naming 127.0.0.1:\(port)\n\(result.context)")

        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        let failed = try #require(report.testCase("nobody home"))
        #expect(failed.error?.type == "connection_refused", "error: \(String(describing: failed.error))")
        #expect(failed.failure == nil, "a transport problem is an <error>, not a <failure>")
        #expect(failed.error?.message?.isEmpty == false)
        #expect(report.testCase("not attempted")?.skipped == true)
        #expect(report.testCase("still tidy up")?.passed == true)
        #expect(report.suites.first?.attributes["errors"] == "1")
    }

    @Test("timeout: 300ms against /delay?ms=3000 → exit 1, <error type=\"timeout\">, well under 3 s")
    func timeout() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("slow.yaml", """
            name: slow
            steps:
              - name: too slow
                request:
                  url: "{{ base_url }}/delay?ms=3000"
                  timeout: 300ms
            """)
        let result = try await Courier.run(files: ["slow.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml"])
        #expect(result.status == 1, result.context)
        #expect(result.stdout.lowercased().contains("timeout") || result.stdout.lowercased().contains("timed out"), result.context)
        #expect(result.stdout.contains("300 ms") || result.stdout.contains("300ms"), "the console should name the limit\n\(result.context)")

        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        let failed = try #require(report.testCase("too slow"))
        // The step's own duration, not the process's: a busy CI machine may take seconds to
        // start processes, but the step must end long before the 3 s the server waits.
        #expect((failed.seconds ?? 9) < 2, "the step took \(failed.seconds ?? -1) s: the 300 ms timeout was not applied")
        #expect(failed.error?.type == "timeout", "error: \(String(describing: failed.error))")
        #expect(failed.failure == nil)
    }

    @Test("--timeout on the command line applies to requests without their own timeout")
    func commandLineTimeout() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("slow.yaml", """
            name: slow
            steps:
              - name: too slow
                request: { url: "{{ base_url }}/delay?ms=3000" }
            """)
        let result = try await Courier.run(files: ["slow.yaml"], workspace: workspace, server: server,
                                           extra: ["--timeout", "250ms", "--junit", "junit.xml"])
        #expect(result.status == 1, result.context)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        let failed = try #require(report.testCase("too slow"))
        #expect((failed.seconds ?? 9) < 2, "the step took \(failed.seconds ?? -1) s: --timeout 250ms was not applied")
        #expect(failed.error?.type == "timeout")
    }
}
