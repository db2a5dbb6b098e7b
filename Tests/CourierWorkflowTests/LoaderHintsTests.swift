import CourierDiagnostics
@testable import CourierWorkflow
import Testing

/// Errors that say how to fix them: byte order marks, and repeated warnings shown once.
@Suite struct LoaderHintsTests {
    @Test func aByteOrderMarkIsAcceptedAndColumnsOnLineOneStayRight() throws {
        let valid = decodeWorkflow(text: "\u{FEFF}name: x\nsteps:\n  - request: { url: \"http://h/\" }\n", path: "bom.yaml", sources: SourceStore())
        guard case .success(let workflow) = valid else {
            Issue.record("a file with a byte order mark did not load: \(valid)")
            return
        }
        #expect(workflow.name == "x")

        let sources = SourceStore()
        let invalid = decodeWorkflow(text: "\u{FEFF}nmae: x\nsteps:\n  - request: { url: \"http://h/\" }\n", path: "bom.yaml", sources: sources)
        guard case .failure(let list) = invalid else {
            Issue.record("'nmae' decoded")
            return
        }
        let rendered = DiagnosticRenderer(sources: sources, color: false).render(list.diagnostics)
        #expect(rendered == """
            bom.yaml:1:1: error: unknown key 'nmae' in workflow; did you mean 'name'?
                1 | nmae: x
                  | ^~~~

            """)
    }

    @Test func aByteOrderMarkOnlyAtTheStartIsDropped() {
        let file = SourceFile(path: "a.yaml", text: "\u{FEFF}a: 1\n")
        #expect(file.text == "a: 1\n")
        #expect(file.line(1) == "a: 1")
    }

    @Test func repeatedWarningsAreShownOnceWithACountAndTheFirstPlace() {
        func at(_ file: String, _ line: Int) -> SourceRange { SourceRange(at: SourceLocation(file: file, line: line, column: 21)) }
        let warnings = (1...26_748).map { Diagnostic.warning("variable 'base' is not defined", at: at("big.yaml", $0 + 2)) }
            + [.warning("variable 'base' is not defined", at: at("other.yaml", 4)),
               .error("unknown key 'x'", at: at("big.yaml", 1)), .error("unknown key 'x'", at: at("big.yaml", 2)),
               .warning("something else", at: at("big.yaml", 9))]
        let grouped = DiagnosticList.groupingWarnings(warnings)
        #expect(grouped.map(\.description) == [
            "big.yaml:3:21: warning: variable 'base' is not defined — 26,748 places, first at big.yaml:3:21",
            "other.yaml:4:21: warning: variable 'base' is not defined",
            // Errors are each fixed where they are: never grouped.
            "big.yaml:1:21: error: unknown key 'x'",
            "big.yaml:2:21: error: unknown key 'x'",
            "big.yaml:9:21: warning: something else",
        ])
    }

    @Test func theRendererGroupsWarningsToo() {
        let sources = SourceStore()
        sources.register(path: "w.yaml", text: "a: 1\nb: 2\nc: 3\n")
        let warnings = (1...3).map { Diagnostic.warning("same", at: SourceRange(at: SourceLocation(file: "w.yaml", line: $0, column: 1))) }
        let rendered = DiagnosticRenderer(sources: sources, color: false).render(warnings)
        #expect(rendered == """
            w.yaml:1:1: warning: same — 3 places, first at w.yaml:1:1
                1 | a: 1
                  | ^

            """)
    }

    @Test func groupedWarningsCountEveryPlaceBeforeTheLimitPerFile() {
        let warnings = (1...250).map { Diagnostic.warning("w", at: SourceRange(at: SourceLocation(file: "a.yaml", line: $0, column: 1))) }
        let shown = DiagnosticList(warnings).sortedAndLimited
        #expect(shown.map(\.message) == ["w — 250 places, first at a.yaml:1:1"])
    }
}
