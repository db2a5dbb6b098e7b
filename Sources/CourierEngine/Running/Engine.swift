import CourierDiagnostics
import CourierHTTP
import CourierResults
import CourierWorkflow

/// Runs workflows and reports what happened as events and result values.
///
/// The engine never prints: the command line turns events into console lines
/// and results into reports.
package struct Engine: Sendable {
    package var transport: any HTTPTransport
    package var settings: RunSettings
    package var functions: BuiltinFunctions
    package var onEvent: @Sendable (RunEvent) -> Void
    /// Where files included with a templated path are read at run time.
    package var sources: SourceStore
    /// The interruption reason, the teardown deadline and the snapshot of what finished.
    package var control: RunControl

    package init(transport: any HTTPTransport, settings: RunSettings, functions: BuiltinFunctions = BuiltinFunctions(),
                 sources: SourceStore = SourceStore(), control: RunControl = RunControl(),
                 onEvent: @escaping @Sendable (RunEvent) -> Void = { _ in }) {
        self.transport = transport
        self.settings = settings
        self.functions = functions
        self.sources = sources
        self.control = control
        self.onEvent = onEvent
    }

    /// Runs the workflows one after the other. Cancelling the calling task
    /// aborts the current request and skips the remaining steps; teardowns
    /// still run (bounded by `control`'s deadline once `control.interrupt` was called).
    package func run(_ workflows: [Workflow]) async -> RunResult {
        let clock = RunClock()
        control.runStarted(at: clock.startedAt)
        var results: [WorkflowResult] = []
        for workflow in workflows {
            if Task.isCancelled { break }
            let runner = WorkflowRunner(workflow: workflow, engine: self, clock: clock)
            let result = await runner.run()
            results.append(result)
            if settings.failFast && !result.passed { break }
        }
        let interruption = control.interruption ?? (Task.isCancelled ? .cancelled : nil)
        return RunResult(workflows: results, startedAt: clock.startedAt, durationMicroseconds: clock.elapsedMicroseconds(),
                         interruption: interruption)
    }
}

/// Microseconds since the start of the run, for durations and attempt start times.
package struct RunClock: Sendable {
    private let start = ContinuousClock.now
    /// The wall-clock time at `start`: results carry wall-clock start times.
    package let startedAt = Timestamp.now()

    package init() {}

    /// The wall-clock time `elapsed` microseconds after the start of the run.
    package func timestamp(at elapsed: Int) -> Timestamp { startedAt.adding(microseconds: elapsed) }

    package func elapsedMicroseconds(since: Int = 0) -> Int {
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        return Int(seconds) * 1_000_000 + Int(attoseconds / 1_000_000_000_000) - since
    }
}
