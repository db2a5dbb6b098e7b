import CourierDiagnostics
@testable import CourierWorkflow
import Testing

/// `close_to`'s operand is checked when the file loads, each problem at its file:line:col.
@Suite struct CloseToDecodingTests {
    private func problems(_ predicate: String) -> [String] {
        let yaml = "steps:\n  - request: { url: http://h/ }\n    expect:\n      json:\n        $.a: \(predicate)\n"
        switch decodeWorkflow(text: yaml, path: "t.yaml", sources: SourceStore()) {
        case .success: return []
        case .failure(let list): return list.diagnostics.map(\.description)
        }
    }

    @Test func aWellFormedOperandDecodes() {
        #expect(problems("{ close_to: { value: 0.3, within: 1e-9 } }") == [])
        #expect(problems("{ close_to: { value: -2, within: 0 } }") == [])
        #expect(problems("{ close_to: { value: \"{{ x }}\", within: \"{{ y }}\" } }") == [])
    }

    @Test(arguments: [
        ("{ close_to: { value: 0.3 } }", "t.yaml:5:26: error: 'close_to' needs 'within' (the largest distance allowed, at least 0)"),
        ("{ close_to: { within: 1 } }", "t.yaml:5:26: error: 'close_to' needs 'value' (the number to be close to)"),
        ("{ close_to: { value: 0.3, within: -1 } }", "t.yaml:5:48: error: 'within' must be at least 0, found -1"),
        ("{ close_to: { value: abc, within: 1 } }", "t.yaml:5:35: error: expected a number for 'value', found a string"),
        ("{ close_to: { value: 1, within: [1] } }", "t.yaml:5:46: error: expected a number for 'within', found an array"),
        ("{ close_to: { value: 1, within: 1, withn: 2 } }", "t.yaml:5:49: error: unknown key 'withn' in 'close_to'; did you mean 'within'?"),
        ("{ close_to: 0.3 }", "t.yaml:5:26: error: expected a mapping for 'close_to', found a number"),
        ("{ clse_to: { value: 1, within: 1 } }", "t.yaml:5:16: error: unknown predicate 'clse_to'; did you mean 'close_to'?"),
    ])
    func aBadOperandIsALoadError(predicate: String, message: String) {
        #expect(problems(predicate) == [message])
    }

    /// A list never is one number: the usual warning for a non-singular query.
    @Test func aNonSingularQueryIsWarned() throws {
        let yaml = "steps:\n  - request: { url: http://h/ }\n    expect:\n      json:\n        $.a[*]: { close_to: { value: 1, within: 1 } }\n"
        let workflow = try decodeWorkflow(text: yaml, path: "t.yaml", sources: SourceStore()).get()
        #expect(workflow.warnings.map(\.message).contains { $0.hasPrefix("'close_to' checks a single value") })
    }
}
