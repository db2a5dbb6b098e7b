import Foundation
import Testing

/// `--exit-codes detailed`: 4 when a step errored (the API is down), 1 when only expectations
/// failed (the API is wrong); the default keeps 1 for both.
@Suite(.testServer) struct ExitCodesTests {
    static let failing = "name: wrong\nsteps:\n  - request: { url: \"{{ base_url }}/status/500\" }\n"
    static let erroring = "name: down\nsteps:\n  - request: { url: \"http://127.0.0.1:9/nothing-listens\", headers: { X-Base: \"{{ base_url }}\" } }\n"

    @Test("an errored step: 4 with detailed codes, 1 by default; an expectation alone: 1 either way")
    func detailed() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("wrong.yaml", Self.failing)
        try workspace.write("down.yaml", Self.erroring)
        for (files, codes, expected) in [(["wrong.yaml"], "detailed", 1), (["down.yaml"], "detailed", 4),
                                         (["wrong.yaml", "down.yaml"], "detailed", 4), (["down.yaml"], "default", 1)] {
            let result = try await Courier.run(files: files, workspace: workspace, server: server, extra: ["--exit-codes", codes])
            #expect(result.status == Int32(expected), "\(files) with --exit-codes \(codes)\n\(result.context)")
        }
        let plain = try await Courier.run(files: ["down.yaml"], workspace: workspace, server: server)
        #expect(plain.status == 1, plain.context)
    }

    @Test("a passing run is 0 and an invalid value is a usage error")
    func passingAndInvalid() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("ok.yaml", "steps:\n  - request: { url: \"{{ base_url }}/health\" }\n")
        #expect(try await Courier.run(files: ["ok.yaml"], workspace: workspace, server: server, extra: ["--exit-codes", "detailed"]).status == 0)
        let bad = try await Courier.run(files: ["ok.yaml"], workspace: workspace, server: server, extra: ["--exit-codes", "fancy"])
        #expect(bad.status == 2, bad.context)
        #expect(bad.stderr.contains("--exit-codes takes default or detailed, not 'fancy'"), bad.context)
    }
}

/// One invalid file stops the run (exit 2, nothing sent), but the reports still list every
/// valid workflow that would have run, its steps skipped, so CI's test history keeps them.
@Suite(.testServer) struct InvalidRunReportTests {
    @Test("the valid workflows of an invalid run are in JUnit and JSON as skipped: 'not run: another workflow is invalid'")
    func validWorkflowsAreListed() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("good.yaml", """
            name: good
            steps:
              - name: health
                request: { url: "{{ base_url }}/health" }
              - name: echo
                request: { url: "{{ base_url }}/echo" }
            """)
        try workspace.write("bad.yaml", "name: bad\nsteps:\n  - request: { url: /x }\n    expct: { status: 200 }\n")
        let result = try await Courier.run(files: ["good.yaml", "bad.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml"])
        #expect(result.status == 2, result.context)
        let junit = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(junit.testCase("validate")?.error?.type == "invalid_workflow")
        for name in ["health", "echo"] {
            let testCase = try #require(junit.testCase(name), "\(name) is missing from the JUnit report")
            #expect(testCase.skipped && testCase.skippedMessage == "not run: another workflow is invalid")
        }
        let steps = result.jsonReport?.steps ?? []
        #expect(steps.filter { $0["outcome"]?["reason"]?.stringValue == "not run: another workflow is invalid" }.count == 2)
    }
}
