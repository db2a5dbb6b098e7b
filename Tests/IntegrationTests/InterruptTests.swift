import Foundation
import Testing

/// Ctrl-C: the run stops after the current step, teardown still runs, reports are written,
/// and the exit status is 130.
@Suite(.testServer)
struct InterruptTests {
    /// A step that waits 20 s (time to interrupt it), one after it, and a teardown.
    static let slowWorkflow = """
        name: slow
        steps:
          - name: slow one
            request: { url: "{{ base_url }}/delay?ms=20000" }
          - name: never sent
            request: { url: "{{ base_url }}/health" }
        teardown:
          - name: clean up
            request: { url: "{{ base_url }}/health" }
        """

    @Test("SIGINT during a slow step: exit 130, teardown runs, the rest is skipped as interrupted, JUnit written")
    func interrupt() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("slow.yaml", Self.slowWorkflow)
        let result = try await Courier.run(["run", "slow.yaml", "--var", "base_url=\(server.baseURL)", "--junit", "junit.xml"],
                                           in: workspace.url, interruptAfter: .milliseconds(1500))
        #expect(result.status == 130, result.context)
        #expect(result.duration < .seconds(15), "the run did not stop at Ctrl-C: \(result.duration)")
        #expect(result.stdout.contains("INTERRUPTED"), result.context)
        #expect(result.stderr.contains("interrupted"), result.context)

        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.testCase("slow one")?.error?.type == "cancelled")
        #expect(report.testCase("never sent")?.skippedMessage == "interrupted by SIGINT")
        #expect(report.testCase("clean up")?.passed == true, "teardown runs after Ctrl-C")
    }
}
