@testable import CourierReports
import CourierJSON
import Testing

/// Cutting a JSON report into its envelope and its workflows, for a merge that parses one
/// workflow at a time; anything unexpected is left to the whole-report parser.
@Suite struct ReportSlicesTests {
    @Test func theWorkflowsAreCutOutAndTheEnvelopeKeepsEverythingElse() throws {
        let text = #"{"formatVersion": 1, "run": {"a": [1, {"x": "]"}], "workflows": [ {"file": "a.yaml", "s": "\"]"} , {"file": "b"} ], "z": null}, "t": "{"}"#
        let bytes = Array(text.utf8)
        let slices = try #require(ReportSlices(bytes))
        #expect(slices.workflows.map { String(decoding: bytes[$0], as: UTF8.self) } == [#"{"file": "a.yaml", "s": "\"]"}"#, #"{"file": "b"}"#])
        let envelope = try JSONValue.parse(slices.envelope)
        #expect(envelope["run"]?["workflows"] == .array([]))
        #expect(envelope["run"]?["z"] == .null)
        #expect(envelope["t"] == .string("{"))
    }

    @Test func anEmptyListOfWorkflowsHasNoSlices() throws {
        let slices = try #require(ReportSlices(Array(#"{"run":{"workflows":[]}}"#.utf8)))
        #expect(slices.workflows.isEmpty)
    }

    @Test(arguments: [
        #"[1, 2]"#,                                                    // not an object
        #"{"run": {"other": []}}"#,                                    // no run.workflows
        #"{"run": {"workflows": [1] "x": 2}}"#,                        // a missing comma
        #"{"run": {"workflows": [1, 2}}"#,                             // unclosed
        #"{"run": {"workflows": [1]}, "run": {"workflows": [2]}}"#,   // a key twice
        #"{"run": {"workflows": [1]}} trailing"#,                      // text after the report
        #"{"run": {"workflows": ["unterminated]}}"#,
    ])
    func anythingUnexpectedIsLeftToTheWholeReportParser(text: String) {
        #expect(ReportSlices(Array(text.utf8)) == nil)
    }
}
