@testable import courier
import CourierResults
import Foundation
import Synchronization
import Testing

/// The run's signal handling, in this process: a signal that comes the moment `install`
/// has returned is handled, and after `remove` the default action is back.
@Suite(.serialized) struct StopSignalsTests {
    @Test func aSignalRightAfterInstallIsHandled() async throws {
        // SIGHUP: a test process's own SIGTERM or SIGINT may be its runner's to send.
        let received = Mutex<[Interruption]>([])
        let signals = StopSignals.install(
            first: { interruption in received.withLock { $0.append(interruption) } },
            again: { _ in fatalError("a second signal was seen") })
        defer { signals.remove() }
        kill(getpid(), SIGHUP)
        let deadline = ContinuousClock.now + .seconds(5)
        while received.withLock({ $0.isEmpty }) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(received.withLock { $0 } == [Interruption(signal: SIGHUP, signalName: "SIGHUP")])
    }

    @Test func removeRestoresTheDefaultAction() throws {
        let signals = StopSignals.install(first: { _ in }, again: { _ in fatalError("unexpected") })
        var installed = sigaction()
        sigaction(SIGHUP, nil, &installed)
        #expect(unsafeBitCast(installed.__sigaction_handler.sa_handler, to: Int.self) > 1, "no handler installed")
        signals.remove()
        var restored = sigaction()
        sigaction(SIGHUP, nil, &restored)
        #expect(unsafeBitCast(restored.__sigaction_handler.sa_handler, to: Int.self) == 0, "not SIG_DFL")
    }
}
