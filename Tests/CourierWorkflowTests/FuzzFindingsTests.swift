import CourierDiagnostics
@testable import CourierWorkflow
import Foundation
import Testing

/// Inputs that crashed or hung the fuzz targets (`make fuzz`, Fuzz/Targets), fed through the
/// same entry points. Each names its finding.
@Suite("Fuzz findings: workflow and template")
struct FuzzFindingsTests {
    /// Finding template-1 (target `template`, Fixtures/fuzz/template-1-nested-parentheses.txt, as
    /// libFuzzer saved it: 1,520 bytes, 1,500 `(` in one unterminated expression).
    /// AddressSanitizer: stack-overflow in ExpressionParser.parseAnd (ExpressionParser.swift:69),
    /// recursing parseOr → parseAnd → parseNot → parseCompare → parseFiltered → parsePostfix →
    /// parsePrimary → parseOr per parenthesis. Expected once nesting is limited: a diagnostic.
    @Test
    func deeplyParenthesizedExpressionIsRejected() throws {
        let file = fixturesDirectory.appendingPathComponent("fuzz/template-1-nested-parentheses.txt")
        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        var diagnostics: [Diagnostic] = []
        let positions = TextPositions(base: SourceLocation(file: "fuzz", line: 1, column: 1), exact: true)
        _ = TemplateParser.parse(text, positions: positions, range: positions.range(0, text.unicodeScalars.count),
                                 diagnostics: &diagnostics)
        #expect(diagnostics.contains { $0.severity == .error })
    }

    /// Finding template-1 inside a workflow, through the loader and decoder the CLI uses (2,000
    /// balanced parentheses this time, so only the depth can make it an error).
    @Test
    func deeplyParenthesizedTemplateInAWorkflowIsAnError() {
        let template = "{{ " + String(repeating: "(", count: 2_000) + "a" + String(repeating: ")", count: 2_000) + " }}"
        let yaml = "steps:\n  - request: { url: '\(template)' }\n"
        let result = decodeWorkflow(text: yaml, path: "fuzz.yaml", sources: SourceStore(), options: LoadOptions(resolveFiles: false))
        guard case .failure(let list) = result else {
            Issue.record("a 2,000-deep template expression was accepted")
            return
        }
        #expect(list.diagnostics.contains { $0.severity == .error })
    }
}
