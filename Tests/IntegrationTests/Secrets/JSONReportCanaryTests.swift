import Foundation
import Testing

/// The canary scenarios' JSON reports (CanaryTests scans them for leaks, as it does every
/// output once `courier run --help` offers `--json`) also match `docs/report.schema.json`:
/// bodies, headers and captures masked after recording must leave the report's shape whole.
@Suite struct JSONReportCanaryTests {
    @Test("every canary scenario's JSON report matches the schema", arguments: CanaryScenario.all)
    func matchesSchema(_ scenario: CanaryScenario) async throws {
        let server = try await CanaryServer.shared.server()
        let setup = try await scenario.make(CanaryScenario.Context(number: scenario.number, server: server))
        let workspace = try Workspace()
        for (path, contents) in setup.files { try workspace.write(path, contents) }
        _ = try await CanaryRun.run(workspace: workspace, arguments: setup.arguments, environment: setup.environment, modes: [.json])
        let report = try JSONReportFile.load(workspace.url.appendingPathComponent("report.json"))
        #expect(report.value["formatVersion"]?.int == 1)
        #expect(!report.workflows.isEmpty, "no workflow in the report")
    }
}
