import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own for running a workflow, off the thread that drives transfers:
/// the command line gives one to each job slot when workflows run at once (`--jobs`).
///
/// The engine's work between requests (templates, JSON parsing of large bodies,
/// JSONPath, schemas, console writes) must not stall the curl driver, yet resuming on
/// the cooperative pool after every response measured 0.67x curl on 2,000 sequential
/// requests. This thread waits awake for its next job for a moment (yielding the CPU)
/// before it sleeps, as the driver does for its next request, so a response and the
/// request after it usually cost no wake-up: about as fast as running the engine on the
/// driver thread itself (bench.sh, same build, 10 paired runs on a loaded 2-core
/// machine: median 0.73x curl against 0.75x). Tasks prefer
/// it with `Task(executorPreference:)`; workflows run at once can each take their own
/// (or a small pool of them): nothing here is global.
package final class EngineExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs`, `stopping` and `sleeping` are only touched with `mutex` held.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var jobs: [UnownedJob] = []
    private var spare: [UnownedJob] = []
    private var sleeping = false
    private var stopping = false
    /// Jobs enqueued, read without the mutex while the thread spins for the next one.
    private let enqueued = Atomic<Int>(0)

    /// `pthread_self()` of the executor's thread, once it runs.
    private let threadID = Atomic<UInt>(0)

    /// Whether the caller runs on this executor's thread (for tests and assertions).
    package var isCurrentThread: Bool { threadID.load(ordering: .acquiring) == UInt(pthread_self()) }

    /// How long the thread stays awake waiting for its next job before it sleeps.
    static let spinNanoseconds: UInt64 = 200_000

    package init(name: String = "courier.engine") {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
        // The thread keeps the executor alive until `stop()` ends its loop.
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pthread_mutex_lock(mutex)
        if stopping {
            pthread_mutex_unlock(mutex)
            // Late jobs (a task that outlived the run) still run, elsewhere.
            globalConcurrentExecutor.enqueue(job)
            return
        }
        jobs.append(job)
        let wake = sleeping
        pthread_mutex_unlock(mutex)
        enqueued.add(1, ordering: .releasing)
        if wake { pthread_cond_signal(condition) }
    }

    /// Ends the thread once the jobs already queued have run; later jobs go to the global executor.
    package func stop() {
        pthread_mutex_lock(mutex)
        stopping = true
        pthread_mutex_unlock(mutex)
        pthread_cond_signal(condition)
    }

    private func run() {
        threadID.store(UInt(pthread_self()), ordering: .releasing)
        let executor = asUnownedTaskExecutor()
        var seen = 0
        while true {
            // A response usually comes back within tens of microseconds: waiting for it
            // awake costs less than a futex sleep and wake-up, which is most of the
            // price of running off the driver thread. Bounded, so an idle run sleeps.
            let spinUntil = DispatchTime.now().uptimeNanoseconds + Self.spinNanoseconds
            // sched_yield: on a machine with few cores, the driver and the server need the
            // CPU this loop would otherwise take from them (measured under load: best of 9 rounds 0.51x → 0.83x curl).
            while enqueued.load(ordering: .acquiring) == seen && DispatchTime.now().uptimeNanoseconds < spinUntil { sched_yield() }
            seen = enqueued.load(ordering: .acquiring)
            pthread_mutex_lock(mutex)
            while jobs.isEmpty && !stopping {
                sleeping = true
                pthread_cond_wait(condition, mutex)
                sleeping = false
            }
            if jobs.isEmpty {
                pthread_mutex_unlock(mutex)
                return
            }
            // Swap buffers: no allocation per batch once both have grown.
            swap(&jobs, &spare)
            pthread_mutex_unlock(mutex)
            for job in spare { job.runSynchronously(on: executor) }
            spare.removeAll(keepingCapacity: true)
        }
    }
}
