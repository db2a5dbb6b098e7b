import Foundation
import Testing

/// The command line itself: version, option errors, report-writing failures.
@Suite(.testServer)
struct CommandLineTests {
    @Test("courier --version prints one version line; courier version adds libcurl and TLS")
    func version() async throws {
        let workspace = try Workspace()
        for argument in ["--version", "version"] {
            let result = try await Courier.run([argument], in: workspace.url)
            #expect(result.status == 0, result.context)
            let lines = result.stdout.lines.filter { !$0.isEmpty }
            #expect(lines.count == (argument == "version" ? 3 : 1), result.context)
            let versionLine = lines.first ?? ""
            #expect(versionLine.hasPrefix("courier "), result.context)
            #expect(versionLine.range(of: #"\d+\.\d+\.\d+"#, options: .regularExpression) != nil, "no x.y.z version\n\(result.context)")
            if argument == "version" {
                #expect(lines.contains { $0.hasPrefix("libcurl ") }, result.context)
                #expect(lines.contains { $0.hasPrefix("TLS ") }, result.context)
            }
        }
    }

    @Test("an unknown option exits 2 with a did-you-mean, before anything runs")
    func unknownOption() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("ok.yaml", """
            steps:
              - request: { url: "{{ base_url }}/health" }
            """)
        let result = try await Courier.run(files: ["ok.yaml"], workspace: workspace, server: server, extra: ["--jnuit", "r.xml"])
        #expect(result.status == 2, result.context)
        #expect(result.stderr.contains("--jnuit"), result.context)
        #expect(result.stderr.contains("did you mean '--junit'?"), result.context)
        #expect(!result.stdout.contains("PASS"), "the workflow ran\n\(result.context)")
    }

    @Test("a mistyped command exits 2 with a did-you-mean", arguments: [("rnu", "run"), ("valdiate", "validate"), ("lsit", "list")])
    func unknownCommand(typed: String, meant: String) async throws {
        let workspace = try Workspace()
        let result = try await Courier.run([typed, "ok.yaml"], in: workspace.url)
        #expect(result.status == 2, result.context)
        #expect(result.stderr.contains("unknown command '\(typed)'"), result.context)
        #expect(result.stderr.contains("did you mean '\(meant)'?"), result.context)
    }

    @Test("--junit into an unwritable place exits 3 with a clear error; the console output is still printed")
    func unwritableJUnit() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("ok.yaml", """
            name: fine
            steps:
              - name: health
                request: { url: "{{ base_url }}/health" }
            """)
        try workspace.write("plain-file", "not a directory\n")
        let target = "plain-file/report.xml"
        let result = try await Courier.run(files: ["ok.yaml"], workspace: workspace, server: server, extra: ["--junit", target])
        #expect(result.status == 3, result.context)
        #expect(result.stdout.line(containing: "PASS", "health") != nil, "the console output is missing\n\(result.context)")
        let error = result.stderr.line(containing: "error")
        #expect(error?.contains(target) == true, "the error should name the report path\n\(result.context)")
        #expect(error?.localizedCaseInsensitiveContains("junit") == true, result.context)
        #expect(!workspace.exists(target))
    }
}
