import CourierDiagnostics
import CourierHTTP
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

    package init(transport: any HTTPTransport, settings: RunSettings, functions: BuiltinFunctions = BuiltinFunctions(),
                 sources: SourceStore = SourceStore(), onEvent: @escaping @Sendable (RunEvent) -> Void = { _ in }) {
        self.transport = transport
        self.settings = settings
        self.functions = functions
        self.sources = sources
        self.onEvent = onEvent
    }

    /// Runs the workflows one after the other. Cancelling the calling task
    /// stops after the current step; teardowns still run.
    package func run(_ workflows: [Workflow]) async -> RunResult {
        let clock = RunClock()
        var results: [WorkflowResult] = []
        for workflow in workflows {
            if Task.isCancelled { break }
            let runner = WorkflowRunner(workflow: workflow, engine: self, clock: clock)
            let result = await runner.run()
            results.append(result)
            if settings.failFast && !result.passed { break }
        }
        return RunResult(workflows: results, durationMicroseconds: clock.elapsedMicroseconds(), interrupted: Task.isCancelled)
    }
}

/// Microseconds since the start of the run, for durations and attempt start times.
package struct RunClock: Sendable {
    private let start = ContinuousClock.now

    package init() {}

    package func elapsedMicroseconds(since: Int = 0) -> Int {
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        return Int(seconds) * 1_000_000 + Int(attoseconds / 1_000_000_000_000) - since
    }
}
