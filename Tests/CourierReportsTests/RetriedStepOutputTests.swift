@testable import CourierReports
import CourierDiagnostics
import CourierResults
import CourierSecrets
import Foundation
import Testing

/// A retried step in the console (each retry as it happens, the count on the step's line)
/// and in JUnit (every attempt in `<system-out>`, with its own duration and why it was retried).
@Suite struct RetriedStepOutputTests {
    /// 503 (Retry-After: 1), 503, then 200: the step passes after 2.4 s, waits included.
    static let step: StepResult = {
        let request = RequestRecord(method: "GET", url: "http://h/job")
        func attempt(_ status: Int, start: Int, duration: Int, retry: AttemptRetry?) -> Attempt {
            Attempt(startMicroseconds: start, durationMicroseconds: duration, request: request,
                    response: ResponseRecord(url: "http://h/job", status: status), retry: retry)
        }
        return StepResult(name: "wait for the job", phase: .steps, outcome: .passed, attempts: [
            attempt(503, start: 0, duration: 12_000, retry: AttemptRetry(reason: "503", wait: .seconds(1), note: "Retry-After")),
            attempt(503, start: 1_012_000, duration: 9_000, retry: AttemptRetry(reason: "503", wait: .milliseconds(1350))),
            attempt(200, start: 2_371_000, duration: 29_000, retry: nil),
        ], durationMicroseconds: 2_400_000)
    }()

    @Test("console: each retry as it happens, then `PASS  name  200  3 attempts  2.40 s`")
    func console() {
        let console = MaskedReportingTests.CapturedConsole(secrets: SecretRegistry())
        let reporter = ConsoleReporter(options: ConsoleReporter.Options(), sources: SourceStore(), output: console.output)
        reporter.handle(.workflowStarted(file: "w.yaml", name: "w"))
        for attempt in Self.step.attempts {
            if let retry = attempt.retry { reporter.handle(.attemptRetried(file: "w.yaml", step: Self.step.name, retry)) }
        }
        reporter.handle(.stepFinished(file: "w.yaml", Self.step))
        #expect(console.text == """
            w.yaml — w
              RETRY wait for the job  503, retrying in 1.0 s (Retry-After)
              RETRY wait for the job  503, retrying in 1.4 s
              PASS  wait for the job  200  3 attempts  2.40 s

            """)
    }

    @Test("-v: every attempt's transcript, each followed by why it was retried")
    func verbose() {
        let console = MaskedReportingTests.CapturedConsole(secrets: SecretRegistry())
        var options = ConsoleReporter.Options()
        options.verbose = true
        let reporter = ConsoleReporter(options: options, sources: SourceStore(), output: console.output)
        reporter.handle(.workflowStarted(file: "w.yaml", name: "w"))
        // Live: the transcripts come with the step's line, as the engine reports it.
        reporter.handle(.stepFinished(file: "w.yaml", Self.step))
        reporter.handle(.workflowFinished(WorkflowResult(file: "w.yaml", name: "w", steps: [Self.step])))
        let text = console.text
        #expect(text.contains("wait for the job — attempt 3"), "\(text)")
        #expect(text.contains("    < HTTP/1.1 503\n    <\n    \n    * 503, retrying in 1.0 s (Retry-After)\n"), "\(text)")
        #expect(text.contains("    * 503, retrying in 1.4 s\n"), "\(text)")
    }

    @Test("-v live: a retried attempt of a block not live yet (--jobs) waits for its block; a login's waits for the next event")
    func verboseLiveAttemptsRespectBlocksAndLogins() {
        let console = MaskedReportingTests.CapturedConsole(secrets: SecretRegistry())
        var options = ConsoleReporter.Options()
        options.verbose = true
        options.quiet = true
        let reporter = ConsoleReporter(options: options, sources: SourceStore(), output: console.output)
        let first = Self.step.attempts[0]
        reporter.handle(.workflowStarted(file: "a.yaml", name: "a"))
        reporter.handle(.workflowStarted(file: "b.yaml", name: "b"))
        // b.yaml is not the live block: kept.
        reporter.handle(.attemptFinished(file: "b.yaml", step: "in b", phase: .steps, number: 1, first))
        #expect(console.text.isEmpty, "\(console.text)")
        // A login's attempt waits until `apply` made its captures credentials.
        reporter.handle(.attemptFinished(file: "a.yaml", step: "auth › log in", phase: .auth, number: 1, first))
        #expect(console.text.isEmpty, "\(console.text)")
        // a.yaml is live: shown at once, with why it was retried (`-q` has no RETRY line).
        reporter.handle(.attemptFinished(file: "a.yaml", step: "in a", phase: .steps, number: 1, first))
        #expect(console.text == "\nin a — attempt 1\n    > GET http://h/job\n    \n    < HTTP/1.1 503\n    <\n    \n    * 503, retrying in 1.0 s (Retry-After)\n", "\(console.text)")
        reporter.handle(.workflowFinished(WorkflowResult(file: "a.yaml", name: "a", steps: [])))
        #expect(console.text.hasSuffix("\nin b — attempt 1\n    > GET http://h/job\n    \n    < HTTP/1.1 503\n    <\n    \n    * 503, retrying in 1.0 s (Retry-After)\n"), "\(console.text)")
    }

    @Test("JUnit: a passed retried step lists every attempt in <system-out>, no failure; its time is the wall clock")
    func junit() {
        let workflow = WorkflowResult(file: "w.yaml", name: "w", steps: [Self.step], durationMicroseconds: 2_400_000)
        let xml = JUnitReport.render(RunResult(workflows: [workflow], durationMicroseconds: 2_400_000), policy: SecretRegistry().policy)
        let start = xml.range(of: "    <testcase")?.lowerBound ?? xml.endIndex
        let end = xml.range(of: "</testcase>\n")?.upperBound ?? xml.endIndex
        #expect(String(xml[start..<end]) == """
                <testcase name="wait for the job" classname="w" time="2.400">
                  <system-out>--- attempt 1 of 3 (0.012 s)
            &gt; GET http://h/job

            &lt; HTTP/1.1 503
            &lt;

            * 503, retrying in 1.0 s (Retry-After)

            --- attempt 2 of 3 (0.009 s)
            &gt; GET http://h/job

            &lt; HTTP/1.1 503
            &lt;

            * 503, retrying in 1.4 s

            --- attempt 3 of 3 (0.029 s)
            &gt; GET http://h/job

            &lt; HTTP/1.1 200
            &lt;
            </system-out>
                </testcase>

            """)
        #expect(xml.contains("failures=\"0\""))
    }
}
