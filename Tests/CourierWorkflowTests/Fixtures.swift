import CourierDiagnostics
@testable import CourierWorkflow
import Foundation

/// The `Fixtures/` folder next to this file.
let fixturesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

/// YAML files in a fixtures subfolder, sorted, as `folder/name.yaml`.
func fixtureNames(_ folder: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: fixturesDirectory.appendingPathComponent(folder).path)) ?? []
    return names.filter { $0.hasSuffix(".yaml") }.sorted().map { "\(folder)/\($0)" }
}

/// Decodes a fixture, registered under its relative name so golden output does not depend on the checkout path.
func decodeFixture(_ name: String, sources: SourceStore = SourceStore()) throws -> Result<Workflow, DiagnosticList> {
    let text = try String(contentsOf: fixturesDirectory.appendingPathComponent(name), encoding: .utf8)
    return decodeWorkflow(text: text, path: name, sources: sources)
}

/// Decodes YAML text named `t.yaml`.
func decode(_ text: String) -> Result<Workflow, DiagnosticList> {
    decodeWorkflow(text: text, path: "t.yaml", sources: SourceStore())
}

/// The messages of a failed decode (empty on success).
func messages(_ text: String) -> [String] {
    switch decode(text) {
    case .success: return []
    case .failure(let list): return list.diagnostics.map(\.message)
    }
}
