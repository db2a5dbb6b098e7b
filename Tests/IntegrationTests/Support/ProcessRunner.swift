import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a finished child process left behind.
struct ProcessResult: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String
    /// The process was killed because it ran longer than its timeout.
    var timedOut: Bool
    var duration: Duration
    /// A `courier run`'s JSON report, when ``JSONReportHook`` read it and found it valid.
    var jsonReport: JSONReportFile? = nil

    /// stdout and stderr together, for "appears nowhere" checks.
    var allOutput: String { stdout + "\n" + stderr }
}

enum ProcessRunner {
    /// Runs `executable` to completion (or until `timeout`, then SIGTERM and, 2 s later, SIGKILL),
    /// with stdout and stderr captured through files (no pipe can fill up and block the child).
    static func run(
        _ executable: String,
        _ arguments: [String],
        in directory: URL? = nil,
        environment: [String: String]? = nil,
        timeout: Duration = .seconds(60),
        interruptAfter: Duration? = nil
    ) async throws -> ProcessResult {
        let captureDir = FileManager.default.temporaryDirectory
            .appendingPathComponent("courier-it-proc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: captureDir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: captureDir) }
        let outURL = captureDir.appendingPathComponent("stdout")
        let errURL = captureDir.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let outHandle = try FileHandle(forWritingTo: outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)

        // The exit, the Ctrl-C and the timeout are timed off the cooperative pool (2 threads
        // here): a test process whose pool is busy (report validation, a server stopping) must
        // neither send its SIGINT late nor see a run last longer than it did.
        let watch = ExitWatch()
        var process = Process()
        // A script a test has just written may still be open for writing in a child that
        // another thread forked meanwhile (until that child execs): exec then fails with
        // ETXTBSY ("Text file busy"). Like Go's os/exec, try again for a little while.
        for attempt in 1...50 {
            process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            if let directory { process.currentDirectoryURL = directory }
            if let environment { process.environment = environment }
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = outHandle
            process.standardError = errHandle
            process.terminationHandler = { _ in watch.exited() }
            do {
                try process.run()
                break
            } catch {
                let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
                if underlying?.domain == NSPOSIXErrorDomain && underlying?.code == Int(ETXTBSY) && attempt < 50 {
                    try await Task.sleep(for: .milliseconds(20))
                    continue
                }
                try? outHandle.close()
                try? errHandle.close()
                throw HarnessError("cannot start \(executable): \(error)")
            }
        }
        let pid = process.processIdentifier
        let timers = DispatchQueue(label: "courier.tests.process-timers")
        if let interruptAfter {
            // Ctrl-C, as a user at a terminal would press it.
            timers.asyncAfter(deadline: .now() + interruptAfter.dispatchInterval) {
                watch.ifRunning { kill(pid, SIGINT) }
            }
        }
        timers.asyncAfter(deadline: .now() + timeout.dispatchInterval) {
            watch.ifRunning {
                watch.markTimedOut()
                kill(pid, SIGTERM)
            }
            timers.asyncAfter(deadline: .now() + .seconds(2)) {
                watch.ifRunning { kill(pid, SIGKILL) }
            }
        }
        await watch.waitForExit()
        process.waitUntilExit()
        let duration = watch.duration
        let timedOut = watch.timedOut
        try? outHandle.close()
        try? errHandle.close()
        let stdout = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        let status = process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
        return ProcessResult(status: status, stdout: stdout, stderr: stderr, timedOut: timedOut, duration: duration)
    }
}

/// When a child started and exited, and whether its timeout fired: set from Foundation's
/// termination handler and from timer queues, read by the awaiting test.
private final class ExitWatch: @unchecked Sendable {
    // @unchecked: every stored property is read and written holding `lock`.
    private let lock = NSLock()
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var exitedAt: ContinuousClock.Instant?
    private var didTimeOut = false
    private var waiter: CheckedContinuation<Void, Never>?

    init() { start = clock.now }

    func exited() {
        lock.lock()
        exitedAt = clock.now
        let waiting = waiter
        waiter = nil
        lock.unlock()
        waiting?.resume()
    }

    /// Runs `action` unless the child has exited (its pid may then be reused), holding the lock
    /// so the exit cannot come in between.
    func ifRunning(_ action: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        if exitedAt == nil { action() }
    }

    /// Called from within ``ifRunning(_:)``'s action, which holds the lock.
    func markTimedOut() { didTimeOut = true }

    func waitForExit() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if exitedAt != nil {
                lock.unlock()
                continuation.resume()
            } else {
                waiter = continuation
                lock.unlock()
            }
        }
    }

    var duration: Duration {
        lock.lock()
        defer { lock.unlock() }
        return (exitedAt ?? clock.now) - start
    }

    var timedOut: Bool {
        lock.lock()
        defer { lock.unlock() }
        return didTimeOut
    }
}

extension Duration {
    /// For `DispatchQueue.asyncAfter`.
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        return .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
