import CourierReports
import CourierResults
import Testing

/// ``JSONMerge`` on reports built in memory: what the integration test's two clean
/// halves cannot show (an interrupted input, inputs given out of time order).
@Suite struct JSONMergeTests {
    private static func input(_ path: String, _ run: RunResult) throws -> JUnitMerge.Input {
        JUnitMerge.Input(path: path, bytes: Array(try JSONReport.render(run).utf8))
    }

    @Test("an interrupted input makes the merge interrupted and not passed; startedAt is the earliest, durations are summed")
    func interruptedAndEarliest() throws {
        let later = RunResult(workflows: [WorkflowResult(file: "a.yaml", name: "a")],
                              startedAt: Timestamp(microsecondsSince1970: 2_000_000), durationMicroseconds: 300,
                              interruption: Interruption(signal: 15, signalName: "SIGTERM"))
        let earlier = RunResult(workflows: [WorkflowResult(file: "b.yaml", name: "b")],
                                startedAt: Timestamp(microsecondsSince1970: 1_000_000), durationMicroseconds: 40)
        guard case .merged(let text) = JSONMerge.merge([try Self.input("later.json", later), try Self.input("earlier.json", earlier)]) else {
            Issue.record("the merge failed")
            return
        }
        let document = try JSONReport.decode(text)
        #expect(document.run.workflows.map(\.file) == ["a.yaml", "b.yaml"])
        #expect(document.run.startedAt == Timestamp(microsecondsSince1970: 1_000_000))
        #expect(document.run.durationMicroseconds == 340 && document.summary.durationMicroseconds == 340)
        #expect(document.run.interruption?.signalName == "SIGTERM")
        #expect(document.summary.interrupted && !document.summary.passed)
        #expect(document.summary.workflows == 2)
    }

    @Test("a report whose shape is not Courier's names the first bad key")
    func notAReport() {
        let bytes = Array(#"{"formatVersion": 1, "summary": {}, "run": {"workflows": 3}}"#.utf8)
        guard case .invalid(let problems) = JSONMerge.merge([JUnitMerge.Input(path: "odd.json", bytes: bytes)]) else {
            Issue.record("an odd report merged")
            return
        }
        #expect(problems.count == 1 && problems[0].file == "odd.json", "\(problems)")
        #expect(problems.first?.message.hasPrefix("not a Courier JSON report: ") == true, "\(problems)")
    }
}
