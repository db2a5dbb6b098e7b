import CourierJSON
import Foundation
import Testing

/// One run, four outputs: the console's summary, the JUnit totals, the JSON summary and the
/// HTML report's counts are computed in one place (CourierResults) and say the same thing —
/// with redirects and retries (requests sent ≠ steps ≠ attempts), a failed and an errored
/// step, workflows `--fail-fast` never started, and a dry run that sends nothing.
@Suite(.testServer) struct ReportsAgreeTests {
    /// `12 requests (…/s)` of the console summary; nil when it shows none (a dry run).
    static func consoleRequests(_ stdout: String) -> Int? {
        stdout.firstMatch(of: /, (\d+) requests? \(/).flatMap { Int($0.1) }
    }

    static func htmlEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }

    static func htmlRequests(_ html: String) -> Int? {
        html.firstMatch(of: /(\d+) requests? sent/).flatMap { Int($0.1) }
    }

    @Test("redirects, a retried step, a failure and an error: every report counts the same steps, workflows and requests")
    func redirectsRetriesFailures() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let key = "agree-\(UUID().uuidString)"
        try workspace.write("a.yaml", """
            name: a
            continue_on_failure: true
            steps:
              - name: two redirects
                request: { url: "{{ base_url }}/redirect/2" }
              - name: retried
                request: { url: "{{ base_url }}/flaky?key=\(key)&fail=1" }
                retry: { attempts: 3, delay: 1ms, jitter: false }
              - name: fails
                request: { url: "{{ base_url }}/status/500" }
              - name: errors
                request: { url: "http://127.0.0.1:9/refused" }
            """)
        try workspace.write("b.yaml", "name: b\nsteps:\n  - request: { url: \"{{ base_url }}/health\" }\n")
        let result = try await Courier.run(files: ["a.yaml", "b.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml", "--html", "report.html", "--jobs", "1"])
        #expect(result.status == 1, result.context)
        // Requests sent: 3 (two hops and the end) + 2 (a retry) + 1 + 1 (refused: still a try) + 1.
        let sent = 8
        #expect(Self.consoleRequests(result.stdout) == sent, result.context)
        #expect(result.stdout.contains("2 workflows (1 passed, 1 failed), 5 steps: 3 passed, 1 failed, 1 errored, 0 skipped"), result.context)

        let junit = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(junit.cases.count == 5)
        #expect(junit.cases.filter { $0.failure != nil }.count == 1)
        #expect(junit.cases.filter { $0.error != nil }.count == 1)
        #expect(junit.text.contains("<testsuites name=\"courier\" tests=\"5\" failures=\"1\" errors=\"1\""))

        let summary = try #require(result.jsonReport?.summary)
        #expect(summary["steps"]?.int == 5 && summary["passedSteps"]?.int == 3 && summary["failedSteps"]?.int == 1)
        #expect(summary["erroredSteps"]?.int == 1 && summary["workflows"]?.int == 2 && summary["failedWorkflows"]?.int == 1)

        let html = try workspace.read("report.html")
        #expect(Self.htmlRequests(html) == sent, "the HTML report counts requests as the console does")
        #expect(html.contains("2 workflows (1 failed)"))
        #expect(html.contains("3 passed") && html.contains("1 failed") && html.contains("1 errored") && html.contains("0 skipped"))
        // One reason for the failed step, worded alike in the console recap, JUnit and HTML.
        let reason = try #require(junit.testCase("fails")?.failure?.message)
        #expect(result.stdout.contains("a › fails  — \(reason)"), result.context)
        #expect(html.contains(Self.htmlEscaped(reason)), "the HTML recap words the reason as JUnit does: \(reason)")
        let errorReason = try #require(junit.testCase("errors")?.error?.message)
        #expect(result.stdout.contains("a › errors  — \(errorReason)"), result.context)
    }

    @Test("--fail-fast: workflows never started are 'not run' in the console and the HTML report alike")
    func notRunWorkflows() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("1.yaml", "name: first\nsteps:\n  - request: { url: \"{{ base_url }}/status/500\" }\n")
        try workspace.write("2.yaml", "name: second\nsteps:\n  - request: { url: \"{{ base_url }}/health\" }\n")
        try workspace.write("3.yaml", "name: third\nsteps:\n  - request: { url: \"{{ base_url }}/health\" }\n")
        let result = try await Courier.run(files: ["1.yaml", "2.yaml", "3.yaml"], workspace: workspace, server: server,
                                           extra: ["--fail-fast", "--jobs", "1", "--html", "report.html"])
        #expect(result.status == 1, result.context)
        #expect(result.stdout.contains("3 workflows (0 passed, 1 failed, 2 not run)"), result.context)
        let html = try workspace.read("report.html")
        #expect(html.contains("3 workflows (1 failed, 2 not run)"), "the HTML report counts the workflows never started")
        #expect(Self.htmlRequests(html) == Self.consoleRequests(result.stdout))
    }

    @Test("--dry-run sends nothing: the HTML report says 0 requests sent, as the console shows no rate")
    func dryRun() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("d.yaml", "name: d\nsteps:\n  - request: { url: \"{{ base_url }}/health\" }\n  - request: { url: \"{{ base_url }}/echo\" }\n")
        let result = try await Courier.run(files: ["d.yaml"], workspace: workspace, server: server,
                                           extra: ["--dry-run", "--html", "report.html"])
        #expect(result.status == 0, result.context)
        #expect(Self.consoleRequests(result.stdout) == nil, result.context)
        #expect(result.stdout.contains("DRY RUN: 2 requests rendered, 0 sent"), result.context)
        #expect(Self.htmlRequests(try workspace.read("report.html")) == 0)
    }
}
