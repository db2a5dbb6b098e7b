import CCurl
import CourierSync
import Foundation
import Synchronization

/// The one thread that talks to libcurl for a client.
///
/// Tasks hand transfers over through a mutex-guarded inbox and wake the loop
/// with `curl_multi_wakeup`, the only libcurl call made from other threads.
/// Easy handles are pooled: `curl_easy_reset` keeps their connections, DNS and
/// TLS session caches, so sequential requests reuse one connection.
///
/// The driver is also a `TaskExecutor`: code that prefers it (see
/// ``HTTPClient/taskExecutor``) runs on this thread between transfers, so a
/// request and the code awaiting it share one thread. The command line runs one
/// workflow at a time here (between its requests no other transfer exists to stall;
/// large bodies are checked elsewhere), and workflows run at once on threads of their
/// own (`EngineExecutor`), so one's checks never hold up another's transfers. Measured
/// with bench.sh on a 2-core machine, 2,000 sequential GETs: engine on this thread
/// about 10% faster than on an `EngineExecutor`; on the cooperative pool 0.67x curl.
///
/// Stopping never blocks: the loop aborts what is in flight, frees its handles
/// and resumes the callers of `shutdown()`.
final class CurlDriver: TaskExecutor, @unchecked Sendable {
    // @unchecked: `multi`, `pool` and `active` belong to the driver thread;
    // the inbox is the only state shared with other threads and sits behind a lock.

    private struct Inbox {
        var submitted: [CurlTransfer] = []
        var cancelled: [CurlTransfer] = []
        /// Transfers a body stream paused and wants going again (`curl_easy_pause`).
        var resumed: [CurlTransfer] = []
        var jobs: [UnownedJob] = []
        var stopping = false
        /// Set when the loop has ended: jobs then go to the global executor.
        var exited = false
        /// Callers of `shutdown()` waiting for the loop to end.
        var shutdownWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let multi: UnsafeMutableRawPointer
    private let inbox = PthreadLock(Inbox())
    private var pool: [UnsafeMutableRawPointer] = []
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    /// `pthread_self()` of the driver thread, to skip wake-ups from the thread itself.
    private let driverThread = Atomic<UInt>(0)
    /// `awake` while the loop runs or spins waiting for work, `asleep` while it may be in
    /// `curl_multi_poll` (a submit must then wake it), `notified` once a submit saw it spinning.
    private let loopState = Atomic<Int>(LoopState.awake)
    private enum LoopState {
        static let awake = 0
        static let spinning = 1
        static let notified = 2
    }
    /// How long the loop waits awake for the next request after finishing one: sequential
    /// callers send it within microseconds, and sleeping in `curl_multi_poll` would cost a
    /// wake-up (a write to libcurl's wake-up pipe and a context switch) per request.
    private static let spinNanoseconds: UInt64 = 200_000

    init() throws(HTTPError) {
        guard let multi = courier_multi_init() else {
            throw HTTPError(kind: .transport, message: "cannot create a libcurl multi handle (out of memory)", curlFunction: "curl_multi_init")
        }
        self.multi = multi
        // The thread holds the driver until its loop ends, so dropping the client
        // never waits for it (see `stop()`).
        let thread = Thread { [self] in run() }
        thread.name = "courier.curl-driver"
        thread.start()
    }

    private var onDriverThread: Bool {
        driverThread.load(ordering: .relaxed) == UInt(pthread_self())
    }

    /// Hands `transfer` to the loop; false (and nothing queued) once the client is shutting down.
    func submit(_ transfer: CurlTransfer) -> Bool {
        let accepted = inbox.withLock { inbox in
            guard !inbox.stopping else { return false }
            inbox.submitted.append(transfer)
            return true
        }
        if accepted && !onDriverThread { wakeUnlessSpinning() }
        return accepted
    }

    /// Skips the wake-up when the loop is spinning for work: it sees the inbox itself.
    private func wakeUnlessSpinning() {
        let (notified, _) = loopState.compareExchange(expected: LoopState.spinning, desired: LoopState.notified, ordering: .acquiringAndReleasing)
        if !notified { wake() }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let exited = inbox.withLock { inbox in
            if !inbox.exited { inbox.jobs.append(job) }
            return inbox.exited
        }
        if exited {
            globalConcurrentExecutor.enqueue(job)
        } else if !onDriverThread {
            wakeUnlessSpinning()
        }
    }

    func cancel(_ transfer: CurlTransfer) {
        transfer.cancelRequested.store(true, ordering: .releasing)
        let running = inbox.withLock { inbox in
            if !inbox.exited { inbox.cancelled.append(transfer) }
            return !inbox.exited
        }
        if running { wake() }
    }

