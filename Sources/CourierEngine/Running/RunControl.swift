import CourierResults
import CourierSync

/// The caller's handle on a running ``Engine``: why it is being interrupted,
/// how long its teardowns may take after that, and what has finished so far.
///
/// Cancelling the run's task is still what stops the run (the current transfer
/// is aborted, the remaining steps are skipped, teardowns run). This object adds
/// three things a command line needs to stop gracefully on a signal:
/// - the reason (`interrupted by SIGTERM`), recorded in skipped steps and results;
/// - a deadline for teardowns: once `teardownGrace` has passed since the
///   interruption, teardown requests still running are cancelled and the
///   teardown steps not started yet are skipped;
/// - a snapshot of every finished step, readable at any moment (reports for a
///   second signal that leaves no time to wait), and `onStepsStopped`, called
///   once after an interruption when the main steps of every running workflow
///   have stopped and their teardowns are about to run (reports of what ran,
///   before a teardown may hang).
///
/// Several workflows may run at once (`--jobs`): each is known by its index in
/// the run's order, and snapshots list them in that order.
///
/// The engine never prints: it only records here.
///
///     let control = RunControl(onStepsStopped: { partial in write(partial) })
///     let task = Task { await Engine(transport: client, settings: settings, control: control).run(workflows) }
///     // on SIGTERM:
///     control.interrupt(Interruption(signal: SIGTERM, signalName: "SIGTERM")); task.cancel()
package final class RunControl: Sendable {
    /// How long teardowns may run after an interruption. Default 10 s: what
    /// `docker stop` (and most CI cancellations) wait before SIGKILL.
    package let teardownGrace: Duration
    /// The teardown deadline is waited for here (a manual clock in tests).
    private let sleeper: any Sleeper
    private let clock: any EngineClock
    private let onStepsStopped: @Sendable (RunResult) -> Void
    private let state = PthreadLock(State())

    private struct State {
        var interruption: Interruption?
        var deadlinePassed = false
        /// `onStepsStopped` is called at most once per run.
        var stepsStoppedReported = false
        var runStart = Duration.zero
        /// The run's wall-clock start, for the snapshot's result.
        var runStartedAt = Timestamp.zero
        /// Finished workflows by their index in the run.
        var finished: [Int: WorkflowResult] = [:]
        /// The workflows running now, with the steps finished so far.
        var running = RunningList()
        var deadlineHandlers: [Int: @Sendable () -> Void] = [:]
        var nextHandler = 0

        /// Every running workflow is in its teardown (and one at least runs): the main steps have stopped.
        var allInTeardown: Bool { !running.isEmpty && running.all(\.inTeardown) }

        /// After an interruption, the first moment the main steps have stopped: report once.
        mutating func shouldReportStepsStopped() -> Bool {
            guard interruption != nil, !stepsStoppedReported, allInTeardown else { return false }
            stepsStoppedReported = true
            return true
        }
    }

    private struct Running {
        var result: WorkflowResult
        var start: Duration
        var inTeardown = false
    }

    /// The running workflows by their index in the run. An array, not a dictionary: every
    /// step's result is appended to one, and hashing the index each time showed in profiles.
    private struct RunningList {
        private var slots: [Running?] = []

        /// Asked after an interruption only: a scan is cheap enough.
        var isEmpty: Bool { !slots.contains { if case .some = $0 { true } else { false } } }

        /// The running workflows with their indexes, in index order.
        var entries: [(index: Int, running: Running)] {
            slots.indices.compactMap { index in slots[index].map { (index, $0) } }
        }

        /// Whether `predicate` holds for every running workflow.
        func all(_ predicate: (Running) -> Bool) -> Bool {
            slots.allSatisfy { $0.map(predicate) ?? true }
        }

        mutating func start(_ index: Int, _ running: Running) {
            if index >= slots.count { slots.append(contentsOf: repeatElement(nil, count: index - slots.count + 1)) }
            slots[index] = running
        }

        /// In place (a workflow that is not running is left alone).
        mutating func append(_ step: StepResult, to index: Int) {
            guard index < slots.count else { return }
            slots[index]?.result.steps.append(step)
        }

        mutating func teardownStarting(_ index: Int) {
            guard index < slots.count else { return }
            slots[index]?.inTeardown = true
        }

        mutating func remove(_ index: Int) {
            guard index < slots.count else { return }
            slots[index] = nil
        }
    }

    package init(teardownGrace: Duration = .seconds(10), clock: any EngineClock = SystemClock(), sleeper: any Sleeper = TaskSleeper(),
                 onStepsStopped: @escaping @Sendable (RunResult) -> Void = { _ in }) {
        self.teardownGrace = teardownGrace
        self.clock = clock
        self.sleeper = sleeper
        self.onStepsStopped = onStepsStopped
    }

    // MARK: - For the caller

    /// Records why the run stops and starts the teardown deadline. Only the first
    /// call counts; returns whether this was it. The caller cancels the run's task.
    @discardableResult
    package func interrupt(_ interruption: Interruption) -> Bool {
        let (first, stepsAlreadyStopped) = state.withLock { state -> (Bool, Bool) in
            guard state.interruption == nil else { return (false, false) }
            state.interruption = interruption
            // Interrupted while every running workflow is in its teardown: the main steps stopped already.
            return (true, state.shouldReportStepsStopped())
        }
        guard first else { return false }
        // Not a child of the run's task: the run's cancellation must not cancel its own deadline.
        Task.detached { [self, sleeper, teardownGrace] in
            try? await sleeper.sleep(for: teardownGrace)
            expireTeardownDeadline()
        }
        if stepsAlreadyStopped { onStepsStopped(snapshot()) }
        return true
    }

    /// The reason given to ``interrupt(_:)``, if it was called.
    package var interruption: Interruption? { state.withLock { $0.interruption } }

    /// Whether the teardown deadline after an interruption has passed.
    package var teardownDeadlinePassed: Bool { state.withLock { $0.deadlinePassed } }

    /// Every step finished so far: finished workflows in full, the running ones
    /// with the steps they have finished, in the run's order. Safe to call from
    /// any thread at any time.
    package func snapshot() -> RunResult {
        let now = clock.now()
        return state.withLock { state in
            var byIndex = state.finished
            for (index, running) in state.running.entries {
                var result = running.result
                result.durationMicroseconds = RunClock.microseconds(now - running.start)
                byIndex[index] = result
            }
            return RunResult(workflows: byIndex.keys.sorted().compactMap { byIndex[$0] }, startedAt: state.runStartedAt,
                             durationMicroseconds: RunClock.microseconds(now - state.runStart),
                             interruption: state.interruption)
        }
    }

    // MARK: - For the engine

    func runStarted(at startedAt: Timestamp) {
        let now = clock.now()
        state.withLock { state in
            state.runStart = now
            state.runStartedAt = startedAt
            state.finished = [:]
            state.running = RunningList()
        }
    }

    /// Workflow `index` of the run starts (or is reported not run).
    func workflowStarted(_ index: Int, _ workflow: WorkflowResult) {
        let now = clock.now()
        state.withLock { state in
            state.running.start(index, Running(result: workflow, start: now))
        }
    }

    /// A step finished. (Results may hold secrets — a `secret: true` capture keeps its
    /// value — so what is kept here is masked when it leaves: every output masks through
    /// the run's registry, which holds them all.)
    func stepFinished(_ index: Int, _ step: StepResult) {
        state.withLock { state in
            state.running.append(step, to: index)
        }
    }

    func workflowFinished(_ index: Int, _ workflow: WorkflowResult) {
        let report = state.withLock { state -> Bool in
            state.finished[index] = workflow
            state.running.remove(index)
            // The last one still in its main steps has finished: the others are all in teardown.
            return state.shouldReportStepsStopped()
        }
        if report { onStepsStopped(snapshot()) }
    }

    /// Called before a workflow's teardown (whether it has steps or not).
    func teardownStarting(_ index: Int) {
        let report = state.withLock { state -> Bool in
            state.running.teardownStarting(index)
            return state.shouldReportStepsStopped()
        }
        if report { onStepsStopped(snapshot()) }
    }

    /// Runs `cancel` when the teardown deadline passes. Returns a token for
    /// ``removeDeadlineHandler(_:)``, or nil when the deadline has passed already
    /// (then `cancel` is not kept: the caller cancels at once).
    func onTeardownDeadline(_ cancel: @escaping @Sendable () -> Void) -> Int? {
        state.withLock { state in
            guard !state.deadlinePassed else { return nil }
            state.nextHandler += 1
            state.deadlineHandlers[state.nextHandler] = cancel
            return state.nextHandler
        }
    }

    func removeDeadlineHandler(_ token: Int) {
        _ = state.withLock { $0.deadlineHandlers.removeValue(forKey: token) }
    }

    private func expireTeardownDeadline() {
        let handlers = state.withLock { state in
            state.deadlinePassed = true
            defer { state.deadlineHandlers = [:] }
            return Array(state.deadlineHandlers.values)
        }
        // Called outside the lock: a handler cancels a task, which may call back in.
        for cancel in handlers { cancel() }
    }
}
