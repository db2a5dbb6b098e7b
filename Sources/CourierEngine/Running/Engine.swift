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
    /// Durations and start times are read here.
    package var clock: any EngineClock
    /// Every wait (`delay:` and retry waits) sleeps here, except in a dry run, which waits for nothing (``RunPlan``).
    package var sleeper: any Sleeper
    /// Where each concurrently running workflow's code runs: job slot `k` (0 ..< `settings.jobs`)
    /// prefers `executors[k % count]`. Empty: the calling task's preference is inherited.
    /// The command line gives one ``EngineExecutor`` per slot, so workflows run at once never
    /// share a thread (nor the one driving transfers).
    package var executors: [any TaskExecutor] = []
    /// Set when the engine runs on the thread that drives transfers (one workflow at a
    /// time): checking a response body larger than ``heavyBodyBytes`` hops here, so a
    /// large JSON parse, schema or regex never holds that thread.
    package var heavyWorkExecutor: (any TaskExecutor)?
    /// Bodies above this size are checked on ``heavyWorkExecutor``: small ones cost less to
    /// check than the two thread hops would.
    package static let heavyBodyBytes = 64 * 1024

    package init(transport: any HTTPTransport, settings: RunSettings, functions: BuiltinFunctions = BuiltinFunctions(),
                 sources: SourceStore = SourceStore(), control: RunControl = RunControl(),
                 clock: any EngineClock = SystemClock(), sleeper: any Sleeper = TaskSleeper(),
                 onEvent: @escaping @Sendable (RunEvent) -> Void = { _ in }) {
        self.transport = transport
        self.settings = settings
        self.functions = functions
        self.sources = sources
        self.control = control
        self.clock = clock
        self.sleeper = sleeper
        self.onEvent = onEvent
    }

    /// Runs the workflows, up to `settings.jobs` at once on the one transport, each with
    /// its own scope and cookie jar, its steps in order. Workflows start in the order
    /// given; results come back in that order whatever the finishing order.
    ///
    /// Cancelling the calling task aborts the requests in flight and skips the remaining
    /// steps; teardowns still run (bounded by `control`'s deadline once `control.interrupt`
    /// was called), and workflows not started yet are left out. Under `--fail-fast`, a
    /// failed workflow cancels the running ones the same way (their steps say
    /// `cancelled: --fail-fast`) and the ones not started are reported skipped
    /// (`not run: --fail-fast`); the run is not `interrupted` then.
    package func run(_ workflows: [Workflow]) async -> RunResult {
        let clock = RunClock(clock: self.clock)
        let stop = RunStop()
        let plan = RunPlan(engine: self)
        control.runStarted(at: clock.startedAt)
        var results = [WorkflowResult?](repeating: nil, count: workflows.count)
        await withTaskGroup(of: (index: Int, slot: Int, result: WorkflowResult).self) { group in
            var next = 0
            var running = 0
            // Job slots free to take a workflow: a slot's executor runs one workflow at a time.
            // No more slots than workflows: `--jobs 9223372036854775807` must not allocate them all.
            let jobs = max(1, min(settings.jobs, workflows.count))
            var freeSlots = Array((0..<jobs).reversed())
            func startNext() {
                let index = next, workflow = workflows[index]
                let slot = freeSlots.removeLast()
                // Announced here, in path order, not from the child: a console sees them in start order.
                announce(workflow, index: index)
                let body: @Sendable () async -> (index: Int, slot: Int, result: WorkflowResult) = {
                    let runner = WorkflowRunner(workflow: workflow, index: index, engine: self, plan: plan, clock: clock, stop: stop)
                    return (index, slot, await runner.run())
                }
                if executors.isEmpty {
                    group.addTask(operation: body)
                } else {
                    group.addTask(executorPreference: executors[slot % executors.count], operation: body)
                }
                next += 1
                running += 1
            }
            while next < workflows.count && running < jobs && !Task.isCancelled {
                startNext()
            }
            while let (index, slot, result) = await group.next() {
                results[index] = result
                freeSlots.append(slot)
                running -= 1
                if settings.failFast && !result.passed && !stop.isFailFast {
                    stop.failFast()
                    // The parent task stays uncancelled: this is not an interruption.
                    group.cancelAll()
                }
                if next < workflows.count && !stop.isFailFast && !Task.isCancelled {
                    startNext()
                }
            }
        }
        if stop.isFailFast {
            for index in workflows.indices where results[index] == nil {
                results[index] = reportNotRun(workflows[index], index: index, plan: plan, clock: clock, stop: stop,
                                              reason: RunStop.notRunReason)
            }
        }
        let interruption = control.interruption ?? (Task.isCancelled ? .cancelled : nil)
        return RunResult(workflows: results.compactMap { $0 }, startedAt: clock.startedAt, durationMicroseconds: clock.elapsedMicroseconds(),
                         interruption: interruption)
    }

    /// Each workflow's steps as skipped with `reason`, named as a run would name them, for the
    /// reports of a run that never started (another workflow is invalid): CI keeps each test
    /// case's history instead of seeing the suite vanish. Sends nothing, emits no event.
    package static func notRun(_ workflows: [Workflow], reason: SkipReason, settings: RunSettings) -> [WorkflowResult] {
        let engine = Engine(transport: NothingSent(), settings: settings)
        let clock = RunClock(clock: engine.clock)
        let plan = RunPlan(engine: engine)
        engine.control.runStarted(at: clock.startedAt)
        return workflows.indices.map { index in
            engine.reportNotRun(workflows[index], index: index, plan: plan, clock: clock, stop: RunStop(), reason: reason)
        }
    }

    /// A workflow that never starts, announced and reported with every step skipped for `reason`.
    private func reportNotRun(_ workflow: Workflow, index: Int, plan: RunPlan, clock: RunClock, stop: RunStop,
                              reason: SkipReason) -> WorkflowResult {
        announce(workflow, index: index)
        return WorkflowRunner(workflow: workflow, index: index, engine: self, plan: plan, clock: clock, stop: stop)
            .reportNotRun(reason: reason)
    }

    /// The transport of ``notRun(_:reason:settings:)``, which runs nothing.
    private struct NothingSent: HTTPTransport {
        func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
            throw HTTPError(kind: .cancelled, message: "nothing is sent: the run did not start")
        }
    }

    /// Tells the control and the event stream that a workflow starts.
    private func announce(_ workflow: Workflow, index: Int) {
        control.workflowStarted(index, WorkflowResult(file: workflow.file, name: workflow.name,
                                                      description: workflow.description, tags: workflow.tags.map(\.value)))
        onEvent(.workflowStarted(file: workflow.file, name: workflow.name))
    }
}
