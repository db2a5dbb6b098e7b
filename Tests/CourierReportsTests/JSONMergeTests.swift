import CourierJSON
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

    @Test("the merge records the slices it merged (an empty one and an earlier merge included), in input order, and is no slice itself")
    func recordsShards() throws {
        let first = RunResult(workflows: [WorkflowResult(file: "a.yaml", name: "a")], durationMicroseconds: 1,
                              shard: RunShard(index: 1, total: 3))
        let empty = RunResult(workflows: [], durationMicroseconds: 0, shard: RunShard(index: 3, total: 3))
        let unsharded = RunResult(workflows: [WorkflowResult(file: "b.yaml", name: "b")], durationMicroseconds: 1)
        guard case .merged(let once) = JSONMerge.merge([try Self.input("1.json", first), try Self.input("3.json", empty),
                                                         try Self.input("other.json", unsharded)]) else {
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
                                                          try Self.input("2.json", second)]) else {
            Issue.record("merging a merge failed")
            return
        }
        #expect(try JSONReport.decode(twice).run.mergedShards
                == [RunShard(index: 1, total: 3), RunShard(index: 3, total: 3), RunShard(index: 2, total: 3)])

        // Reports of runs that were no slice record none: the key stays absent.
        guard case .merged(let plain) = JSONMerge.merge([try Self.input("other.json", unsharded)]) else {
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

    /// Numbers no `Double` or `Decimal` holds, as a server may send them.
    static let serverNumbers = ["1e400", "-1e400", "1e-400", "1234567890123456789012345678901234567890", "0.1000000000000000000000000000000000000001"]

    @Test("a server's numbers keep their text through the report and a merge (JSONDecoder failed on 1e400 and rounded the rest)")
    func numbersKeepTheirText() throws {
        let values = Self.serverNumbers.map { JSONValue.number(JSONNumber(text: $0)!) }
        let step = StepResult(name: "numbers", phase: .steps, outcome: .passed,
                              captures: [CapturedValue(name: "n", value: .array(values), secret: false)])
        let run = RunResult(workflows: [WorkflowResult(file: "a.yaml", name: "a", steps: [step])], durationMicroseconds: 1)
        let other = RunResult(workflows: [WorkflowResult(file: "b.yaml", name: "b")], durationMicroseconds: 2)
        let written = try JSONReport.render(run)
        for number in Self.serverNumbers { #expect(written.contains(number), "\(number) in\n\(written)") }
        guard case .merged(let text) = JSONMerge.merge([try Self.input("a.json", run), try Self.input("b.json", other)]) else {
            Issue.record("the merge failed")
            return
        }
        let merged = try JSONReport.decode(text)
        #expect(merged.run.workflows.first?.steps.first?.captures.first?.value == .array(values))
        for number in Self.serverNumbers { #expect(text.contains(number), "\(number) in\n\(text)") }
    }

    @Test("durations whose sum does not fit are an error naming the input (9e18 + 9e18 trapped)")
    func durationSumOverflows() throws {
        let a = RunResult(workflows: [WorkflowResult(file: "a.yaml", name: "a")], durationMicroseconds: 9_000_000_000_000_000_000)
        let b = RunResult(workflows: [WorkflowResult(file: "b.yaml", name: "b")], durationMicroseconds: 9_000_000_000_000_000_000)
        guard case .invalid(let problems) = JSONMerge.merge([try Self.input("a.json", a), try Self.input("b.json", b)]) else {
            Issue.record("an overflowing sum merged")
            return
        }
        #expect(problems.map(\.file) == ["b.json"], "\(problems)")
        #expect(problems.first?.message.contains("cannot be written") == true, "\(problems)")
    }

    @Test("the merge writes the bytes --json writes for one run holding every input's workflows: a workflow at a time, counts summed, secret captures hidden")
    func writesAsOneRun() throws {
        let failing = StepResult(name: "check", phase: .steps, outcome: .failed([]),
                                 captures: [CapturedValue(name: "pin", value: .number(JSONNumber(text: "987654")!), secret: true)])
        let passing = StepResult(name: "get", phase: .steps, outcome: .passed)
        let a = WorkflowResult(file: "a.yaml", name: "a", steps: [passing, failing])
        let b = WorkflowResult(file: "b.yaml", name: "b", steps: [passing])
        let c = WorkflowResult(file: "c.yaml", name: "c")
        let first = RunResult(workflows: [a, b], startedAt: Timestamp(microsecondsSince1970: 5), durationMicroseconds: 7)
        let empty = RunResult(workflows: [], startedAt: Timestamp(microsecondsSince1970: 9), durationMicroseconds: 1)
        let last = RunResult(workflows: [c], startedAt: Timestamp(microsecondsSince1970: 6), durationMicroseconds: 2)
        guard case .merged(let text) = JSONMerge.merge([try Self.input("1.json", first), try Self.input("2.json", empty),
                                                         try Self.input("3.json", last)]) else {
            Issue.record("the merge failed")
            return
        }
        let whole = RunResult(workflows: [a, b, c], startedAt: Timestamp(microsecondsSince1970: 5), durationMicroseconds: 10)
        #expect(text == (try JSONReport.render(whole)))
        #expect(!text.contains("987654"))
        guard case .merged(let none) = JSONMerge.merge([try Self.input("2.json", empty)]) else {
            Issue.record("the merge of an empty run failed")
            return
        }
        #expect(none == (try JSONReport.render(empty)))
    }
}