    /// Asks the loop to un-pause a transfer whose body stream has room (or data) again.
    func resume(_ transfer: CurlTransfer) {
        let running = inbox.withLock { inbox in
            if !inbox.exited { inbox.resumed.append(transfer) }
            return !inbox.exited
        }
        if running && !onDriverThread { wake() }
    }

    /// Ends the loop without waiting for it: transfers still in flight fail with
    /// ``HTTPError/Kind/clientShutDown`` and the thread exits once they are aborted.
    func stop() {
        let wasStopping = inbox.withLock { inbox in
            defer { inbox.stopping = true }
            return inbox.stopping || inbox.exited
        }
        if !wasStopping { wake() }
    }

    /// Ends the loop like `stop()` and returns once the thread has let go of libcurl.
    func shutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let exited = inbox.withLock { inbox in
                guard !inbox.exited else { return true }
                inbox.stopping = true
                inbox.shutdownWaiters.append(continuation)
                return false
            }
            if exited { continuation.resume() } else { wake() }
        }
    }

    /// `curl_multi_wakeup` is the only libcurl call made from other threads; it can
    /// only fail for a handle that is not a multi handle, which ours always is.
    ///
    /// Under the inbox lock, and only while the loop has not exited: the loop frees the
    /// multi handle under the same lock, so a wake-up racing the end of the loop (a
    /// cancellation or a late job from another thread) never touches freed memory.
    private func wake() {
        inbox.withLock { inbox in
            if !inbox.exited { _ = courier_multi_wakeup(multi) }
        }
    }

    // MARK: - The loop (driver thread)

    private func run() {
        driverThread.store(UInt(pthread_self()), ordering: .relaxed)
        let executor = asUnownedTaskExecutor()
        var running: Int32 = 0
        // The inbox's lists are swapped with these (emptied after use, their capacity kept):
        // copying a list out and emptying it in the inbox allocated a new buffer every turn.
        var jobs: [UnownedJob] = []
        var submitted: [CurlTransfer] = []
        var cancelled: [CurlTransfer] = []
        var resumed: [CurlTransfer] = []
        while true {
            inbox.withLock { swap(&$0.jobs, &jobs) }
            for job in jobs { job.runSynchronously(on: executor) }
            jobs.removeAll(keepingCapacity: true)

            let stopping = inbox.withLock { inbox in
                swap(&inbox.submitted, &submitted)
                swap(&inbox.cancelled, &cancelled)
                swap(&inbox.resumed, &resumed)
                return inbox.stopping
            }
            for transfer in submitted { start(transfer) }
            for transfer in cancelled { abort(transfer, because: HTTPError(kind: .cancelled, message: "request cancelled")) }
            for transfer in resumed {
                // Un-pausing may call the stream's callback at once, on this thread.
                if let handle = transfer.handle, active[handle] === transfer { _ = courier_easy_pause(handle, courier_pause_cont) }
            }
            submitted.removeAll(keepingCapacity: true)
            cancelled.removeAll(keepingCapacity: true)
            resumed.removeAll(keepingCapacity: true)
            if stopping {
                for transfer in Array(active.values) { abort(transfer, because: .shutDown) }
                break
            }

            let performed = courier_multi_perform(multi, &running)
            if performed != CURLM_OK { failAll(performed, in: "curl_multi_perform") }
            var remaining: Int32 = 0
            var completedAny = false
            while let message = courier_multi_info_read(multi, &remaining) {
                guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
                complete(handle: handle, code: courier_msg_result(message))
                completedAny = true
            }
            // Jobs resumed by the completions above run before sleeping.
            let idle = inbox.withLock {
                $0.jobs.isEmpty && $0.submitted.isEmpty && $0.cancelled.isEmpty && $0.resumed.isEmpty && !$0.stopping
            }
            // Work is waiting (a job a completion resumed, say): run it first. A poll with a
            // zero timeout here checked nothing `curl_multi_perform` does not, at a system
            // call per request.
            guard idle else { continue }
            if completedAny && active.isEmpty && spinForWork() { continue }
            let polled = courier_multi_poll(multi, nil, 0, 1000, nil)
            if polled != CURLM_OK { failAll(polled, in: "curl_multi_poll") }
        }
        for handle in pool { courier_easy_cleanup(handle) }
        pool.removeAll()
        // Whatever is still queued (tasks resumed by the aborts above) runs elsewhere.
        let (leftover, waiters) = inbox.withLock { inbox in
            inbox.exited = true
            // Freed under the lock `wake()` takes: no other thread calls into it after this.
            _ = courier_multi_cleanup(multi)
            defer {
                inbox.jobs.removeAll()
                inbox.shutdownWaiters.removeAll()
                inbox.submitted.removeAll()
                inbox.cancelled.removeAll()
                inbox.resumed.removeAll()
            }
            return (inbox.jobs, inbox.shutdownWaiters)
        }
        for job in leftover { globalConcurrentExecutor.enqueue(job) }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits awake, briefly, for a submit or a job after the last transfer finished;
    /// true when one came (the loop then runs again without polling).
    private func spinForWork() -> Bool {
        loopState.store(LoopState.spinning, ordering: .releasing)
        let until = DispatchTime.now().uptimeNanoseconds + Self.spinNanoseconds
        // Yielding leaves the CPU to the caller's thread, which is about to submit.
        while loopState.load(ordering: .acquiring) == LoopState.spinning && DispatchTime.now().uptimeNanoseconds < until { sched_yield() }
        // Either a submitter saw `spinning` and skipped its wake-up (`notified`), or the
        // time is up: from `awake` on, submitters wake the poll again.
        let (timedOut, _) = loopState.compareExchange(expected: LoopState.spinning, desired: LoopState.awake, ordering: .acquiringAndReleasing)
        if !timedOut { loopState.store(LoopState.awake, ordering: .releasing) }
        return !timedOut
    }

    /// A failing `curl_multi_*` call leaves the state of every transfer unknown:
    /// they all fail with its error rather than hang.
    private func failAll(_ code: CURLMcode, in function: String) {
        let error = HTTPError(multiCode: code, function: function)
        for transfer in Array(active.values) { abort(transfer, because: error) }
    }

    private func start(_ transfer: CurlTransfer) {
        if transfer.cancelRequested.load(ordering: .acquiring) {
            finish(transfer, .failure(HTTPError(kind: .cancelled, message: "request cancelled")))
            return
        }
        let handle: UnsafeMutableRawPointer
        if let pooled = pool.popLast() {
            // Reset when it was recycled: nothing of the previous request is left on it.
            handle = pooled
        } else if let fresh = courier_easy_init() {
            handle = fresh
        } else {
            finish(transfer, .failure(HTTPError(kind: .transport, message: "cannot create a libcurl handle (out of memory)", curlFunction: "curl_easy_init")))
            return
        }
        do {
            try transfer.configure(handle) { [weak self, weak transfer] in
                if let self, let transfer { self.resume(transfer) }
            }
        } catch {
            recycle(handle)
            finish(transfer, .failure(error))
            return
        }
        let added = courier_multi_add_handle(multi, handle)
        guard added == CURLM_OK else {
            transfer.handle = nil
            recycle(handle)
            finish(transfer, .failure(HTTPError(multiCode: added, function: "curl_multi_add_handle")))
            return
        }
        active[handle] = transfer
    }

    private func complete(handle: UnsafeMutableRawPointer, code: CURLcode) {
        guard let transfer = active.removeValue(forKey: handle) else { return }
        // Removing a handle this loop added can only fail on a corrupt multi handle;
        // the result is known either way.
        _ = courier_multi_remove_handle(multi, handle)
        let result = transfer.result(code: code)
        transfer.borrowedCookies?.giveBack(handle)
        recycle(handle)
        finish(transfer, result)
    }

    private func abort(_ transfer: CurlTransfer, because error: HTTPError) {
        guard let handle = transfer.handle, active[handle] === transfer else { return }
        transfer.closeResponseFile()
        active.removeValue(forKey: handle)
        _ = courier_multi_remove_handle(multi, handle)
        transfer.borrowedCookies?.giveBack(handle)
        recycle(handle)
        finish(transfer, .failure(error))
    }

    private func recycle(_ handle: UnsafeMutableRawPointer) {
        // Detach the cookie share now, so a jar can be freed as soon as its run ends.
        _ = courier_easy_setopt_share(handle, nil)
        // Reset now, not when reused: an idle handle must not keep pointers into a
        // finished transfer (error buffer, callbacks' userdata, header list, MIME,
        // credentials). Connections, DNS and TLS session caches survive the reset.
        courier_easy_reset(handle)
        pool.append(handle)
    }

    private func finish(_ transfer: CurlTransfer, _ result: Result<HTTPResponse, HTTPError>) {
        transfer.handle = nil
        transfer.ended(with: result)
        transfer.continuation?.resume(returning: result)
        transfer.continuation = nil
    }
}
