import Foundation
import Testing

/// `courier run DIR`: discovery order, fragments, and selection.
@Suite(.testServer)
struct DirectoryRunTests {
    /// b/ before c/ by path even though the names sort the other way; `_shared.yaml` is a
    /// fragment and must not run (it would fail: its url has no base).
    func makeTree() throws -> Workspace {
        let workspace = try Workspace()
        func workflow(_ name: String, tags: [String], step: String) -> String {
            """
            name: \(name)
            tags: [\(tags.joined(separator: ", "))]
            steps:
              - name: \(step)
                request: { url: "{{ base_url }}/health" }
            """
        }
        try workspace.write("suite/a-first.yaml", workflow("zulu", tags: ["smoke"], step: "step alpha"))
        try workspace.write("suite/b/one.yml", workflow("yankee", tags: ["slow"], step: "step bravo"))
        try workspace.write("suite/b/two.yaml", workflow("xray", tags: ["smoke", "slow"], step: "step charlie"))
        try workspace.write("suite/c.yaml", workflow("whiskey", tags: [], step: "step delta"))
        try workspace.write("suite/b/_shared.yaml", """
            - name: fragment step
              request: { url: /never-sent }
            """)
        try workspace.write("suite/notes.txt", "not a workflow\n")
        return workspace
    }

    func names(_ workspace: Workspace, _ extra: [String]) async throws -> (ProcessResult, [String]) {
        let server = try TestServer.shared()
        let result = try await Courier.run(files: ["suite"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml"] + extra)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        return (result, report.suites.map(\.name))
    }

    @Test("a directory runs every workflow below it in path order, skipping _fragments")
    func pathOrder() async throws {
        let workspace = try makeTree()
        let (result, suites) = try await names(workspace, [])
        #expect(result.status == 0, result.context)
        #expect(suites == ["zulu", "yankee", "xray", "whiskey"], result.context)
        #expect(!result.allOutput.contains("fragment step"), result.context)
        // The console shows them in the same order.
        let order = ["step alpha", "step bravo", "step charlie", "step delta"].compactMap { step in
            result.stdout.range(of: step).map { result.stdout.distance(from: result.stdout.startIndex, to: $0.lowerBound) }
        }
        #expect(order.count == 4 && order == order.sorted(), result.context)
    }

    @Test("--tag, --exclude-tag and --filter select workflows", arguments: [
        (["--tag", "smoke"], ["zulu", "xray"]),
        (["--tag", "smoke", "--tag", "slow"], ["zulu", "yankee", "xray"]),
        (["--exclude-tag", "slow"], ["zulu", "whiskey"]),
        (["--tag", "smoke", "--exclude-tag", "slow"], ["zulu"]),
        (["--filter", "^whis"], ["whiskey"]),
        (["--filter", "step (bravo|delta)"], ["yankee", "whiskey"]),
    ])
    func selection(options: [String], expected: [String]) async throws {
        let workspace = try makeTree()
        let (result, suites) = try await names(workspace, options)
        #expect(result.status == 0, result.context)
        #expect(suites == expected, "\(options): \(result.context)")
    }
}
