@testable import CourierEngine
import CourierResults
import Testing

/// Why a workflow run stops, and what still runs once it does.
@Suite struct WorkflowStoppingTests {
    @Test func aLoginIsCleaningUpOnlyOnceTeardownHasStarted() {
        let stopping = WorkflowStopping(control: RunControl(), stop: RunStop())
        #expect(stopping.isCleaningUp(.teardown))
        #expect(!stopping.isCleaningUp(.auth))
        #expect(!stopping.isCleaningUp(.steps))
        stopping.teardownStarted()
        #expect(stopping.isCleaningUp(.auth))
        #expect(!stopping.isCleaningUp(.setup))
    }

    @Test func aSignalWinsOverFailFast() {
        let control = RunControl()
        let stop = RunStop()
        stop.failFast()
        let stopping = WorkflowStopping(control: control, stop: stop)
        #expect(stopping.stopReason.description == "cancelled: --fail-fast")
        _ = control.interrupt(Interruption(signal: 15, signalName: "SIGTERM"))
        #expect(stopping.stopReason.description == "interrupted by SIGTERM")
    }

    @Test func onlyAFailFastCancellationBecomesASkip() {
        let cancelled = StepOutcome.errored(StepError(.cancelled, message: "x", location: nil))
        let failFast = RunStop()
        failFast.failFast()
        #expect(WorkflowStopping(control: RunControl(), stop: failFast).skippedIfFailFastCancelled(cancelled).skipReason
                == .failFastCancelled)
        // Not under --fail-fast, or after a signal, it stays an error.
        #expect(WorkflowStopping(control: RunControl(), stop: RunStop()).skippedIfFailFastCancelled(cancelled).skipReason?.description == nil)
        let signalled = RunControl()
        _ = signalled.interrupt(Interruption(signal: 2, signalName: "SIGINT"))
        #expect(WorkflowStopping(control: signalled, stop: failFast).skippedIfFailFastCancelled(cancelled).skipReason?.description == nil)
        // Other errors are never turned into skips.
        let other = StepOutcome.errored(StepError(.transfer("connection_refused"), message: "x", location: nil))
        #expect(WorkflowStopping(control: RunControl(), stop: failFast).skippedIfFailFastCancelled(other).skipReason?.description == nil)
    }

    @Test func theTeardownDeadlineReasonNamesTheGrace() {
        let control = RunControl(teardownGrace: .milliseconds(1500))
        _ = control.interrupt(Interruption(signal: 15, signalName: "SIGTERM"))
        let stopping = WorkflowStopping(control: control, stop: RunStop())
        #expect(stopping.teardownDeadlineReason.description == "interrupted by SIGTERM; teardown stopped at its 1500 ms deadline")
    }
}
