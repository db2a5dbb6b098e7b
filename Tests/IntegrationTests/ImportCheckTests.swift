import Foundation
import Testing

/// Scripts/check-imports.py (run by `make test`): each target's Package.swift dependencies
/// are exactly the package modules its files import.
@Suite struct ImportCheckTests {
    static let script = Paths.packageRoot.appendingPathComponent("Scripts/check-imports.py").path

    func check(_ directory: URL) async throws -> ProcessResult {
        try await ProcessRunner.run("/usr/bin/env", ["python3", Self.script, directory.path], timeout: .seconds(30))
    }

    /// A throwaway package: `Package.swift` and Swift files by relative path.
    func package(_ manifest: String, files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("courier-imports-\(UUID().uuidString)")
        for (path, text) in files.merging(["Package.swift": manifest], uniquingKeysWith: { $1 }) {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return root
    }

    @Test func thisPackageDeclaresWhatItImports() async throws {
        let result = try await check(Paths.packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("declared dependencies match their imports"))
    }

    @Test func anUndeclaredImportAndAnUnusedDependencyFail() async throws {
        let root = try package("""
            // swift-tools-version:6.0
            import PackageDescription
            let package = Package(name: "P", targets: [
                .target(name: "A", dependencies: ["B"]),  // a comment with "C" in it
                .target(name: "B"),
                .target(name: "C"),
                .executableTarget(name: "my-tool", dependencies: [.target(name: "C")], path: "Tools/my-tool"),
                .testTarget(name: "ATests", dependencies: ["A"]),
            ])
            """, files: [
                "Sources/A/a.swift": "import Foundation\n@preconcurrency import C\n",
                "Sources/B/b.swift": "let b = 1\n",
                "Sources/C/c.swift": "let c = 1\n",
                "Tools/my-tool/main.swift": "import C\n",
                "Tests/ATests/t.swift": "@testable import A\nimport B\nimport Testing\n",
            ])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try await check(root)
        #expect(result.status == 1)
        let problems = result.stderr.split(separator: "\n").map(String.init)
        #expect(problems == [
            "check-imports: A: imports C (in Sources/A/a.swift) but does not declare it in Package.swift",
            "check-imports: A: declares B in Package.swift but none of its files imports it",
            "check-imports: ATests: imports B (in Tests/ATests/t.swift) but does not declare it in Package.swift",
        ], "\(result.stderr)")
    }

    @Test func aForbiddenEdgeFailsDirectOrThroughAnotherTarget() async throws {
        let root = try package("""
            // swift-tools-version:6.0
            import PackageDescription
            let package = Package(name: "P", targets: [
                .target(name: "CCurl"),
                .target(name: "CourierHTTP", dependencies: ["CCurl"]),
                .target(name: "CourierEngine", dependencies: ["CourierHTTP"]),
                .target(name: "CourierResults", dependencies: ["CourierHTTP"]),
                .target(name: "Helper", dependencies: ["CourierEngine"]),
                .target(name: "CourierReports", dependencies: ["Helper"]),
                .target(name: "CourierWorkflow"),
                .target(name: "Courier", dependencies: ["CourierHTTP"]),
            ])
            """, files: [
                "Sources/CCurl/c.swift": "let c = 1\n",
                "Sources/CourierHTTP/h.swift": "import CCurl\n",
                "Sources/CourierEngine/e.swift": "import CourierHTTP\n",
                "Sources/CourierResults/r.swift": "import CourierHTTP\n",
                "Sources/Helper/h.swift": "import CourierEngine\n",
                "Sources/CourierReports/r.swift": "import Helper\n",
                "Sources/CourierWorkflow/w.swift": "import Foundation\n",
                "Sources/Courier/c.swift": "import CourierHTTP\n",
            ])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try await check(root)
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").map(String.init) == [
            "check-imports: CourierReports: depends on CCurl (through Helper -> CourierEngine -> CourierHTTP), which it must not: reporters never link libcurl",
            "check-imports: CourierReports: depends on CourierEngine (through Helper), which it must not: reporters never run anything: they read result values",
            "check-imports: CourierReports: depends on CourierHTTP (through Helper -> CourierEngine), which it must not: reporters read result values, never HTTP types",
            "check-imports: CourierResults: depends on CCurl (through CourierHTTP), which it must not: results never link libcurl",
            "check-imports: CourierResults: depends on CourierHTTP, which it must not: results are plain values, with no live HTTP types in them",
        ], "\(result.stderr)")
    }

    /// This package's own graph with one edge added: `Courier` importing the engine.
    @Test func thisPackageWithTheLibraryOnTheEngineFails() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("courier-imports-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for item in ["Sources", "Tests", "Benchmarks", "Examples"] {
            try FileManager.default.copyItem(at: Paths.packageRoot.appendingPathComponent(item), to: root.appendingPathComponent(item))
        }
        let manifest = try String(contentsOf: Paths.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declaration = #".target(name: "Courier", dependencies: ["CourierHTTP", "#
        #expect(manifest.contains(declaration))
        try manifest.replacingOccurrences(of: declaration, with: declaration + #""CourierEngine", "#)
            .write(to: root.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "import CourierEngine\n".write(to: root.appendingPathComponent("Sources/Courier/EngineEdge.swift"), atomically: true, encoding: .utf8)
        let result = try await check(root)
        #expect(result.status == 1)
        #expect(result.stderr == "check-imports: Courier: depends on CourierEngine, which it must not: "
            + "the library stands on CourierHTTP alone, not on the workflow engine\n", "\(result.stderr)")
    }
}
