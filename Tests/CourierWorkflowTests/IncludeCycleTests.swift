import CourierDiagnostics
@testable import CourierWorkflow
import Testing

/// `IncludeCycle`: the one cycle check, at load and at run time.
@Suite struct IncludeCycleTests {
    @Test func aFileAlreadyInTheChainIsACycleFromItsFirstAppearance() {
        #expect(IncludeCycle.message(including: "b.yaml", from: ["main.yaml", "b.yaml", "c.yaml"])
                == "include cycle: b.yaml → c.yaml → b.yaml")
        #expect(IncludeCycle.message(including: "main.yaml", from: ["main.yaml"]) == "include cycle: main.yaml → main.yaml")
    }

    @Test func aNewFileIsNoCycle() {
        #expect(IncludeCycle.message(including: "d.yaml", from: ["main.yaml", "b.yaml"]) == nil)
        #expect(IncludeCycle.message(including: "main.yaml", from: []) == nil)
    }

    /// The run-time check (templated includes) and the load-time one say the same.
    @Test func templatedIncludesUseTheSameCheck() {
        let sources = SourceStore()
        sources.register(path: "flows/a.yaml", text: "- include: b.yaml\n")
        sources.register(path: "flows/b.yaml", text: "- request: { url: http://h/x }\n")
        guard case .failure(let list) = loadIncludedFile(path: "flows/./a.yaml", sources: sources, chain: ["flows/main.yaml", "flows/a.yaml"]) else {
            Issue.record("a cycle must not load")
            return
        }
        #expect(list.diagnostics.first?.message == "include cycle: flows/a.yaml → flows/a.yaml")
    }
}
