import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A server's launcher `Process` (not Sendable) and the write end of its stdin, kept open
/// while it runs: the launchers exit, taking their server along, when stdin closes — also
/// when the test process dies without stopping them.
final class LaunchedProcess: @unchecked Sendable {
    // @unchecked: every access to `process` holds `lock`.
    private let lock = NSLock()
    private var process: Process?
    private let stdin: Pipe

    init(process: Process, stdin: Pipe) {
        self.process = process
        self.stdin = stdin
    }

    var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return process?.isRunning ?? false
    }

    /// Closes stdin, then terminates (and at last kills) what is still running; waits for the exit.
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard let process else { return }
        self.process = nil
        try? stdin.fileHandleForWriting.close()
        for (grace, signal) in [(3.0, SIGTERM), (2.0, SIGKILL)] {
            let deadline = Date().addingTimeInterval(grace)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            guard process.isRunning else { break }
            kill(process.processIdentifier, signal)
        }
        process.waitUntilExit()
    }

    deinit { stop() }
}
