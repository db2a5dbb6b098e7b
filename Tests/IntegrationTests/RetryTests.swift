import Foundation
import Testing

/// Section 10: retries and polling, run by the built binary against the test server.
/// Every key is unique per test: the server's counters are per key, and tests run in parallel.
@Suite(.testServer, .inBothThreadingModes)
struct RetryTests {
    private func uniqueKey(_ name: String) -> String { "\(name)-\(UUID().uuidString.prefix(8))" }

    /// The ```yaml blocks of section 10 that are whole workflows.
    private static func sectionTenExamples() throws -> [String] {
        let doc = try String(contentsOf: Paths.packageRoot.appendingPathComponent("docs/workflow-format.md"), encoding: .utf8)
        guard let start = doc.range(of: "## 10. Retries"), let end = doc.range(of: "## 11. ", range: start.upperBound..<doc.endIndex) else {
            return []
        }
        let parts = doc[start.upperBound..<end.lowerBound].components(separatedBy: "```yaml\n").dropFirst()
        return parts.compactMap { part in
            guard let close = part.range(of: "```") else { return nil }
            let block = String(part[..<close.lowerBound])
            return block.contains("\nsteps:") ? block : nil
        }
    }

    @Test("every workflow example of section 10 runs as written against the test server, retrying as it says")
    func sectionTenExamplesRun() async throws {
        let server = try TestServer.shared()
        let examples = try Self.sectionTenExamples()
        #expect(examples.count == 2)
        for (index, example) in examples.enumerated() {
            let workspace = try Workspace()
            try workspace.write("example.yaml", example)
            let key = uniqueKey("section10-\(index)")
            let result = try await Courier.run(files: ["example.yaml"], workspace: workspace, server: server,
                                               extra: ["--var", "key=\(key)", "--junit", "junit.xml"])
            #expect(result.status == 0, result.context)
            #expect(result.stdout.contains("3 attempts"), result.context)
            #expect(!result.allOutput.contains("not carried out"), result.context)
            let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
            #expect(report.cases.allSatisfy { $0.passed }, "\(report.cases)")
        }
    }

