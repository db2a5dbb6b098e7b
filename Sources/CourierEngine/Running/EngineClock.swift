import CourierResults
import Synchronization

/// Where the engine reads the time: durations, attempt start times, snapshots.
///
/// Injected with a ``Sleeper`` so that `delay`, backoff and `Retry-After` can be
/// tested without waiting: ``ManualClock`` is both, and moves on when slept on.
package protocol EngineClock: Sendable {
    /// Time since a fixed origin of this clock; never goes back.
    func now() -> Duration
}

/// Where the engine waits: every `delay`, and every wait to come (backoff, `Retry-After`).
package protocol Sleeper: Sendable {
    /// Returns after `duration`, or throws `CancellationError` as soon as the task is cancelled.
    func sleep(for duration: Duration) async throws
}

/// The real monotonic clock.
package struct SystemClock: EngineClock {
    private let origin = ContinuousClock.now

    package init() {}

    package func now() -> Duration { ContinuousClock.now - origin }
}

/// Real sleeping, with `Task.sleep` (which a cancelled task leaves at once).
package struct TaskSleeper: Sleeper {
    package init() {}

    package func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }
}

/// The sleeper of a dry run: a `delay:` is a wait for the server, and a dry run has none
/// to wait for (a 5 s delay made `--dry-run` take 5 s). It still notices cancellation.
package struct NoWaitSleeper: Sleeper {
    package init() {}

    package func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
    }
}

/// A clock for tests: time stands still until someone sleeps on it or calls
/// ``advance(by:)``; sleeping moves it on by the duration at once.
///
///     let clock = ManualClock()
///     let engine = Engine(transport: fake, settings: settings, clock: clock, sleeper: clock)
///     // a `delay: 10s` step: clock.now() moves by 10 s, no real time passes
package final class ManualClock: EngineClock, Sleeper {
    private let state = Mutex<(now: Duration, sleeps: [Duration])>((.zero, []))

    package init() {}

    package func now() -> Duration { state.withLock { $0.now } }

    /// Every duration slept on, in order.
    package var sleeps: [Duration] { state.withLock { $0.sleeps } }

    package func advance(by duration: Duration) {
        state.withLock { $0.now += duration }
    }

    package func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            state.now += duration
            state.sleeps.append(duration)
        }
    }
}

/// Microseconds since the start of the run, for durations and attempt start times.
package struct RunClock: Sendable {
    private let clock: any EngineClock
    private let start: Duration
    /// The wall-clock time at `start`: results carry wall-clock start times.
    package let startedAt: Timestamp

    package init(clock: any EngineClock = SystemClock()) {
        self.clock = clock
        self.start = clock.now()
        self.startedAt = Timestamp.now()
    }

    /// The wall-clock time `elapsed` microseconds (of the engine's clock) after the start of the run.
    package func timestamp(at elapsed: Int) -> Timestamp { startedAt.adding(microseconds: elapsed) }

    package func elapsedMicroseconds(since: Int = 0) -> Int {
        Self.microseconds(clock.now() - start) - since
    }

    static func microseconds(_ duration: Duration) -> Int { duration.saturatingMicroseconds }
}
