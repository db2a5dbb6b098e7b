@testable import CourierReports
import CourierDiagnostics
import CourierResults
import CourierSecrets
import Foundation
import Testing

/// Workflows running at once (`--jobs`) each print as one block: the oldest running one
/// live, the others whole, in the order they started, whatever order their events come in.
@Suite struct ConsoleBlocksTests {
    private func step(_ name: String) -> StepResult {
        StepResult(name: name, phase: .steps, outcome: .skipped(reason: .recorded("test")))
    }

    private func finished(_ file: String, _ steps: [String]) -> RunEvent {
        .workflowFinished(WorkflowResult(file: file, name: file, steps: steps.map(step)))
    }

    @Test("interleaved events from three workflows: blocks whole, in start order, the first one live")
    func blocksDoNotInterleave() {
        let console = MaskedReportingTests.CapturedConsole(secrets: SecretRegistry())
        let reporter = ConsoleReporter(options: ConsoleReporter.Options(), sources: SourceStore(), output: console.output)
        reporter.handle(.workflowStarted(file: "a.yaml", name: "a"))
        reporter.handle(.workflowStarted(file: "b.yaml", name: "b"))
        reporter.handle(.workflowStarted(file: "c.yaml", name: "c"))
        reporter.handle(.stepFinished(file: "c.yaml", step("c1")))
        reporter.handle(.stepFinished(file: "b.yaml", step("b1")))
        reporter.handle(.stepFinished(file: "a.yaml", step("a1")))
        // The live block's lines are out already; b and c wait.
        #expect(console.text == "a.yaml — a\n  SKIP  a1  (test)\n")
        reporter.handle(.warning(file: "c.yaml", message: "about c"))
        reporter.handle(finished("c.yaml", ["c1"]))
        reporter.handle(.stepFinished(file: "b.yaml", step("b2")))
        #expect(console.text == "a.yaml — a\n  SKIP  a1  (test)\n", "b and c must wait for a")
        reporter.handle(.stepFinished(file: "a.yaml", step("a2")))
        reporter.handle(finished("a.yaml", ["a1", "a2"]))
        // a done: b is printed so far and goes live; c waits for b.
        reporter.handle(.stepFinished(file: "b.yaml", step("b3")))
        reporter.handle(finished("b.yaml", ["b1", "b2", "b3"]))
        #expect(console.text == """
            a.yaml — a
              SKIP  a1  (test)
              SKIP  a2  (test)

            b.yaml — b
              SKIP  b1  (test)
              SKIP  b2  (test)
              SKIP  b3  (test)

            c.yaml — c
              SKIP  c1  (test)
            warning: about c

            """)
    }

    @Test("on a terminal a status line says what runs, erased before each write and before the summary")
    func statusLine() {
        let console = MaskedReportingTests.CapturedConsole(secrets: SecretRegistry())
        var options = ConsoleReporter.Options()
        options.statusLine = true
        let reporter = ConsoleReporter(options: options, sources: SourceStore(), output: console.output)
        reporter.handle(.workflowStarted(file: "a.yaml", name: ""))
        reporter.handle(.workflowStarted(file: "b.yaml", name: ""))
        reporter.handle(finished("b.yaml", []))
        reporter.handle(finished("a.yaml", []))
        reporter.writeSummary(RunResult(workflows: [], durationMicroseconds: 0))
        let erase = "\r\u{1B}[2K"
        #expect(console.text.hasPrefix("a.yaml\nrunning 1 (0 done): a.yaml" + erase + "running 2 (0 done): a.yaml, b.yaml" + erase
                                       + "running 1 (1 done): a.yaml" + erase + "\nb.yaml\n\n0 workflows"),
                "\(console.text.debugDescription)")
    }

    @Test("not on a terminal: no status line, no control characters")
    func noStatusLine() {
        let console = MaskedReportingTests.CapturedConsole(secrets: SecretRegistry())
        let reporter = ConsoleReporter(options: ConsoleReporter.Options(), sources: SourceStore(), output: console.output)
        reporter.handle(.workflowStarted(file: "a.yaml", name: ""))
        reporter.handle(.workflowStarted(file: "b.yaml", name: ""))
        reporter.handle(finished("a.yaml", []))
        reporter.handle(finished("b.yaml", []))
        #expect(console.text == "a.yaml\n\nb.yaml\n")
    }
}
