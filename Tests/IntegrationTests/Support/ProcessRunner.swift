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

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outHandle
        process.standardError = errHandle

        let clock = ContinuousClock()
        let start = clock.now
        do {
            try process.run()
        } catch {
            try? outHandle.close()
            try? errHandle.close()
            throw HarnessError("cannot start \(executable): \(error)")
        }
        var timedOut = false
        var killAt: ContinuousClock.Instant?
        // Ctrl-C, as a user at a terminal would press it.
        var interruptAt = interruptAfter.map { start + $0 }
        while process.isRunning {
            let now = clock.now
            if let at = interruptAt, now >= at {
                kill(process.processIdentifier, SIGINT)
                interruptAt = nil
            }
            if !timedOut && now - start > timeout {
                timedOut = true
                process.terminate()
                killAt = now + .seconds(2)
            } else if let deadline = killAt, now > deadline {
                kill(process.processIdentifier, SIGKILL)
                killAt = nil
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        process.waitUntilExit()
        let duration = clock.now - start
        try? outHandle.close()
        try? errHandle.close()
        let stdout = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        let status = process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
        return ProcessResult(status: status, stdout: stdout, stderr: stderr, timedOut: timedOut, duration: duration)
    }
}
