import Foundation
import Testing

/// The RFC 9535 compliance suite once more, through the `courier query` command a user runs:
/// valid selectors print one of the acceptable nodelists, invalid ones exit 2 with a
/// diagnostic pointing into the query.
// Serialized: 703 processes at once would starve the servers other suites start.
@Suite("courier query: RFC 9535 compliance suite", .serialized)
struct QueryComplianceTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var selector: String
        /// The document, serialized as in the corpus.
        var document: String?
        /// Acceptable nodelists, serialized; empty for invalid selectors.
        var results: [String]
        var invalid: Bool
        var testDescription: String { name }
    }

    static let corpus = Paths.corpora.appendingPathComponent("jsonpath-cts/cts.json")

    static let cases: [Case] = {
        guard let data = FileManager.default.contents(atPath: corpus.path),
              let root = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? [String: Any],
              let tests = root["tests"] as? [[String: Any]] else { return [] }
        func serialize(_ value: Any) -> String {
            let data = (try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }
        return tests.map { test in
            var results: [String] = []
            if let result = test["result"] { results = [serialize(result)] }
            if let many = test["results"] as? [Any] { results = many.map(serialize) }
            return Case(name: test["name"] as? String ?? "?", selector: test["selector"] as? String ?? "",
                        document: test["document"].map(serialize), results: results,
                        invalid: test["invalid_selector"] as? Bool ?? false)
        }
    }()

    @Test func corpusIsPresent() {
        if Self.cases.isEmpty {
            if Paths.onCI {
                Issue.record("the JSONPath compliance suite is missing at \(Self.corpus.path) (set COURIER_CORPORA)")
            } else {
                withKnownIssue("the JSONPath compliance suite is missing at \(Self.corpus.path)") {
                    throw HarnessError("corpus missing")
                }
            }
        } else {
            #expect(Self.cases.count == 703)
        }
    }

    @Test(arguments: cases)
    func selector(_ test: Case) async throws {
        let workspace = try Workspace()
        _ = try workspace.write("document.json", test.document ?? "null")
        let result = try await Courier.run(["query", "--compact", "--", test.selector, "document.json"], in: workspace.url)
        if test.invalid {
            #expect(result.status == 2, "\(test.selector) must be rejected\n\(result.context)")
            #expect(result.stderr.hasPrefix("<query>:1:"), "\(result.context)")
            return
        }
        #expect(result.status == 0, "\(test.selector)\n\(result.context)")
        // Both sides re-serialized the same way (sorted keys), so `true` and `1` stay apart.
        let printed = Self.canonical(result.stdout)
        #expect(printed != nil && test.results.contains { Self.canonical($0) == printed },
                "\(test.selector) printed \(result.stdout) but expected one of \(test.results)")
    }

    static func canonical(_ json: String) -> String? {
        guard let value = try? JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed]),
              let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys]) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
