import Foundation
import Testing
import CourierJSON

/// The JSON-Schema-Test-Suite as the pinned `jsonschema` sdist carries it (its `json/` folder,
/// unpacked by Scripts/corpora.sh, which `make test` runs, into `$COURIER_CORPORA_CACHE`, else
/// `<package root>/.build/corpora`): every required test of `tests/draft2020-12` and
/// `tests/draft7` (not `optional/`). `http://localhost:1234/…` is served from `remotes/`.
///
/// Without the corpus the cases are skipped locally; with `CI` set its absence fails the run.
enum SchemaSuite {
    static let directory: URL = {
        let cache: URL
        if let configured = ProcessInfo.processInfo.environment["COURIER_CORPORA_CACHE"], !configured.isEmpty {
            cache = URL(fileURLWithPath: configured)
        } else {
            cache = URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent()  // CourierJSONTests
                .deletingLastPathComponent()  // Tests
                .deletingLastPathComponent()
                .appendingPathComponent(".build/corpora")
        }
        return cache.appendingPathComponent("json-schema-test-suite")
    }()
    static let remotes = directory.appendingPathComponent("remotes")

    /// Groups expected to fail, keyed by "file: group description", with the reason. None at
    /// the moment: the groups that `$ref` an official metaschema (not in the suite's `remotes/`)
    /// pass against Courier's built-in metaschemas.
    static let knownIssues: [String: String] = [:]

    static func folder(_ draft: JSONSchema.Draft) -> String {
        draft == .draft7 ? "draft7" : "draft2020-12"
    }

    static func loadCases(_ draft: JSONSchema.Draft) -> Result<[SchemaSuiteCase], ComplianceSuite.LoadError> {
        let folder = directory.appendingPathComponent("tests/\(self.folder(draft))")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
            return .failure(.init(message: "cannot list \(folder.path)"))
        }
        var cases: [SchemaSuiteCase] = []
        for name in names.sorted() where name.hasSuffix(".json") {
            let path = folder.appendingPathComponent(name).path
            guard let data = FileManager.default.contents(atPath: path),
                let groups = (try? JSONValue.parse(data))?.arrayValue
            else {
                return .failure(.init(message: "cannot read \(path)"))
            }
            let file = "\(self.folder(draft))/\(name)"
            for group in groups {
                let groupDescription = group["description"]?.stringValue ?? "?"
                for test in group["tests"]?.arrayValue ?? [] {
                    cases.append(SchemaSuiteCase(
                        file: file, group: groupDescription, test: test["description"]?.stringValue ?? "?",
                        draft: draft, schema: group["schema"] ?? .null, data: test["data"] ?? .null,
                        valid: test["valid"]?.boolValue ?? false))
                }
            }
        }
        return .success(cases)
    }

    static let draft2020_12 = loadCases(.draft2020_12)
    static let draft7 = loadCases(.draft7)

    /// Serves `http://localhost:1234/…` from `remotes/`.
    static let retrieve: @Sendable (String) -> JSONValue? = { uri in
        let prefix = "http://localhost:1234/"
        guard uri.hasPrefix(prefix) else { return nil }
        let path = remotes.appendingPathComponent(String(uri.dropFirst(prefix.count))).path
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONValue.parse(data)
    }
}

struct SchemaSuiteCase: Sendable, CustomTestStringConvertible {
    var file: String
    var group: String
    var test: String
    var draft: JSONSchema.Draft
    var schema: JSONValue
    var data: JSONValue
    var valid: Bool

    var testDescription: String { "\(file): \(group): \(test)" }
    var knownIssue: String? { SchemaSuite.knownIssues["\(file): \(group)"] }

    /// Compiles and validates; records an issue when the outcome differs from the suite's.
    func run() {
        do {
            let compiled = try JSONSchema(schema, defaultDraft: draft, retrieve: SchemaSuite.retrieve)
            let violations = compiled.validate(data)
            #expect(violations.isEmpty == valid, """
                \(testDescription): expected \(valid ? "valid" : "invalid")
                  schema: \(schema)
                  data: \(data)
                  violations: \(violations.map(\.description))
                """)
        } catch {
            Issue.record("\(testDescription): schema rejected: \(error)\n  schema: \(schema)")
        }
    }
}

@Suite("JSON Schema Test Suite")
struct JSONSchemaSuiteTests {
    static var corpusAvailable: Bool {
        FileManager.default.fileExists(atPath: SchemaSuite.directory.path) || ComplianceSuite.isRunningInCI
    }

    @Test(.enabled(if: corpusAvailable))
    func corpusIsPresent() throws {
        #expect(try SchemaSuite.draft2020_12.get().count > 1000)
        #expect(try SchemaSuite.draft7.get().count > 800)
    }

    @Test("draft 2020-12", .enabled(if: corpusAvailable), arguments: (try? SchemaSuite.draft2020_12.get()) ?? [])
    func draft2020_12(_ testCase: SchemaSuiteCase) {
        Self.check(testCase)
    }

    @Test("draft-07", .enabled(if: corpusAvailable), arguments: (try? SchemaSuite.draft7.get()) ?? [])
    func draft7(_ testCase: SchemaSuiteCase) {
        Self.check(testCase)
    }

    /// Every schema of the suite compiles, so the built-in metaschema of its draft must accept it.
    @Test("suite schemas are valid against the built-in metaschema", .enabled(if: corpusAvailable),
          arguments: [JSONSchema.Draft.draft2020_12, .draft7])
    func schemasPassTheMetaschema(_ draft: JSONSchema.Draft) throws {
        let cases = try (draft == .draft7 ? SchemaSuite.draft7 : SchemaSuite.draft2020_12).get()
        let uri: JSONValue = draft == .draft7 ? "http://json-schema.org/draft-07/schema#" : "https://json-schema.org/draft/2020-12/schema"
        let metaschema = try JSONSchema(["$ref": uri])
        var seen: Set<JSONValue> = []
        for testCase in cases where seen.insert(testCase.schema).inserted {
            let violations = metaschema.validate(testCase.schema)
            #expect(violations.isEmpty, "\(testCase.file): \(testCase.group): \(violations.map(\.description))")
        }
    }

    static func check(_ testCase: SchemaSuiteCase) {
        if let reason = testCase.knownIssue {
            withKnownIssue(Comment(rawValue: reason)) { testCase.run() }
        } else {
            testCase.run()
        }
    }
}
