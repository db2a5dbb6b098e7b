import Foundation
import Testing

/// Secrets whose values are also markup (issue 13): JUnit's element and attribute names and
/// entities, HTML's tags, a CSS and a script word, and one character found in both. The JUnit
/// report still validates against junit-10.xsd, the HTML page has the same tags as with other
/// secret values, and no secret shows in a value of either.
@Suite(.testServer)
struct MarkupSecretReportTests {
    /// Declared secrets (4 characters or more) and captured ones (shorter: a warning, still masked).
    static let markup = (declared: ["testsuite", "failure", "message", "details", "script", "style", "quot", "sticky"],
                         captured: ["amp", "div", "<"])
    static let neutral = (declared: (1...8).map { "Zq8neutral\($0)" }, captured: ["Zq1", "Zq2", "Q"])

    static func workflow(declared: [String], captured: [String]) -> String {
        let secrets = declared.enumerated().map { "  s\($0.offset): \"\($0.element)\"" }.joined(separator: "\n")
        let query = captured.enumerated().map { "c\($0.offset): \"\($0.element)\"" }.joined(separator: ", ")
        let captures = captured.indices.map { "c\($0): { json: \"$.query.c\($0)[0]\", secret: true }" }.joined(separator: ", ")
        let all = declared.indices.map { "{{ s\($0) }}" } + captured.indices.map { "{{ c\($0) }}" }
        return """
            name: markup secrets
            secrets:
            \(secrets)
            steps:
              - name: capture the short ones
                request:
                  url: "{{ base_url }}/echo"
                  query: { \(query) }
                capture: { \(captures) }
              - name: fail with every secret
                request:
                  method: POST
                  url: "{{ base_url }}/echo"
                  headers: { X-Echo-Status: "500", X-All: "\(all.joined(separator: " "))" }
                  body: "\(all.joined(separator: " & "))"
                  content_type: text/plain
                expect: { status: 200, body: { contains: "[\(all.joined(separator: "|"))]" } }
            """
    }

    /// Tags in order with their attribute names (values are escaped: no raw `"` or `>` inside).
    static func tags(_ html: String) -> [String] {
        var tags: [String] = []
        var rest = html[...]
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            let inside = rest[rest.index(after: open)..<close]
            let pieces = inside.components(separatedBy: "\"")
            tags.append(pieces.enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: "\""))
            rest = rest[rest.index(after: close)...]
        }
        return tags
    }

    func run(declared: [String], captured: [String]) async throws -> (junit: JUnitReport, html: String, result: ProcessResult) {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("flow.yaml", Self.workflow(declared: declared, captured: captured))
        let result = try await Courier.run(files: ["flow.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml", "--html", "report.html"])
        #expect(result.status == 1, result.context)
        let junit = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        let html = try String(contentsOf: workspace.url.appendingPathComponent("report.html"), encoding: .utf8)
        return (junit, html, result)
    }

    @Test("secrets equal to markup: JUnit validates against junit-10.xsd, the HTML keeps its tags, no value shows a secret")
    func markupSecrets() async throws {
        let expected = try await run(declared: Self.neutral.declared, captured: Self.neutral.captured)
        let actual = try await run(declared: Self.markup.declared, captured: Self.markup.captured)
        #expect(actual.junit.cases.map(\.name) == expected.junit.cases.map(\.name))
        let failed = try #require(actual.junit.testCase("fail with every secret"))
        let values = [failed.failure?.message ?? "", failed.failure?.text ?? "", failed.systemOut ?? ""]
        #expect(values[2].contains("X-All: ***"), "\(values[2])")
        for secret in Self.markup.declared + Self.markup.captured where secret.count > 1 {
            for value in values { #expect(!value.contains(secret), "'\(secret)' shows in \(value)") }
        }
        #expect(!values[2].contains("<"), "the one-character secret '<' shows: \(values[2])")
        #expect(Self.tags(actual.html) == Self.tags(expected.html))
        #expect(actual.html.contains("<style>:root{"), "the style sheet was rewritten")
        #expect(actual.html.contains("<script>document.querySelector('nav')"), "the script was rewritten")
    }
}
