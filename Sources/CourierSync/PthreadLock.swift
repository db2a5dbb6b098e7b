import Foundation

/// State guarded by a `pthread_mutex_t`, for what threads hand each other: the curl driver's
/// inbox, a body stream's buffer, the console's blocks, the run's control and secrets.
///
/// `Synchronization.Mutex` would do as well, but ThreadSanitizer does not see it as a lock
/// on this toolchain (a 15-line program, one thread appending to a Mutex-guarded array and
/// another reading it, is reported as a race), so every value handed over through one was
/// reported; `Scripts/sanitize.sh thread` checks these hand-overs. Its cost is in
/// `docs/performance.md`.
package final class PthreadLock<State>: @unchecked Sendable {
    // @unchecked: `state` is only touched with `mutex` held.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var state: State

    package init(_ state: State) {
        self.state = state
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
