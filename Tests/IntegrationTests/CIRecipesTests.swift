import CourierJSON
import Foundation
import Testing

/// The CI recipes of `docs/ci/` work as written: every `courier …` line in them is run, as its
/// CI would run it, with `--dry-run` against `Workflows/` for 3 shards, then the recipe's
/// `merge-reports` lines on the shards' reports; the merged JUnit holds the test cases of one
/// unsharded run.
@Suite struct CIRecipesTests {
    static let directory = Paths.packageRoot.appendingPathComponent("docs/ci")

    /// How each recipe's CI tells shard `index` (1-based) of 3 apart: text its CI replaces
    /// before the shell sees a line, and the variables it sets.
    static func ci(of recipe: String, shard index: Int) -> (replacements: [String: String], environment: [String: String])? {
        switch recipe {
        case "github-actions.yml":
            return (["${{ matrix.shard }}": "\(index)", "${{ vars.STAGING_URL }}": "http://127.0.0.1:9"], [:])
        case "gitlab-ci.yml":
            return ([:], ["CI_NODE_INDEX": "\(index)", "CI_NODE_TOTAL": "3"])
        case "kubernetes-indexed-job.yaml":
            // COURIER_SHARD_TOTAL and BASE_URL are the recipe's own `env:`; checked to be there below.
            return ([:], ["JOB_COMPLETION_INDEX": "\(index - 1)", "COURIER_SHARD_TOTAL": "3"])
        default:
            return nil
        }
    }

    /// The `courier …` commands of a recipe, from `courier` to the end of the line.
    static func commands(in text: String) -> [String] {
        text.split(separator: "\n").compactMap { line -> String? in
            guard let match = line.firstMatch(of: /(?:^|[\s:\-\[])(courier\s+[a-z-]+\b.*)$/) else { return nil }
            let command = String(match.1)
            return command.hasPrefix("courier run") || command.hasPrefix("courier merge-reports") ? command : nil
        }
    }

    static var recipes: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    @Test("docs/ci holds the three recipes, each for a CI this test knows")
    func recipesPresent() {
        #expect(Self.recipes == ["github-actions.yml", "gitlab-ci.yml", "kubernetes-indexed-job.yaml"])
        for recipe in Self.recipes {
            #expect(Self.ci(of: recipe, shard: 1) != nil, "\(recipe): a recipe for a CI this test does not know")
        }
    }

    @Test("each recipe's courier lines run for 3 shards (exit 0) and its merge-reports lines merge them into the unsharded run",
          arguments: recipes)
    func recipeRuns(recipe: String) async throws {
        let text = try String(contentsOf: Self.directory.appendingPathComponent(recipe), encoding: .utf8)
        let commands = Self.commands(in: text)
        let runs = commands.filter { $0.hasPrefix("courier run ") }
        let merges = commands.filter { $0.hasPrefix("courier merge-reports ") }
        #expect(!runs.isEmpty && merges.count >= 1, "\(recipe): \(commands)")
        #expect(runs.allSatisfy { $0.contains("--shard") }, "\(recipe): \(runs)")
        if recipe.hasPrefix("kubernetes") {
            #expect(text.contains("name: COURIER_SHARD_TOTAL\n              value: \"3\""), "the Job's env gives the total")
        }

        let workspace = try Workspace()
        try FileManager.default.copyItem(at: Paths.packageRoot.appendingPathComponent("Workflows"),
                                         to: workspace.url.appendingPathComponent("Workflows"))
        try FileManager.default.createDirectory(at: workspace.url.appendingPathComponent("reports"), withIntermediateDirectories: true)
        let binary = try Paths.courierBinary()
        var environment = ProcessInfo.processInfo.environment
        environment.merge(ShardTests.noCI) { _, clean in clean }
        environment["NO_COLOR"] = "1"
        environment["STAGING_URL"] = "http://127.0.0.1:9"
        environment["BASE_URL"] = "http://127.0.0.1:9"
        environment["COURIER"] = binary

        func shell(_ command: String, replacements: [String: String] = [:], extra: [String: String] = [:]) async throws -> ProcessResult {
            var line = command
            for (from, to) in replacements { line = line.replacingOccurrences(of: from, with: to) }
            // The built binary, and a dry run: nothing is sent to the recipe's servers.
            line = "\"$COURIER\"" + line.dropFirst("courier".count)
            if line.hasPrefix("\"$COURIER\" run ") {
                line = "\"$COURIER\" run --dry-run " + line.dropFirst("\"$COURIER\" run ".count)
            }
            return try await ProcessRunner.run("/bin/sh", ["-c", line], in: workspace.url,
                                               environment: environment.merging(extra) { _, new in new })
        }

        for index in 1...3 {
            guard let ci = Self.ci(of: recipe, shard: index) else { return }
            for run in runs {
                let result = try await shell(run, replacements: ci.replacements, extra: ci.environment)
                #expect(result.status == 0, "\(recipe), shard \(index): \(run)\n\(result.context)")
                #expect(result.stdout.hasPrefix("shard \(index)/3"), "\(recipe), shard \(index): \(run)\n\(result.context)")
            }
        }
        for merge in merges {
            let result = try await shell(merge)
            #expect(result.status == 0, "\(recipe): \(merge)\n\(result.context)")
        }

        // The merged JUnit (the OUT of the merge whose inputs are .xml) against one unsharded run.
        guard let junitMerge = merges.first(where: { $0.hasSuffix(".xml") }),
              let out = junitMerge.split(separator: " ").dropFirst(2).first.map(String.init) else {
            Issue.record("\(recipe): no merge-reports of JUnit reports")
            return
        }
        let whole = try await Courier.run(["run", "--dry-run", "Workflows", "--var", "base_url=http://127.0.0.1:9", "--junit", "whole.xml"],
                                          in: workspace.url, environment: ShardTests.noCI)
        #expect(whole.status == 0, whole.context)
        let merged = try await JUnitReport.load(workspace.url.appendingPathComponent(out))
        let unsharded = try await JUnitReport.load(workspace.url.appendingPathComponent("whole.xml"))
        func cases(_ report: JUnitReport) -> [String] { report.cases.map { "\($0.classname ?? "") › \($0.name)" }.sorted() }
        #expect(!cases(unsharded).isEmpty)
        #expect(cases(merged) == cases(unsharded), "\(recipe)")

        // The merged JSON report says which shards it holds.
        if let jsonMerge = merges.first(where: { $0.hasSuffix(".json") }),
           let jsonOut = jsonMerge.split(separator: " ").dropFirst(2).first.map(String.init) {
            let report = try JSONReportFile.load(workspace.url.appendingPathComponent(jsonOut))
            let shards = report.value["run"]?["mergedShards"]?.arrayValue?.map { "\($0["index"]?.int ?? 0)/\($0["total"]?.int ?? 0)" }
            #expect(shards.map { Set($0) } == ["1/3", "2/3", "3/3"], "\(recipe)")
        }
    }
}
