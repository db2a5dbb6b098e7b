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

    /// Runs `argv` under a Python launcher that unblocks signals (Foundation's Process hands
    /// children the spawning thread's mask, with SIGTERM blocked) and terminates the child when
    /// stdin closes, so a crashed or killed test process never leaves a server behind.
    /// Standard output and error go to `log`.
    static func launch(_ argv: [String], log: URL) throws -> LaunchedProcess {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        let python = Paths.systemPython
        process.executableURL = URL(fileURLWithPath: python.hasPrefix("/") ? python : "/usr/bin/env")
        process.arguments = (python.hasPrefix("/") ? [] : ["python3"]) + ["-c", launcher] + argv
        let stdin = Pipe()
        process.standardInput = stdin
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        try? handle.close()
        return LaunchedProcess(process: process, stdin: stdin)
    }

    private static let launcher = """
        import os, sys, signal, threading, subprocess
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        child = subprocess.Popen(sys.argv[1:])
        def _watch():
            while os.read(0, 65536):
                pass
            child.terminate()
            try:
                child.wait(3)
            except Exception:
                child.kill()
            os._exit(0)
        threading.Thread(target=_watch, daemon=True).start()
        os._exit(child.wait())
        """

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
