import Foundation
import Testing

/// `-j/--jobs`: workflows at once on one client, console blocks whole and in path order,
/// reports in path order; `--fail-fast` cancels the running ones and reports the rest
/// "not run"; a signal is still an interruption. Golden: Tests/Goldens/jobs/<name>.txt,
/// re-recorded with `COURIER_RECORD=1` (review the diff).
@Suite(.testServer, .inBothThreadingModes)
struct JobsTests {
    static let goldens = Paths.packageRoot.appendingPathComponent("Tests/Goldens/jobs")

    /// A group name of our own for the server's `/concurrency` counter: tests run at once.
    private static func group() -> String { "jobs-\(UUID().uuidString.prefix(8))" }

    /// Durations vary from run to run: `123 ms` and `1.52 s` become `<time>`.
    private static func normalised(_ text: String) -> String {
        text.replacingOccurrences(of: #"\d+ ms|\d+\.\d\d s|\d+\.\d/s"#, with: "<time>", options: .regularExpression)
    }

    private func writeWaiting(_ workspace: Workspace, count: Int, group: String, milliseconds: (Int) -> Int) throws {
        for index in 1...count {
            try workspace.write("flows/\(String(format: "%02d", index)).yaml", """
                name: workflow \(index)
                steps:
                  - name: wait \(index)
                    request: { url: "{{ base_url }}/delay?ms=\(milliseconds(index))&group=\(group)" }
                    expect: { status: 200 }
                  - name: after \(index)
                    request: { url: "{{ base_url }}/health" }
                """)
        }
    }

    @Test("--jobs 8 over 8 waiting workflows: the server sees them at once; console blocks whole, in path order (golden); JUnit in path order")
    func eightAtOnce() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let group = Self.group()
        // The first waits longest: the others finish first and must wait their turn on the console.
        try writeWaiting(workspace, count: 8, group: group) { $0 == 1 ? 2500 : 1200 + 100 * (8 - $0) }
        let result = try await Courier.run(files: ["flows"], workspace: workspace, server: server,
                                           extra: ["--jobs", "8", "--junit", "junit.xml"])
        #expect(result.status == 0, result.context)

        let counters = try server.getJSON("/concurrency?group=\(group)")
        let peak = counters["peak"] as? Int ?? 0
        #expect(counters["total"] as? Int == 8)
        #expect(peak >= 6, "the server saw at most \(peak) of 8 workflows in flight at once")

        let golden = Self.goldens.appendingPathComponent("eight-at-once.txt")
        let console = Self.normalised(result.stdout).replacingOccurrences(of: group, with: "<group>")
        if ProcessInfo.processInfo.environment["COURIER_RECORD"] == "1" {
            try console.write(to: golden, atomically: true, encoding: .utf8)
        } else {
            #expect(console == (try String(contentsOf: golden, encoding: .utf8)), result.context)
        }

        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.suites.map(\.name) == (1...8).map { "workflow \($0)" })
        #expect(report.cases.map(\.name) == (1...8).flatMap { ["wait \($0)", "after \($0)"] })
    }

    @Test("--jobs 4: each workflow has its own cookie jar, also while the others run")
    func cookieJarsPerWorkflow() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let group = Self.group()
        for index in 1...4 {
            try workspace.write("flows/0\(index).yaml", """
                name: jar \(index)
                steps:
                  - name: set
                    request: { url: "{{ base_url }}/cookies/set?who=w\(index)" }
                  - name: wait for the others
                    request: { url: "{{ base_url }}/delay?ms=800&group=\(group)" }
                  - name: read back
                    request: { url: "{{ base_url }}/cookies" }
                    expect:
                      json:
                        $.cookies: { who: w\(index) }
                """)
        }
        let result = try await Courier.run(files: ["flows"], workspace: workspace, server: server, extra: ["--jobs", "4"])
        #expect(result.status == 0, result.context)
        let peak = try server.getJSON("/concurrency?group=\(group)")["peak"] as? Int ?? 0
        #expect(peak >= 2, "the workflows did not overlap (peak \(peak)): the test proves nothing")
    }

    @Test("--fail-fast --jobs 4: running workflows cancelled ('cancelled: --fail-fast', teardown run), the rest 'not run: --fail-fast' in console and JUnit, exit 1")
    func failFastWithJobs() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("flows/01.yaml", """
            name: fails
            steps:
              - name: wrong status
                request: { url: "{{ base_url }}/delay?ms=300" }
                expect: { status: 201 }
            """)
        for index in 2...6 {
            try workspace.write("flows/0\(index).yaml", """
                name: slow \(index)
                steps:
                  - name: hold
                    request: { url: "{{ base_url }}/delay?ms=20000" }
                  - name: after
                    request: { url: "{{ base_url }}/health" }
                teardown:
                  - name: clean up
                    request: { url: "{{ base_url }}/health" }
                """)
        }
        let result = try await Courier.run(files: ["flows"], workspace: workspace, server: server,
                                           extra: ["--jobs", "4", "--fail-fast", "--junit", "junit.xml"])
        #expect(result.status == 1, result.context)
        #expect(result.duration < .seconds(15), "the running workflows were not cancelled: \(result.duration)")
        #expect(!result.stdout.contains("INTERRUPTED"), result.context)
        #expect(result.stdout.contains("FAILED"), result.context)
        // The running workflows were cancelled, not failed: their in-flight step is skipped, out of the recap.
        #expect(result.stdout.contains("6 workflows (0 passed, 1 failed, 3 cancelled, 2 not run), 16 steps: 3 passed, 1 failed, 0 errored, 12 skipped (6 cancelled by --fail-fast)"),
                result.context)
        #expect(result.stdout.line(containing: "SKIP", "hold", "(cancelled: --fail-fast)") != nil, result.context)
        #expect(!result.stdout.contains("slow 2 › hold"), "a cancelled step is in the Failed: recap\n\(result.context)")
        #expect(result.stdout.line(containing: "SKIP", "after", "(cancelled: --fail-fast)") != nil, result.context)
        #expect(result.stdout.line(containing: "SKIP", "hold", "(not run: --fail-fast)") != nil, result.context)

        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.suites.map(\.name) == ["fails"] + (2...6).map { "slow \($0)" })
        #expect(report.cases.count == 1 + 5 * 3, "every step of every selected workflow is a test case")
        for index in 2...4 {
            let cases = try #require(report.suite("slow \(index)")?.cases)
            #expect(cases.map(\.name) == ["hold", "after", "clean up"])
            #expect(cases[0].skippedMessage == "cancelled: --fail-fast" && cases[0].error == nil, "\(cases[0])")
            #expect(cases[1].skippedMessage == "cancelled: --fail-fast")
            #expect(cases[2].passed, "teardown still runs after a --fail-fast cancellation")
        }
        for index in 5...6 {
            let cases = try #require(report.suite("slow \(index)")?.cases)
            #expect(cases.map(\.skippedMessage) == ["not run: --fail-fast", "not run: --fail-fast", "not run: --fail-fast"])
        }
    }

    @Test("SIGINT with --jobs 3: exit 130, every running workflow interrupted, teardowns run, JUnit written")
    func interruptWithJobs() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        for index in 1...3 {
            try workspace.write("flows/0\(index).yaml", """
                name: slow \(index)
                steps:
                  - name: hold
                    request: { url: "{{ base_url }}/delay?ms=20000" }
                teardown:
                  - name: clean up
                    request: { url: "{{ base_url }}/health" }
                """)
        }
        let result = try await Courier.run(["run", "flows", "--jobs", "3", "--var", "base_url=\(server.baseURL)", "--junit", "junit.xml"],
                                           in: workspace.url, interruptAfter: .milliseconds(3000))
        #expect(result.status == 130, result.context)
        #expect(result.stdout.contains("INTERRUPTED"), result.context)
        #expect(!result.stdout.contains("--fail-fast"), result.context)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        for index in 1...3 {
            let cases = try #require(report.suite("slow \(index)")?.cases)
            #expect(cases.first?.error?.message == "interrupted by SIGINT", "\(cases)")
            #expect(cases.last?.passed == true, "teardown runs after Ctrl-C")
        }
    }
}
