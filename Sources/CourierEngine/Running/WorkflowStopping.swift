import CourierResults

/// Why a workflow run stops early, and what may still run once it does: teardown (and a
/// login teardown needs) runs after an interruption, until the control's deadline.
final class WorkflowStopping {
    private let control: RunControl
    /// Set by the engine when `--fail-fast` cancels running workflows.
    private let stop: RunStop
    /// Teardown has started: a login it needs is shielded from an interruption like
    /// teardown's own requests (until the teardown deadline).
    private var teardownRunning = false

    init(control: RunControl, stop: RunStop) {
        self.control = control
        self.stop = stop
    }

    func teardownStarted() {
        teardownRunning = true
    }

    /// Teardown, or a login that teardown needs: run after an interruption, until its deadline.
    func isCleaningUp(_ phase: StepPhase) -> Bool {
        phase == .teardown || (phase == .auth && teardownRunning)
    }

    /// The teardown deadline after an interruption has passed.
    var deadlinePassed: Bool { control.teardownDeadlinePassed }

    /// A step of this phase may not start, nor a `for_each` go on to its next item.
    func mustStop(_ phase: StepPhase) -> Bool {
        isCleaningUp(phase) ? deadlinePassed : Task.isCancelled
    }

    /// `interrupted by SIGTERM` (or `interrupted` when the task was cancelled without a reason).
    var interruptedReason: SkipReason {
        .interrupted(control.interruption ?? .cancelled)
    }

    /// Why this workflow's task was cancelled: a signal (or the caller), else `--fail-fast`.
    /// A signal wins: the user asked to stop, whatever else was going on.
    var stopReason: SkipReason {
        if control.interruption == nil && stop.isFailFast { return RunStop.cancelledReason }
        return interruptedReason
    }

    var teardownDeadlineReason: SkipReason {
        .teardownDeadline(control.interruption ?? .cancelled, grace: control.teardownGrace)
    }

    /// Why a wait (`delay:`) or a transfer of this phase was cut short.
    func reasonCutShort(in phase: StepPhase) -> SkipReason {
        isCleaningUp(phase) && deadlinePassed ? teardownDeadlineReason : stopReason
    }

    /// What a cancelled transfer says: the signal, the teardown deadline that followed it,
    /// or --fail-fast; nil when it was cancelled for none of those (the transport's own words stand).
    func cancelledTransferReason(in phase: StepPhase) -> String? {
        let stopped = (isCleaningUp(phase) && deadlinePassed) || Task.isCancelled || control.interruption != nil
        return stopped ? reasonCutShort(in: phase).description : nil
    }

    /// A step `--fail-fast` cancelled in flight (or in its retry wait, or waiting for a login)
    /// did not fail: it is skipped, `cancelled: --fail-fast`, not errored, so CI shows no red
    /// test that never failed. A signal's cancellation stays an error (the run was stopped).
    func skippedIfFailFastCancelled(_ outcome: StepOutcome) -> StepOutcome {
        guard case .errored(let error) = outcome, error.kind == .cancelled, control.interruption == nil,
              stop.isFailFast else { return outcome }
        return .skipped(reason: RunStop.cancelledReason)
    }
}
