import CCurl
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
/// request and the code awaiting it never hop threads — measured as the
/// difference between 0.6x and curl's own speed on sequential requests.
final class CurlDriver: TaskExecutor, @unchecked Sendable {
    // @unchecked: `multi`, `pool` and `active` belong to the driver thread;
    // the inbox is the only state shared with other threads and sits in a Mutex.

    private struct Inbox {
        var submitted: [CurlTransfer] = []
        var cancelled: [CurlTransfer] = []
        var jobs: [UnownedJob] = []
        var stopping = false
        /// Set when the loop has ended: jobs then go to the global executor.
        var exited = false
    }

    private let multi: UnsafeMutableRawPointer
    private let inbox = Mutex(Inbox())
    private var pool: [UnsafeMutableRawPointer] = []
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    private let finished = DispatchSemaphore(value: 0)
    /// `pthread_self()` of the driver thread, to skip wake-ups from the thread itself.
    private let driverThread = Atomic<UInt>(0)

    init() {
        // curl_multi_init only fails when out of memory.
        guard let multi = courier_multi_init() else { fatalError("curl_multi_init failed: out of memory") }
        self.multi = multi
        let thread = Thread { [self] in run() }
        thread.name = "courier.curl-driver"
        thread.start()
    }

    private var onDriverThread: Bool {
        driverThread.load(ordering: .relaxed) == UInt(pthread_self())
    }

    func submit(_ transfer: CurlTransfer) {
        inbox.withLock { $0.submitted.append(transfer) }
        if !onDriverThread { courier_multi_wakeup(multi) }
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
            courier_multi_wakeup(multi)
        }
    }

    func cancel(_ transfer: CurlTransfer) {
        transfer.cancelRequested.store(true, ordering: .releasing)
        inbox.withLock { $0.cancelled.append(transfer) }
        courier_multi_wakeup(multi)
    }

    /// Ends the loop, failing what is still in flight, and waits for the thread.
    func stop() {
        let alreadyStopping = inbox.withLock { inbox in
            defer { inbox.stopping = true }
            return inbox.stopping
        }
        guard !alreadyStopping else { return }
        // On the driver thread itself (the last reference dropped by a job it
        // runs) the loop ends after that job; waiting would deadlock.
        guard !onDriverThread else { return }
        courier_multi_wakeup(multi)
        finished.wait()
    }

    // MARK: - The loop (driver thread)

    private func run() {
        driverThread.store(UInt(pthread_self()), ordering: .relaxed)
        let executor = asUnownedTaskExecutor()
        var running: Int32 = 0
        while true {
            let jobs = inbox.withLock { inbox in
                defer { inbox.jobs.removeAll(keepingCapacity: true) }
                return inbox.jobs
            }
            for job in jobs { job.runSynchronously(on: executor) }

            let (submitted, cancelled, stopping) = inbox.withLock { inbox in
                defer {
                    inbox.submitted.removeAll(keepingCapacity: true)
                    inbox.cancelled.removeAll(keepingCapacity: true)
                }
                return (inbox.submitted, inbox.cancelled, inbox.stopping)
            }
            for transfer in submitted { start(transfer) }
            for transfer in cancelled { abort(transfer, because: HTTPError(kind: .cancelled, message: "request cancelled")) }
            if stopping {
                for transfer in Array(active.values) {
                    abort(transfer, because: HTTPError(kind: .cancelled, message: "HTTP client shut down"))
                }
                break
            }

            courier_multi_perform(multi, &running)
            var remaining: Int32 = 0
            while let message = courier_multi_info_read(multi, &remaining) {
                guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
                complete(handle: handle, code: courier_msg_result(message))
            }
            // Jobs resumed by the completions above run before sleeping.
            let idle = inbox.withLock { $0.jobs.isEmpty && $0.submitted.isEmpty && $0.cancelled.isEmpty }
            courier_multi_poll(multi, nil, 0, idle ? 1000 : 0, nil)
        }
        for handle in pool { courier_easy_cleanup(handle) }
        pool.removeAll()
        // Whatever is still queued (tasks resumed by the aborts above) runs elsewhere.
        let leftover = inbox.withLock { inbox in
            inbox.exited = true
            defer { inbox.jobs.removeAll() }
            return inbox.jobs
        }
        for job in leftover { globalConcurrentExecutor.enqueue(job) }
        courier_multi_cleanup(multi)
        finished.signal()
    }

    private func start(_ transfer: CurlTransfer) {
        if transfer.cancelRequested.load(ordering: .acquiring) {
            finish(transfer, .failure(HTTPError(kind: .cancelled, message: "request cancelled")))
            return
        }
        let handle: UnsafeMutableRawPointer
        if let pooled = pool.popLast() {
            courier_easy_reset(pooled)
            handle = pooled
        } else if let fresh = courier_easy_init() {
            handle = fresh
        } else {
            finish(transfer, .failure(HTTPError(kind: .transport, message: "cannot create a libcurl handle (out of memory)")))
            return
        }
        do {
            try transfer.configure(handle)
        } catch {
            recycle(handle)
            finish(transfer, .failure(error))
            return
        }
        active[handle] = transfer
        courier_multi_add_handle(multi, handle)
    }

    private func complete(handle: UnsafeMutableRawPointer, code: CURLcode) {
        guard let transfer = active.removeValue(forKey: handle) else { return }
        courier_multi_remove_handle(multi, handle)
        let result = transfer.result(code: code)
        recycle(handle)
        finish(transfer, result)
    }

    private func abort(_ transfer: CurlTransfer, because error: HTTPError) {
        guard let handle = transfer.handle, active[handle] === transfer else { return }
        active.removeValue(forKey: handle)
        courier_multi_remove_handle(multi, handle)
        recycle(handle)
        finish(transfer, .failure(error))
    }

    private func recycle(_ handle: UnsafeMutableRawPointer) {
        // Detach the cookie share now, so a jar can be freed as soon as its run ends.
        _ = courier_easy_setopt_share(handle, nil)
        pool.append(handle)
    }

    private func finish(_ transfer: CurlTransfer, _ result: Result<HTTPResponse, HTTPError>) {
        transfer.handle = nil
        transfer.continuation?.resume(returning: result)
        transfer.continuation = nil
    }
}
