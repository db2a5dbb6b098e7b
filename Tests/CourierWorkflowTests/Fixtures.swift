import CourierDiagnostics
@testable import CourierWorkflow
import Foundation

/// The `Fixtures/` folder next to this file.
let fixturesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

/// YAML files in a fixtures subfolder, sorted, as `folder/name.yaml`.
func fixtureNames(_ folder: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: fixturesDirectory.appendingPathComponent(folder).path)) ?? []
    // `_name.yaml` files are fragments that fixtures include, not fixtures.
    return names.filter { $0.hasSuffix(".yaml") && !$0.hasPrefix("_") }.sorted().map { "\(folder)/\($0)" }
}

/// Decodes a fixture, registered under its relative name so golden output does not depend on the checkout path.
///
/// Every file of the fixtures folder is registered the same way, so the files
/// a fixture names (includes, uploads, certificates) resolve as on disk.
func decodeFixture(_ name: String, sources: SourceStore = SourceStore()) throws -> Result<Workflow, DiagnosticList> {
    registerFixtureFiles(in: sources)
    let text = try String(contentsOf: fixturesDirectory.appendingPathComponent(name), encoding: .utf8)
    return decodeWorkflow(text: text, path: name, sources: sources)
}

func registerFixtureFiles(in sources: SourceStore) {
    let root = fixturesDirectory.path + "/"
    guard let walker = FileManager.default.enumerator(atPath: fixturesDirectory.path) else { return }
    for case let relative as String in walker {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root + relative, isDirectory: &isDirectory), !isDirectory.boolValue,
              let data = FileManager.default.contents(atPath: root + relative) else { continue }
        sources.register(path: relative, text: String(decoding: data, as: UTF8.self))
    }
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
