import CourierDiagnostics
import CourierJSON
@testable import CourierWorkflow
import Testing

/// The loader's and the template parser's limits, exactly at them and one past.
@Suite struct WorkflowLimitsTests {
    static func nested(_ depth: Int) -> String {
        "a: " + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1) + "\n"
    }

    @Test func yamlNestingAtTheLimitLoads() {
        // The root mapping is level 1, so 511 brackets make 512 levels.
        let out = loadYAML(Self.nested(NestingLimit.maxDepth))
        #expect(out.diagnostics.isEmpty)
        #expect(out.root != nil)
    }

    @Test func yamlNestingOnePastTheLimitFails() {
        let out = loadYAML(Self.nested(NestingLimit.maxDepth + 1))
        #expect(out.root == nil)
        #expect(out.diagnostics.map(\.description) == [
            "t.yaml:1:515: error: nested too deeply, limit 512: this collection is 513 levels deep; flatten the document or move the data into a file",
        ])
    }

    @Test func aliasBytesAreBounded() {
        var loader = YAMLLoader()
        loader.maxAliasBytes = 1000
        let ok = loader.load("a: &a \(String(repeating: "x", count: 100))\nb: [\(Array(repeating: "*a", count: 10).joined(separator: ", "))]\n", file: "t.yaml")
        #expect(ok.diagnostics.isEmpty)
        let tooMuch = loader.load("a: &a \(String(repeating: "x", count: 100))\nb: [\(Array(repeating: "*a", count: 11).joined(separator: ", "))]\n", file: "t.yaml")
        #expect(tooMuch.root == nil)
        #expect(tooMuch.diagnostics.first?.description.hasPrefix("t.yaml:2:45: error: aliases expand to too much text (more than 1000 bytes") == true)
    }

    @Test func readerErrorsHaveLineAndColumn() {
        let out = loadYAML("a: 1\nb: 2\nc: \"é\u{01}\"\n")
        #expect(out.diagnostics.first?.range?.start == SourceLocation(file: "t.yaml", line: 3, column: 6))
        let invalidUTF8 = YAMLLoader().load(String(decoding: [0x61, 0x3A, 0x20, 0x0A, 0x62, 0x3A, 0x20, 0x22, 0xFF, 0x22], as: UTF8.self), file: "t.yaml")
        // String(decoding:) repairs bytes, so this only checks a clean load or a positioned error.
        #expect(invalidUTF8.diagnostics.allSatisfy { $0.range?.start.line != 1 || $0.range == nil })
    }

    static func parse(_ expression: String) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        _ = TemplateParser.parse("{{ \(expression) }}", positions: TextPositions(base: SourceLocation(file: "t.yaml", line: 1, column: 1), exact: true),
                                 range: SourceRange(at: SourceLocation(file: "t.yaml", line: 1, column: 1)), diagnostics: &diagnostics)
        return diagnostics
    }

    @Test func expressionTreeDepthLimit() {
        #expect(Self.parse("x" + String(repeating: " | upper", count: 511)).isEmpty)
        #expect(Self.parse("x" + String(repeating: " | upper", count: 512)).first?.message.contains("nested too deeply, limit 512") == true)
        #expect(Self.parse("x" + String(repeating: ".a", count: 511)).isEmpty)
        #expect(Self.parse("x" + String(repeating: ".a", count: 512)).count == 1)
        #expect(Self.parse("x" + String(repeating: " or x", count: 511)).isEmpty)
        #expect(Self.parse("x" + String(repeating: " or x", count: 512)).count == 1)
    }

    @Test func expressionNestingLimit() {
        let limit = ExpressionParser.maxNesting
        #expect(Self.parse(String(repeating: "(", count: limit) + "x" + String(repeating: ")", count: limit)).isEmpty)
        let past = Self.parse(String(repeating: "(", count: limit + 1) + "x" + String(repeating: ")", count: limit + 1))
        #expect(past.first?.range?.start.column == 4 + limit)
        #expect(Self.parse(String(repeating: "not ", count: limit) + "x").isEmpty)
        #expect(Self.parse(String(repeating: "not ", count: limit + 1) + "x").count == 1)
    }

    @Test(arguments: ["0", "0s", "0.5ms", "0.0009s"])
    func subMillisecondDurationsAreBelowTheMinimum(text: String) throws {
        let duration = try #require(Duration.parse(text))
        #expect(duration < Duration.shortestAllowed)
    }

    @Test func anAliasedTemplateIsParsedOnce() throws {
        let aliases = Array(repeating: "*a", count: 1_000).joined(separator: ", ")
        let text = "steps:\n  - request:\n      url: http://h/\n      json:\n        a: &a \"{{ x | nope }}\"\n        b: [\(aliases)]\n"
        let result = decodeWorkflow(text: text, path: "t.yaml", sources: SourceStore())
        guard case .failure(let list) = result else {
            Issue.record("an unknown filter decoded")
            return
        }
        // One error at the anchored text, not one per alias.
        #expect(list.diagnostics.filter { $0.message.hasPrefix("unknown filter 'nope'") }.count == 1)
    }

    @Test func diagnosticsAreLimitedPerFile() {
        let many = (1...250).map { Diagnostic.error("e\($0)", at: SourceRange(at: SourceLocation(file: "a.yaml", line: $0, column: 1))) }
        let shown = DiagnosticList(many).sortedAndLimited
        #expect(shown.count == DiagnosticList.maxPerFile + 1)
        #expect(shown.last?.message == "and 150 more diagnostics in this file; only the first 100 are shown")
        #expect(shown.last?.range?.start.line == 101)
    }
}
