import CourierResults
import Synchronization

/// Why the engine itself stopped running workflows, as opposed to the caller
/// cancelling the run (a signal, recorded in ``RunControl``).
///
/// Both end in task cancellation, so a cancelled task alone cannot tell a
/// `--fail-fast` stop from Ctrl-C: the runners ask this first.
package final class RunStop: Sendable {
    private let failedFast = Atomic<Bool>(false)

    /// A workflow failed under `--fail-fast`: the others are cancelled.
    func failFast() { failedFast.store(true, ordering: .relaxed) }

    var isFailFast: Bool { failedFast.load(ordering: .relaxed) }

    /// What running workflows say about the steps they skip or abort.
    static let cancelledReason = SkipReason.failFastCancelled
    /// What workflows that never started say about their steps (the console counts them apart).
    package static let notRunReason = SkipReason.failFastNotRun
}
