import CourierJSON
import Foundation
import Testing

/// `courier run --shard K/N` and `courier list --shard K/N` end to end: the slices of a
/// selection partition it, their reports merge into the unsharded run's, an empty slice
/// passes with a note, and every bad value is a usage error (section 11).
@Suite(.testServer)
struct ShardTests {
    /// Nine workflows in two directories; the `slow` ones are left out by `--exclude-tag`.
    private func writeSuite(_ workspace: Workspace) throws {
        for (index, name) in ["users", "orders", "billing", "auth", "search", "catalog", "inventory", "shipping", "admin"].enumerated() {
            let directory = index < 5 ? "suite/api" : "suite/ui"
            try workspace.write("\(directory)/\(name).yaml", """
                name: \(name)
                tags: [\(index % 4 == 3 ? "slow" : "fast")]
                steps:
                  - name: \(name) health
                    request: { url: "{{ base_url }}/health" }
                    expect: { status: 200 }
                """)
        }
    }

    /// No CI's variables, whatever the environment the tests run in holds.
    static let noCI: [String: String] = [
        "CI_NODE_INDEX": "", "CI_NODE_TOTAL": "", "BUILDKITE_PARALLEL_JOB": "", "BUILDKITE_PARALLEL_JOB_COUNT": "",
        "CIRCLE_NODE_INDEX": "", "CIRCLE_NODE_TOTAL": "", "JOB_COMPLETION_INDEX": "", "COURIER_SHARD": "", "COURIER_SHARD_TOTAL": "",
    ]

