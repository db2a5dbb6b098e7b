import CourierResults
import Dispatch
import Synchronization

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
///   once after an interruption when the main steps have stopped and teardown
///   is about to run (reports of what ran, before teardown may hang).
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
    private let onStepsStopped: @Sendable (RunResult) -> Void
    private let state = Mutex(State())

    private struct State {
        var interruption: Interruption?
        var deadlinePassed = false
        /// `onStepsStopped` is called at most once per run.
        var stepsStoppedReported = false
        var inTeardown = false
        var runStart = ContinuousClock.now
        /// The run's wall-clock start, for the snapshot's result.
        var runStartedAt = Timestamp.zero
        var finished: [WorkflowResult] = []
        /// The workflow running now, with the steps finished so far.
        var current: WorkflowResult?
        var currentStart = ContinuousClock.now
        var deadlineHandlers: [Int: @Sendable () -> Void] = [:]
        var nextHandler = 0
    }

    package init(teardownGrace: Duration = .seconds(10), onStepsStopped: @escaping @Sendable (RunResult) -> Void = { _ in }) {
        self.teardownGrace = teardownGrace
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
            // Interrupted during a teardown: the main steps stopped already.
            let now = state.inTeardown && !state.stepsStoppedReported
            if now { state.stepsStoppedReported = true }
            return (true, now)
        }
        guard first else { return false }
        let (seconds, attoseconds) = teardownGrace.components
        let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(max(0, nanoseconds))) { [self] in
            expireTeardownDeadline()
        }
        if stepsAlreadyStopped { onStepsStopped(snapshot()) }
        return true
    }

    /// The reason given to ``interrupt(_:)``, if it was called.
    package var interruption: Interruption? { state.withLock { $0.interruption } }

    /// Whether the teardown deadline after an interruption has passed.
    package var teardownDeadlinePassed: Bool { state.withLock { $0.deadlinePassed } }

    /// Every step finished so far: finished workflows in full, the running one
    /// with the steps it has finished. Safe to call from any thread at any time.
    package func snapshot() -> RunResult {
        state.withLock { state in
            let now = ContinuousClock.now
            var workflows = state.finished
            if var current = state.current {
                current.durationMicroseconds = Self.microseconds(now - state.currentStart)
                workflows.append(current)
            }
            return RunResult(workflows: workflows, startedAt: state.runStartedAt,
                             durationMicroseconds: Self.microseconds(now - state.runStart), interruption: state.interruption)
        }
    }

    // MARK: - For the engine

    func runStarted(at startedAt: Timestamp) {
        state.withLock { state in
            state.runStart = .now
            state.runStartedAt = startedAt
            state.finished = []
            state.current = nil
        }
    }

    func workflowStarted(_ workflow: WorkflowResult) {
        state.withLock { state in
            state.current = workflow
            state.currentStart = .now
        }
    }

    /// A step finished. (Results hold no secrets: every output masks through the
    /// run's registry, which holds them all.)
    func stepFinished(_ step: StepResult) {
        state.withLock { state in
            state.current?.steps.append(step)
        }
    }

    func workflowFinished(_ workflow: WorkflowResult) {
        state.withLock { state in
            state.finished.append(workflow)
            state.current = nil
        }
    }

    /// Called before a workflow's teardown (whether it has steps or not).
    func teardownStarting() {
        let report = state.withLock { state -> Bool in
            state.inTeardown = true
            guard state.interruption != nil, !state.stepsStoppedReported else { return false }
            state.stepsStoppedReported = true
            return true
        }
        if report { onStepsStopped(snapshot()) }
    }

    func teardownFinished() {
        state.withLock { $0.inTeardown = false }
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

    private static func microseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1_000_000 + Int(attoseconds / 1_000_000_000_000)
    }
}
