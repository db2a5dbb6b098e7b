import CourierReports
import CourierResults
import Testing

/// ``JSONMerge`` on reports built in memory: what the integration test's two clean
/// halves cannot show (an interrupted input, inputs given out of time order).
@Suite struct JSONMergeTests {
    private static func input(_ path: String, _ run: RunResult) -> JUnitMerge.Input {
        JUnitMerge.Input(path: path, bytes: Array(JSONReport.render(run).utf8))
    }

    @Test("an interrupted input makes the merge interrupted and not passed; startedAt is the earliest, durations are summed")
    func interruptedAndEarliest() throws {
        let later = RunResult(workflows: [WorkflowResult(file: "a.yaml", name: "a")],
                              startedAt: Timestamp(microsecondsSince1970: 2_000_000), durationMicroseconds: 300,
                              interruption: Interruption(signal: 15, signalName: "SIGTERM"))
        let earlier = RunResult(workflows: [WorkflowResult(file: "b.yaml", name: "b")],
                                startedAt: Timestamp(microsecondsSince1970: 1_000_000), durationMicroseconds: 40)
        guard case .merged(let text) = JSONMerge.merge([Self.input("later.json", later), Self.input("earlier.json", earlier)]) else {
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

    @Test("the merge records the slices it merged (an empty one and an earlier merge included), in input order, and is no slice itself")
    func recordsShards() throws {
        let first = RunResult(workflows: [WorkflowResult(file: "a.yaml", name: "a")], durationMicroseconds: 1,
                              shard: RunShard(index: 1, total: 3))
        let empty = RunResult(workflows: [], durationMicroseconds: 0, shard: RunShard(index: 3, total: 3))
        let unsharded = RunResult(workflows: [WorkflowResult(file: "b.yaml", name: "b")], durationMicroseconds: 1)
        guard case .merged(let once) = JSONMerge.merge([Self.input("1.json", first), Self.input("3.json", empty),
                                                         Self.input("other.json", unsharded)]) else {
            Issue.record("the merge failed")
            return
        }
        let merged = try JSONReport.decode(once)
        #expect(merged.run.mergedShards == [RunShard(index: 1, total: 3), RunShard(index: 3, total: 3)])
        #expect(merged.run.shard == nil)
        #expect(merged.summary.workflows == 2)

        let second = RunResult(workflows: [WorkflowResult(file: "c.yaml", name: "c")], durationMicroseconds: 1,
                               shard: RunShard(index: 2, total: 3))
        guard case .merged(let twice) = JSONMerge.merge([JUnitMerge.Input(path: "m.json", bytes: Array(once.utf8)),
                                                          Self.input("2.json", second)]) else {
            Issue.record("merging a merge failed")
            return
        }
        #expect(try JSONReport.decode(twice).run.mergedShards
                == [RunShard(index: 1, total: 3), RunShard(index: 3, total: 3), RunShard(index: 2, total: 3)])

        // Reports of runs that were no slice record none: the key stays absent.
        guard case .merged(let plain) = JSONMerge.merge([Self.input("other.json", unsharded)]) else {
            Issue.record("the merge failed")
            return
        }
        #expect(!plain.contains("mergedShards") && !plain.contains("\"shard\""))
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