    private static func withoutTimes(_ text: String) -> String {
        text.replacingOccurrences(of: #"time="[0-9.]+""#, with: #"time="T""#, options: .regularExpression)
    }

    @Test("three slices of a selection run disjoint parts of it, their first line says so, and their reports merge into the unsharded run's")
    func slicesPartitionTheSelection() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try writeSuite(workspace)
        let selection = ["--exclude-tag", "slow"]
        let whole = try await Courier.run(files: ["suite"], workspace: workspace, server: server,
                                          extra: selection + ["--junit", "whole.xml"], environment: Self.noCI)
        #expect(whole.status == 0, whole.context)
        var ran: [String] = []
        for index in 1...3 {
            let result = try await Courier.run(files: ["suite"], workspace: workspace, server: server,
                                               extra: selection + ["--shard", "\(index)/3", "--junit", "junit-\(index).xml",
                                                                   "--json", "report-\(index).json"],
                                               environment: Self.noCI)
            #expect(result.status == 0, result.context)
            let first = result.stdout.split(separator: "\n").first.map(String.init) ?? ""
            #expect(first.hasPrefix("shard \(index)/3: ") && first.hasSuffix(" of 7 selected workflows"), result.context)
            let report = try JSONReportFile.load(workspace.url.appendingPathComponent("report-\(index).json"))
            #expect(report.value["run"]?["shard"] == .object(["index": .number(JSONNumber(index)), "total": .number(JSONNumber(3))]))
            let files = report.workflows.compactMap { $0["file"]?.stringValue }
            ran += files
            // `list` shows the same slice without running it.
            let list = try await Courier.run(["list", "suite", "--shard", "\(index)/3"], in: workspace.url, environment: Self.noCI)
            #expect(list.status == 0, list.context)
            let listed = list.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") && !$0.hasPrefix("shard ") && !$0.hasPrefix("note: ") }
                .map { String($0.prefix { $0 != ":" }) }
            // list has no selection options: its slice holds the `slow` workflows of that slice too.
            #expect(Set(files).isSubset(of: Set(listed)), "\(files) \(listed)")
        }
        #expect(ran.sorted() == Set(ran).sorted(), "a workflow ran in two slices: \(ran)")
        #expect(Set(ran) == ["suite/api/users.yaml", "suite/api/orders.yaml", "suite/api/billing.yaml", "suite/api/search.yaml",
                             "suite/ui/catalog.yaml", "suite/ui/inventory.yaml", "suite/ui/admin.yaml"])

        let merge = try await Courier.run(["merge-reports", "merged.xml", "junit-1.xml", "junit-2.xml", "junit-3.xml"], in: workspace.url)
        #expect(merge.status == 0, merge.context)
        let merged = try await JUnitReport.load(workspace.url.appendingPathComponent("merged.xml"))
        let unsharded = try await JUnitReport.load(workspace.url.appendingPathComponent("whole.xml"))
        func cases(_ report: JUnitReport) -> [String] { report.cases.map { "\($0.classname ?? "") \($0.name)" }.sorted() }
        #expect(cases(merged) == cases(unsharded))

        let jsonMerge = try await Courier.run(["merge-reports", "merged.json", "report-1.json", "report-2.json", "report-3.json"], in: workspace.url)
        #expect(jsonMerge.status == 0, jsonMerge.context)
        let mergedJSON = try JSONReportFile.load(workspace.url.appendingPathComponent("merged.json"))
        #expect(mergedJSON.value["run"]?["mergedShards"]?.arrayValue?.map { "\($0["index"]?.int ?? 0)/\($0["total"]?.int ?? 0)" }
                == ["1/3", "2/3", "3/3"])
        #expect(mergedJSON.value["run"]?["shard"] == nil)
        #expect(mergedJSON.summary?["workflows"]?.int == 7)
    }

    @Test("an empty slice of a non-empty selection exits 0 with a note; its JUnit and JSON reports are valid and merge")
    func emptySlice() async throws {
        let workspace = try Workspace()
        try workspace.write("one/only.yaml", """
            name: only
            steps:
              - request: { url: "http://127.0.0.1:9/x" }
            """)
        // `only.yaml` is in slice 1 of 2 (pinned in CourierCLITests): slice 2 is empty.
        let listed = try await Courier.run(["list", "one", "--shard", "2/2"], in: workspace.url, environment: Self.noCI)
        #expect(listed.status == 0, listed.context)
        #expect(listed.stdout == "shard 2/2: 0 of 1 selected workflow\nnote: shard 2/2 holds none of the 1 selected workflow; nothing to run\n",
                listed.context)
        let empty = try await Courier.run(["run", "one", "--shard", "2/2", "--junit", "empty.xml", "--json", "empty.json", "--html", "empty.html"],
                                          in: workspace.url, environment: Self.noCI)
        #expect(empty.status == 0, empty.context)
        #expect(empty.stdout.hasPrefix("shard 2/2: 0 of 1 selected workflow\nnote: shard 2/2 holds none of the 1 selected workflow; nothing to run\n"),
                empty.context)
        let junit = try await JUnitReport.load(workspace.url.appendingPathComponent("empty.xml"))
        #expect(junit.suites.isEmpty)
        let json = try JSONReportFile.load(workspace.url.appendingPathComponent("empty.json"))
        #expect(json.summary?["passed"] == .bool(true) && json.workflows.isEmpty)
        #expect(workspace.exists("empty.html"))

        let full = try await Courier.run(["run", "one", "--shard", "1/2", "--dry-run", "--junit", "full.xml", "--json", "full.json"],
                                         in: workspace.url, environment: Self.noCI)
        #expect(full.status == 0 && full.stdout.hasPrefix("shard 1/2: 1 of 1 selected workflow\n"), full.context)
        for (out, inputs) in [("m.xml", ["empty.xml", "full.xml"]), ("m.json", ["empty.json", "full.json"])] {
            let merge = try await Courier.run(["merge-reports", out] + inputs, in: workspace.url)
            #expect(merge.status == 0, merge.context)
        }
        #expect(try await JUnitReport.load(workspace.url.appendingPathComponent("m.xml")).suites.map(\.name) == ["only"])
    }

    @Test("selection comes first: a selection that is empty is exit 2 as without --shard, whichever slice")
    func emptySelection() async throws {
        let workspace = try Workspace()
        try writeSuite(workspace)
        let result = try await Courier.run(["run", "suite", "--var", "base_url=http://127.0.0.1:9", "--tag", "nope", "--shard", "1/3", "--junit", "r.xml"], in: workspace.url,
                                           environment: Self.noCI)
        #expect(result.status == 2, result.context)
        #expect(result.stderr.contains("error: no workflows selected: 9 workflows found in suite, none has tag 'nope'"), result.context)
        #expect(try await JUnitReport.load(workspace.url.appendingPathComponent("r.xml")).testCase("select workflows") != nil)
    }

    @Test("an invalid workflow fails every slice (exit 2, every error printed); each slice's report holds the invalid files of that slice, so they merge")
    func invalidWorkflow() async throws {
        let workspace = try Workspace()
        try writeSuite(workspace)
        // api/orders.yaml is in slice 3 of 3, api/users.yaml in slice 2 (pinned by the hash).
        for name in ["orders", "users"] {
            try workspace.write("suite/api/\(name).yaml", "name: \(name)\nsteps:\n  - request: { url: \"http://127.0.0.1:9/\" }\n    expext: {}\n")
        }
        var inReports: [String] = []
        var allCases: [String] = []
        for index in 1...3 {
            let result = try await Courier.run(["run", "suite", "--var", "base_url=http://127.0.0.1:9", "--shard", "\(index)/3",
                                                "--junit", "junit-\(index).xml"], in: workspace.url, environment: Self.noCI)
            #expect(result.status == 2, result.context)
            #expect(result.stderr.contains("suite/api/orders.yaml:4:5: error: unknown key 'expext'")
                    && result.stderr.contains("suite/api/users.yaml:4:5: error: unknown key 'expext'"), result.context)
            let cases = try await JUnitReport.load(workspace.url.appendingPathComponent("junit-\(index).xml")).cases
            inReports += cases.filter { $0.error != nil }.compactMap(\.classname)
            allCases += cases.map { "\($0.classname ?? "") \($0.name)" }
        }
        #expect(inReports.sorted() == ["suite.api.orders", "suite.api.users"])
        // The valid workflows are listed as not run, each in one slice only.
        #expect(Set(allCases).count == allCases.count, "a test case is in two slices: \(allCases)")
        #expect(allCases.count > 2)
        let merge = try await Courier.run(["merge-reports", "merged.xml", "junit-1.xml", "junit-2.xml", "junit-3.xml"], in: workspace.url)
        #expect(merge.status == 0, merge.context)
    }

    /// The slice `--shard auto` picks from each CI's variables is the one `--shard K/N` names.
    @Test("--shard auto in each CI names the variables on the first line and runs the slice --shard K/N runs", arguments: [
        (["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"], "2/3", "GitLab: CI_NODE_INDEX=2, CI_NODE_TOTAL=3"),
        (["BUILDKITE_PARALLEL_JOB": "1", "BUILDKITE_PARALLEL_JOB_COUNT": "3"], "2/3", "Buildkite: BUILDKITE_PARALLEL_JOB=1, BUILDKITE_PARALLEL_JOB_COUNT=3"),
        (["CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "2"], "1/2", "CircleCI: CIRCLE_NODE_INDEX=0, CIRCLE_NODE_TOTAL=2"),
        (["JOB_COMPLETION_INDEX": "2", "COURIER_SHARD_TOTAL": "3"], "3/3", "Kubernetes Indexed Job: JOB_COMPLETION_INDEX=2, COURIER_SHARD_TOTAL=3"),
    ])
    func autoInEachCI(variables: [String: String], slice: String, origin: String) async throws {
        let workspace = try Workspace()
        try writeSuite(workspace)
        let environment = Self.noCI.merging(variables) { _, set in set }
        let auto = try await Courier.run(["run", "suite", "--dry-run", "--var", "base_url=http://127.0.0.1:9", "--shard", "auto", "--json", "auto.json"], in: workspace.url,
                                         environment: environment)
        #expect(auto.status == 0, auto.context)
        #expect(auto.stdout.hasPrefix("shard \(slice) (\(origin)): "), auto.context)
        let explicit = try await Courier.run(["run", "suite", "--dry-run", "--var", "base_url=http://127.0.0.1:9", "--shard", slice, "--json", "explicit.json"], in: workspace.url,
                                             environment: Self.noCI)
        #expect(explicit.status == 0, explicit.context)
        let files = { (name: String) in try JSONReportFile.load(workspace.url.appendingPathComponent(name)).workflows.compactMap { $0["file"]?.stringValue } }
        #expect(try files("auto.json") == files("explicit.json"))
        // Without `auto` the same variables are never read.
        let plain = try await Courier.run(["list", "suite"], in: workspace.url, environment: environment)
        #expect(plain.status == 0 && !plain.stdout.contains("shard"), plain.context)
    }

    @Test("a slice depends on the path below the directory given, not on where that directory is")
    func relativeToTheDirectoryGiven() async throws {
        let workspace = try Workspace()
        try writeSuite(workspace)
        let outside = try await Courier.run(["list", "suite", "--shard", "2/3"], in: workspace.url, environment: Self.noCI)
        let inside = try await Courier.run(["list", "--shard", "2/3"], in: workspace.url.appendingPathComponent("suite"), environment: Self.noCI)
        #expect(outside.status == 0 && inside.status == 0, "\(outside.context)\n\(inside.context)")
        #expect(outside.stdout.replacingOccurrences(of: "suite/", with: "") == inside.stdout)
    }

    @Test("bad values are usage errors (exit 2), nothing run", arguments: [
        (["--shard", "0/3"], [:], "error: --shard takes K/N, the K-th of N slices with 1 ≤ K ≤ N (e.g. 2/3), or auto, not '0/3'"),
        (["--shard", "4/3"], [:], "error: --shard takes K/N"),
        (["--shard", "x/y"], [:], "error: --shard takes K/N"),
        (["--shard", "auto"], [:], "error: --shard auto: no CI says which parallel job this is"),
        (["--shard", "auto"], ["JOB_COMPLETION_INDEX": "0"], "error: --shard auto: JOB_COMPLETION_INDEX is set (Kubernetes Indexed Job) but not the number of slices"),
        (["--shard-by", "count"], [:], "error: --shard-by needs --shard"),
        ([], ["COURIER_SHARD": "3/2"], "error: COURIER_SHARD takes K/N"),
    ] as [([String], [String: String], String)])
    func badValues(arguments: [String], variables: [String: String], message: String) async throws {
        let workspace = try Workspace()
        try writeSuite(workspace)
        let environment = Self.noCI.merging(variables) { _, set in set }
        for command in ["run", "list"] {
            let result = try await Courier.run([command, "suite"] + arguments, in: workspace.url, environment: environment,
                                               jsonReport: .optOut(reason: "a usage error writes no report"))
            #expect(result.status == 2, result.context)
            #expect(result.stderr.hasPrefix(message) && result.stdout.isEmpty, result.context)
        }
    }
}
