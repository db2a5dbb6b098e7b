import Foundation
import Testing

/// Issue 21, "reports that mislead CI": names a CI keys its test history by.
@Suite(.testServer)
struct ReportNamingTests {
    @Test("two unnamed 'GET /health' in one workflow: JUnit names 'GET /health' and 'GET /health (2)'; validate warns at the second")
    func duplicateNamesAreNumbered() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("health.yaml", """
            name: health
            steps:
              - request: { url: "\(server.baseURL)/health" }
              - name: twice
                for_each: [1, 2]
                request: { url: "\(server.baseURL)/health" }
              - name: twice
                for_each: [1]
                request: { url: "\(server.baseURL)/health" }
              - request: { url: "\(server.baseURL)/health" }
                expect: { status: 500 }
            """)
        let result = try await Courier.run(["run", "health.yaml", "--junit", "junit.xml"], in: workspace.url)
        #expect(result.status == 1, result.context)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        let health = "GET \(server.baseURL)/health"
        // Before: two testcases named alike; GitLab kept the first, passed one and lost the failure.
        #expect(report.cases.map(\.name) == [health, "twice [1]", "twice [2]", "twice (2) [1]", "\(health) (2)"])
        #expect(report.testCase("\(health) (2)")?.passed == false)
        #expect(result.stdout.contains("Failed:\n  health.yaml:10  health › \(health) (2)"), "\(result.stdout)")

        let validate = try await Courier.run(["validate", "health.yaml"], in: workspace.url)
        #expect(validate.status == 0, validate.context)
        #expect(validate.stderr.contains("health.yaml:7:5: warning: another step is named 'twice' (line 4); reports call this one 'twice (2)'"),
                "\(validate.stderr)")
        #expect(validate.stderr.contains("health.yaml:10:5: warning: another step is named '\(health)' (line 3); reports call this one '\(health) (2)'"),
                "\(validate.stderr)")
    }

    @Test("classname and file name the workflow against the git work tree, wherever courier is started; a dotted name is one class")
    func classnameFollowsTheProjectRoot() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try FileManager.default.createDirectory(at: workspace.url.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try workspace.write("wf/smoke.v2.yaml", """
            name: smoke
            steps:
              - name: up
                request: { url: "\(server.baseURL)/health" }
            """)
        let fromTop = try await Courier.run(["run", "wf/smoke.v2.yaml", "--junit", "top.xml"], in: workspace.url)
        let fromWf = try await Courier.run(["run", "smoke.v2.yaml", "--junit", "../wf.xml"], in: workspace.url.appendingPathComponent("wf"))
        #expect(fromTop.status == 0 && fromWf.status == 0, "\(fromTop.stderr)\n\(fromWf.stderr)")
        for name in ["top.xml", "wf.xml"] {
            // Validated against junit-10.xsd with `file` allowed on <testcase> (Tests/Support/validate_junit.py).
            let report = try await JUnitReport.load(workspace.url.appendingPathComponent(name))
            // Before: `wf/smoke.v2` from the top, `smoke.v2` from wf/ (Jenkins: class `v2` of package `smoke`).
            #expect(report.cases.map(\.classname) == ["wf.smoke_v2"], "\(name): \(report.text)")
            #expect(report.text.contains(#"<testcase name="up" classname="wf.smoke_v2" file="wf/smoke.v2.yaml" time=""#), "\(report.text)")
            #expect(report.suites.first?.attributes["file"] == "wf/smoke.v2.yaml", "\(report.text)")
        }
    }

    @Test("without a git work tree the working directory is the root")
    func classnameWithoutGit() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("api/v1.0/users.yml", """
            name: users
            steps:
              - name: list
                request: { url: "\(server.baseURL)/health" }
            """)
        let result = try await Courier.run(["run", "api", "--junit", "junit.xml"], in: workspace.url)
        #expect(result.status == 0, result.context)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.cases.map(\.classname) == ["api.v1_0.users"], "\(report.text)")
    }

    @Test("<testsuites time> is the run's wall time, not the sum of the workflows' times (--jobs 2)")
    func suitesTimeIsWallTime() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        for name in ["a", "b"] {
            try workspace.write("\(name).yaml", """
                name: \(name)
                steps:
                  - request: { url: "\(server.baseURL)/delay?ms=600" }
                """)
        }
        let result = try await Courier.run(["run", "a.yaml", "b.yaml", "--jobs", "2", "--junit", "junit.xml"], in: workspace.url)
        #expect(result.status == 0, result.context)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        let total = report.text.firstMatch(of: /<testsuites [^>]*time="([0-9.]+)"/).flatMap { Double($0.1) } ?? -1
        let suites = report.suites.compactMap { $0.attributes["time"].flatMap(Double.init) }.reduce(0, +)
        #expect(suites >= 1.2, "\(report.text)")
        #expect(total >= 0.6 && total < suites, "testsuites time \(total), suites \(suites)")
    }

    @Test("a report path that is the workflow being run, or two reports to one file: usage errors, exit 2, nothing sent",
          arguments: [["--html", "flow.yaml"], ["--json", "r.out", "--junit", "./r.out"], ["--junit", "link.yaml"]])
    func reportPathConflicts(options: [String]) async throws {
        let recorder = try RequestRecorder()
        defer { recorder.stop() }
        let workspace = try Workspace()
        let flow = """
            name: flow
            steps:
              - request: { url: "\(recorder.baseURL)/sent" }
            """
        try workspace.write("flow.yaml", flow)
        try FileManager.default.createSymbolicLink(atPath: workspace.path("link.yaml"), withDestinationPath: "flow.yaml")
        let result = try await Courier.run(["run", "flow.yaml"] + options, in: workspace.url, jsonReport: .optOut(reason: "the report options are the test"))
        #expect(result.status == 2, result.context)
        #expect(result.stderr.contains("error: "), "\(result.stderr)")
        #expect(recorder.received.isEmpty, "sent: \(recorder.received)")
        // Before: the workflow was replaced by the HTML report, or r.out held only the JSON.
        #expect(try workspace.read("flow.yaml") == flow)
        #expect(!workspace.exists("r.out"))
    }
}
