import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// A parsed JUnit report, for assertions on its test cases.
struct JUnitReport {
    struct Problem {
        var type: String?
        var message: String?
        var text: String
    }

    struct TestCase {
        var name: String
        var classname: String?
        var failure: Problem?
        var error: Problem?
        var skipped: Bool
        var skippedMessage: String?
        var systemOut: String?
        /// The `time` attribute: seconds Courier measured for the step.
        var seconds: Double?

        var passed: Bool { failure == nil && error == nil && !skipped }
    }

    struct Suite {
        var name: String
        var attributes: [String: String]
        var cases: [TestCase]
    }

    var suites: [Suite]
    /// The file as written, for "appears nowhere" checks.
    var text: String

    var cases: [TestCase] { suites.flatMap(\.cases) }

    func testCase(_ name: String) -> TestCase? { cases.first { $0.name == name } }

    func suite(_ name: String) -> Suite? { suites.first { $0.name == name } }

    /// Validates `file` against the Jenkins JUnit XSD (see `validateAgainstSchema`), then parses it.
    static func load(_ file: URL, sourceLocation: SourceLocation = #_sourceLocation) async throws -> JUnitReport {
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw HarnessError("no JUnit report at \(file.path)")
        }
        try await validateAgainstSchema(file, sourceLocation: sourceLocation)
        return try parse(file)
    }

    static func parse(_ file: URL) throws -> JUnitReport {
        let data = try Data(contentsOf: file)
        let document = try XMLDocument(data: data, options: [])
        guard let root = document.rootElement(), root.name == "testsuites" else {
            throw HarnessError("the JUnit report's root element is not <testsuites>")
        }
        var suites: [Suite] = []
        for suiteElement in root.elements(forName: "testsuite") {
            var attributes: [String: String] = [:]
            for attribute in suiteElement.attributes ?? [] {
                if let name = attribute.name { attributes[name] = attribute.stringValue ?? "" }
            }
            var cases: [TestCase] = []
            for caseElement in suiteElement.elements(forName: "testcase") {
                let skipped = caseElement.elements(forName: "skipped").first
                cases.append(TestCase(
                    name: caseElement.attribute(forName: "name")?.stringValue ?? "",
                    classname: caseElement.attribute(forName: "classname")?.stringValue,
                    failure: problem(caseElement.elements(forName: "failure").first),
                    error: problem(caseElement.elements(forName: "error").first),
                    skipped: skipped != nil,
                    skippedMessage: skipped?.attribute(forName: "message")?.stringValue,
                    systemOut: caseElement.elements(forName: "system-out").first?.stringValue,
                    seconds: caseElement.attribute(forName: "time")?.stringValue.flatMap(Double.init)
                ))
            }
            suites.append(Suite(name: attributes["name"] ?? "", attributes: attributes, cases: cases))
        }
        return JUnitReport(suites: suites, text: String(decoding: data, as: UTF8.self))
    }

    private static func problem(_ element: XMLElement?) -> Problem? {
        guard let element else { return nil }
        return Problem(type: element.attribute(forName: "type")?.stringValue,
                       message: element.attribute(forName: "message")?.stringValue,
                       text: element.stringValue ?? "")
    }

    /// Validates with Tests/Support/validate_junit.py (run once, in `--serve` mode, by
    /// `SchemaValidator.shared`) against `Paths.junitSchema` (fetched by Scripts/corpora.sh), using
    /// `COURIER_PYTHON` (default `.venv/bin/python3`). An invalid report is a test failure. A
    /// missing Python, `xmlschema` or schema is a failure on CI (`CI` set) and a known issue
    /// elsewhere (`make test` runs Scripts/venv.sh and Scripts/corpora.sh, which install them).
    static func validateAgainstSchema(_ file: URL, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        switch await SchemaValidator.shared.validate(file.path) {
        case .valid:
            return
        case .invalid(let reasons):
            let report = (try? String(contentsOf: file, encoding: .utf8)) ?? "(unreadable)"
            Issue.record("the JUnit report does not validate against junit-10.xsd:\n\(reasons)\n--- report ---\n\(report)",
                         sourceLocation: sourceLocation)
        case .unavailable(let why):
            let message = Comment(rawValue: "JUnit schema validation not run: \(why)")
            if Paths.onCI {
                Issue.record(message, sourceLocation: sourceLocation)
            } else {
                withKnownIssue("JUnit schema validation needs Scripts/venv.sh and Scripts/corpora.sh (fails when CI is set)") {
                    Issue.record(message, sourceLocation: sourceLocation)
                }
            }
        }
    }
}
