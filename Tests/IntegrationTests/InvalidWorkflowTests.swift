import Foundation
import Testing

/// Invalid workflows: exit 2, compiler-style diagnostics, and nothing sent. This suite has a
/// server of its own so that no other test's logins move the `/auth/stats` counter it reads.
@Suite(.testServer, .serialized)
struct InvalidWorkflowTests {
    static let invalid = """
        name: invalid
        steps:
          - name: log in
            request:
              method: POST
              url: "{{ base_url }}/auth/login"
              hedaers:
                X-Trace: abc
              json: { username: demo, password: secret }
        """

    static let valid = """
        name: valid login
        steps:
          - name: log in
            request:
              method: POST
              url: "{{ base_url }}/auth/login"
              json: { username: demo, password: secret }
            expect: { status: 200 }
        """

    /// The diagnostic the spec shows, for `invalid.yaml`.
    static func expectDiagnostic(in output: String, _ context: Comment) throws {
        let position = try #require(invalid.position(of: "hedaers", inLineContaining: "hedaers:"))
        let headline = "invalid.yaml:\(position.line):\(position.column): error: unknown key 'hedaers'"
        let line = output.line(containing: headline)
        #expect(line != nil, "no '\(headline)…' line\n\(context)")
        #expect(line?.contains("did you mean 'headers'?") == true, "no did-you-mean\n\(context)")
        #expect(output.hasCaret(under: "hedaers", inSourceLine: "hedaers:", underlineLength: 7),
                "no source line with ^~~~~~~ under 'hedaers'\n\(context)")
    }

    @Test("an unknown key: exit 2, diagnostic with did-you-mean and caret, and no request is sent (not even from valid files)")
    func invalidWorkflowSendsNothing() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("invalid.yaml", Self.invalid)
        try workspace.write("valid.yaml", Self.valid)
        let before = try server.getJSON("/auth/stats")["login"] as? Int

        // valid.yaml comes last, so "validate everything first" is what keeps it from running.
        let result = try await Courier.run(files: ["invalid.yaml", "valid.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml"])
        #expect(result.status == 2, result.context)
        try Self.expectDiagnostic(in: result.stderr, result.context)
        #expect(!result.stdout.contains("PASS") && !result.stdout.contains("log in"), "steps were run\n\(result.context)")
        let after = try server.getJSON("/auth/stats")["login"] as? Int
        #expect(before != nil && after == before, "POST /auth/login was sent: login counter \(String(describing: before)) → \(String(describing: after))")

        // CI still gets a report: the invalid file as one errored test case, schema-valid, and
        // the valid workflow's steps as skipped (its test history goes on).
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.suites.map(\.name) == ["invalid.yaml", "valid login"])
        #expect(report.suite("valid login")?.cases.allSatisfy { $0.skipped && $0.skippedMessage == "not run: another workflow is invalid" } == true)
        let validate = try #require(report.testCase("validate"))
        #expect(validate.error?.type == "invalid_workflow")
        #expect(validate.error?.text.contains("did you mean 'headers'?") == true, "\(String(describing: validate.error))")

        // Control: the valid file on its own does log in, so the counter can move.
        let control = try await Courier.run(files: ["valid.yaml"], workspace: workspace, server: server)
        #expect(control.status == 0, control.context)
        let afterControl = try server.getJSON("/auth/stats")["login"] as? Int
        #expect(afterControl == (before ?? -1) + 1, "the control run should count one login")
    }

    @Test("courier validate: exit 2 with the same diagnostic on the invalid file, exit 0 on the valid one, nothing sent")
    func validateCommand() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("invalid.yaml", Self.invalid)
        try workspace.write("valid.yaml", Self.valid)
        let before = try server.getJSON("/auth/stats")["login"] as? Int

        let bad = try await Courier.run(["validate", "invalid.yaml"], in: workspace.url)
        #expect(bad.status == 2, bad.context)
        try Self.expectDiagnostic(in: bad.stderr, bad.context)

        let good = try await Courier.run(["validate", "valid.yaml"], in: workspace.url)
        #expect(good.status == 0, good.context)
        #expect(!good.allOutput.contains("error"), good.context)

        let both = try await Courier.run(["validate", "valid.yaml", "invalid.yaml"], in: workspace.url)
        #expect(both.status == 2, both.context)

        let after = try server.getJSON("/auth/stats")["login"] as? Int
        #expect(after == before, "validate sent a request")
    }
}
