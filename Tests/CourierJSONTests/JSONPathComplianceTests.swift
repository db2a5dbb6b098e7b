import Foundation
import Testing
import CourierJSON

/// The RFC 9535 JSONPath Compliance Test Suite (`jsonpath-cts/cts.json` in the corpora folder).
///
/// The corpora folder is `$COURIER_CORPORA`, or `../shared/corpora` next to the package root.
/// Without the corpus the cases are skipped locally; with `CI` set its absence fails the run.
enum ComplianceSuite {
    static let corporaDirectory: URL = {
        if let configured = ProcessInfo.processInfo.environment["COURIER_CORPORA"], !configured.isEmpty {
            return URL(fileURLWithPath: configured)
        }
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // CourierJSONTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()
        return packageRoot.appendingPathComponent("../shared/corpora").standardizedFileURL
    }()

    static let file = corporaDirectory.appendingPathComponent("jsonpath-cts/cts.json")

    static var isRunningInCI: Bool { ProcessInfo.processInfo.environment["CI"] != nil }

    static let loaded: Result<[ComplianceCase], LoadError> = {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            return .failure(LoadError(message: "cannot read \(file.path)"))
        }
        do {
            guard let tests = try JSONValue.parse(data)["tests"]?.arrayValue else {
                return .failure(LoadError(message: "\(file.path) has no 'tests' array"))
            }
            return .success(tests.map(ComplianceCase.init))
        } catch {
            return .failure(LoadError(message: "\(file.path):\(error)"))
        }
    }()

    static var cases: [ComplianceCase] { (try? loaded.get()) ?? [] }

    struct LoadError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

struct ComplianceCase: Sendable, CustomTestStringConvertible {
    var name: String
    var selector: String
    var document: JSONValue
    /// Acceptable nodelists (values), one per allowed order.
    var results: [[JSONValue]]
    /// Acceptable normalized paths, parallel to `results`, when the case gives them.
    var resultPaths: [[String]]?
    var isInvalid: Bool

    init(_ json: JSONValue) {
        name = json["name"]?.stringValue ?? "?"
        selector = json["selector"]?.stringValue ?? ""
        document = json["document"] ?? .null
        isInvalid = json["invalid_selector"]?.boolValue ?? false
        if let single = json["result"]?.arrayValue {
            results = [single]
        } else {
            results = json["results"]?.arrayValue?.compactMap(\.arrayValue) ?? []
        }
        if let single = json["result_paths"]?.arrayValue {
            resultPaths = [single.compactMap(\.stringValue)]
        } else if let several = json["results_paths"]?.arrayValue {
            resultPaths = several.map { $0.arrayValue?.compactMap(\.stringValue) ?? [] }
        }
    }

    var testDescription: String { "\(name) — \(selector)" }
}

@Suite("JSONPath compliance (RFC 9535 CTS)")
struct JSONPathComplianceTests {
    @Test(.enabled(if: FileManager.default.fileExists(atPath: ComplianceSuite.file.path) || ComplianceSuite.isRunningInCI))
    func corpusIsPresentAndComplete() throws {
        let cases = try ComplianceSuite.loaded.get()
        #expect(cases.count == 703, "expected the 703 cases of the CTS snapshot")
    }

    @Test(arguments: ComplianceSuite.cases)
    func compliance(_ testCase: ComplianceCase) {
        let query: JSONPath
        do {
            query = try JSONPath(testCase.selector)
        } catch {
            if !testCase.isInvalid {
                Issue.record("\(testCase.name): valid selector \(testCase.selector) rejected: \(error)")
            }
            return
        }
        guard !testCase.isInvalid else {
            Issue.record("\(testCase.name): invalid selector \(testCase.selector) was accepted")
            return
        }
        let nodes = query.evaluate(testCase.document)
        let values = nodes.map(\.value)
        let paths = nodes.map(\.path)
        let matching = testCase.results.indices.filter { i in
            testCase.results[i] == values && (testCase.resultPaths.map { $0.indices.contains(i) ? $0[i] == paths : false } ?? true)
        }
        #expect(!matching.isEmpty, """
            \(testCase.name): \(testCase.selector)
              got:      \(JSONValue.array(values)) at \(paths)
              expected: \(testCase.results.map { JSONValue.array($0).serialized() }.joined(separator: " or ")) \
            \(testCase.resultPaths.map { "at \($0)" } ?? "")
            """)
    }
}
