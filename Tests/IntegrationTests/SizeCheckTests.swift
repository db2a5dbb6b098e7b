import Foundation
import Testing

/// Scripts/check-sizes.py: no file in Sources/CourierEngine over 400 lines, no function over 80
/// lines in Sources/ but the ones it names as exempt.
@Suite struct SizeCheckTests {
    static let script = Paths.packageRoot.appendingPathComponent("Scripts/check-sizes.py").path

    func check(_ directory: URL) async throws -> ProcessResult {
        try await ProcessRunner.run("/usr/bin/env", ["python3", Self.script, directory.path], timeout: .seconds(30))
    }

    /// A throwaway package holding Swift files by relative path.
    func package(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("courier-sizes-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return root
    }

    /// A function `name` whose declaration and closing brace span `lines` lines.
    static func function(_ name: String, lines: Int, signature: String = "()") -> String {
        "func \(name)\(signature) {\n" + String(repeating: "    _ = 1\n", count: lines - 2) + "}\n"
    }

    @Test func aLongFunctionAndALongEngineFileFailWithTheirPlaceAndLength() async throws {
        let root = try package([
            // Line 3: the declaration; braces in strings and comments are not code.
            "Sources/A/a.swift": "import Foundation\n// a comment with a } in it\n"
                + Self.function("long", lines: 81, signature: "(x: Int = { 1 }())").replacingOccurrences(
                    of: "    _ = 1\n", with: "    _ = \"}\\(x)\"\n", options: [], range: nil)
                + Self.function("short", lines: 80),
            "Sources/CourierEngine/Big.swift": String(repeating: "let x = 1\n", count: 401),
            "Sources/CourierEngine/Fits.swift": String(repeating: "let x = 1\n", count: 400),
            "Sources/B/b.swift": "struct S {\n    init(a: Int) {\n" + String(repeating: "        _ = a\n", count: 80) + "    }\n}\n",
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try await check(root)
        #expect(result.status == 1)
        let problems = result.stderr.split(separator: "\n").map(String.init)
        #expect(problems == [
            "Sources/A/a.swift:3: long is 81 lines (max 80)",
            "Sources/B/b.swift:2: init is 82 lines (max 80)",
            "Sources/CourierEngine/Big.swift:1: file is 401 lines (max 400)",
            // Every exemption names a function of this package: in the throwaway one they are stale.
            "Sources/CourierJSON/Regex/RegexMatcher.swift:1: exemption of run in Scripts/check-sizes.py is no longer needed: remove it",
            "Sources/CourierJSON/Schema/SchemaEvaluator.swift:1: exemption of applicator in Scripts/check-sizes.py is no longer needed: remove it",
            "Sources/CourierJSON/Schema/SchemaEvaluator.swift:1: exemption of assertion in Scripts/check-sizes.py is no longer needed: remove it",
            "check-sizes: 6 violations",
        ], "\(result.stderr)")
    }

    @Test func anExemptFunctionPassesAndAnotherLongOneInItsFileDoesNot() async throws {
        let root = try package([
            "Sources/CourierJSON/Regex/RegexMatcher.swift": Self.function("run", lines: 185) + Self.function("other", lines: 81),
            "Sources/CourierJSON/Schema/SchemaEvaluator.swift": Self.function("assertion", lines: 90) + Self.function("applicator", lines: 90),
            // A protocol requirement has no body: the next brace is not its.
            "Sources/P/p.swift": "protocol P {\n    func f()\n}\n" + Self.function("g", lines: 80),
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try await check(root)
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").map(String.init) == [
            "Sources/CourierJSON/Regex/RegexMatcher.swift:186: other is 81 lines (max 80)",
            "check-sizes: 1 violation",
        ], "\(result.stderr)")
    }

    @Test func aPackageWithinTheLimitsPasses() async throws {
        let root = try package([
            "Sources/CourierJSON/Regex/RegexMatcher.swift": Self.function("run", lines: 185),
            "Sources/CourierJSON/Schema/SchemaEvaluator.swift": Self.function("assertion", lines: 90) + Self.function("applicator", lines: 90),
            "Sources/A/a.swift": Self.function("f", lines: 80),
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try await check(root)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("no function over 80 lines outside the 3 exempt"))
    }
}