    @Test("503 with Retry-After: 1, twice: the waits are real and honoured, the step passes on the third attempt")
    func retryAfterIsHonoured() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let key = uniqueKey("retry-after")
        try workspace.write("flaky.yaml", """
            name: flaky
            steps:
              - name: flaky
                request: { url: "{{ base_url }}/flaky?key=\(key)&fail=2&retry_after=1" }
                retry: { attempts: 3, delay: 10ms }
                expect: { status: 200 }
            """)
        let result = try await Courier.run(files: ["flaky.yaml"], workspace: workspace, server: server)
        #expect(result.status == 0, result.context)
        #expect(result.duration >= .seconds(2), "Retry-After: 1 twice was not waited for: \(result.duration)")
        #expect(result.duration < .seconds(30), "\(result.duration)")
        #expect(result.stdout.lines.filter { $0.contains("503, retrying in 1.0 s (Retry-After)") }.count == 2, result.context)
        #expect(result.stdout.line(containing: "PASS", "flaky", "200", "3 attempts") != nil, result.context)
    }

    @Test("429 with an HTTP-date Retry-After is honoured; one larger than max_delay is capped, and the console says so")
    func retryAfterDateAndCap() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let (near, far) = (uniqueKey("date"), uniqueKey("capped"))
        try workspace.write("dates.yaml", """
            name: dates
            steps:
              - name: date
                request: { url: "{{ base_url }}/retry/after-date?key=\(near)&in=1" }
                retry: { attempts: 2 }
              - name: capped
                request: { url: "{{ base_url }}/retry/after-date?key=\(far)&in=120" }
                retry: { attempts: 2, max_delay: 300ms }
            """)
        let result = try await Courier.run(files: ["dates.yaml"], workspace: workspace, server: server)
        #expect(result.status == 0, result.context)
        #expect(result.stdout.line(containing: "date", "429, retrying in", "(Retry-After)") != nil, result.context)
        #expect(result.stdout.line(containing: "capped", "429, retrying in 300 ms (Retry-After: the server asked for") != nil, result.context)
        #expect(result.duration < .seconds(30), "\(result.duration)")
    }

    @Test("--retry 3 retries a GET that got a 503, not a POST; the server counts the requests")
    func commandLineRetry() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let (get, post) = (uniqueKey("get"), uniqueKey("post"))
        try workspace.write("cli.yaml", """
            name: cli
            continue_on_failure: true
            steps:
              - { name: get, request: { url: "{{ base_url }}/flaky?key=\(get)&fail=9" } }
              - { name: post, request: { method: POST, url: "{{ base_url }}/flaky?key=\(post)&fail=9" } }
            """)
        let result = try await Courier.run(files: ["cli.yaml"], workspace: workspace, server: server, extra: ["--retry", "3"])
        #expect(result.status == 1, result.context)
        #expect(try server.getJSON("/flaky?key=\(get)&fail=0")["attempt"] as? Int == 4, "GET: 3 attempts, then this one")
        #expect(try server.getJSON("/flaky?key=\(post)&fail=0")["attempt"] as? Int == 2, "POST: 1 attempt, then this one")
        #expect(result.stdout.line(containing: "FAIL", "get", "503", "3 attempts") != nil, result.context)

        let bad = try await Courier.run(["run", "cli.yaml", "--retry", "0"], in: workspace.url)
        #expect(bad.status == 2 && bad.stderr.contains("--retry takes a number of attempts"), bad.context)
    }

    @Test("polling a job that reports `failed`: abort_if stops at once, the step fails, nothing is captured")
    func abortOnTerminalState() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let key = uniqueKey("job")
        try workspace.write("job.yaml", """
            name: job
            continue_on_failure: true
            steps:
              - name: wait for the job
                request: { url: "{{ base_url }}/jobs/\(key)?running=1&end=failed" }
                retry: { attempts: 30, delay: 50ms, backoff: constant, on: [expect], abort_if: { json: { $.state: failed } } }
                expect: { json: { $.state: done } }
                capture: { state: $.state }
              - name: uses the capture
                request: { url: "{{ base_url }}/echo?state={{ state }}" }
            """)
        let result = try await Courier.run(files: ["job.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml", "--html", "report.html"])
        #expect(result.status == 1, result.context)
        #expect(try server.getJSON("/jobs/\(key)")["polls"] as? Int == 3, "two polls, then this one")
        #expect(result.stdout.line(containing: "FAIL", "wait for the job", "2 attempts") != nil, result.context)
        // Every report says polling stopped on abort_if, not because the 30 attempts ran out.
        #expect(result.stdout.contains("* abort_if held: stopped polling"), result.context)
        let junit = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(junit.testCase("wait for the job")?.systemOut?.contains("* abort_if held: stopped polling") == true)
        #expect(try workspace.read("report.html").contains("abort_if held: stopped polling"))
        let attempts = result.jsonReport?.step("wait for the job")?["attempts"]?.arrayValue ?? []
        #expect(attempts.last?["stopped"]?.stringValue == "abort_if held: stopped polling")
        #expect(result.stdout.line(containing: "ERROR", "uses the capture", "template") != nil, "the failed step's capture leaked\n\(result.context)")
    }

    @Test("Ctrl-C during a 30 s Retry-After: exit 130 at once, the step reported cancelled, the JUnit report written")
    func interruptDuringWait() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let key = uniqueKey("interrupt")
        try workspace.write("wait.yaml", """
            name: wait
            steps:
              - name: long wait
                request: { url: "{{ base_url }}/flaky?key=\(key)&fail=5&retry_after=30" }
                retry: { attempts: 3, max_delay: 60s }
            """)
        let result = try await Courier.run(["run", "wait.yaml", "--var", "base_url=\(server.baseURL)", "--junit", "junit.xml"],
                                           in: workspace.url, interruptAfter: .milliseconds(1500))
        #expect(result.status == 130, result.context)
        // 1.5 s until the signal, then at once. The bound only has to tell "cut short" from the
        // 30 s wait; a loaded machine has taken 9.5 s to start, run and stop.
        #expect(result.duration < .seconds(20), "the wait did not stop at Ctrl-C: \(result.duration)")
        #expect(result.stdout.contains("503, retrying in 30.0 s (Retry-After)"), result.context)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        let step = try #require(report.testCase("long wait"))
        #expect(step.error?.type == "cancelled", "\(step)")
        #expect(step.error?.message?.contains("while waiting to retry") == true, "\(step)")
    }
}
