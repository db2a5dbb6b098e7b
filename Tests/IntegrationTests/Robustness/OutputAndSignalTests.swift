import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 8, "never crash, never hang, never lose a report": console streams that close or
/// fill up, SIGTERM/SIGHUP and second signals, teardowns that hang, and `--junit` paths
/// that are links, devices, FIFOs or standard output.
@Suite(.testServer)
struct OutputAndSignalTests {
    // MARK: - Console streams

    @Test("stdout closed after the first line (| head -1): the run finishes, teardown runs, JUnit is written, exit is the run's")
    func readerGoesAway() async throws {
        let server = try TestServer.shared()
        let recorder = try RequestRecorder()
        defer { recorder.stop() }
        let workspace = try Workspace()
        try workspace.write("flow.yaml", """
            name: flow
            steps:
              - name: first
                request: { url: "\(server.baseURL)/health" }
              - name: second
                request: { url: "\(server.baseURL)/delay?ms=300" }
              - name: third
                request: { url: "\(server.baseURL)/health" }
            teardown:
              - name: clean up
                request: { url: "\(recorder.baseURL)/teardown" }
            """)
        let pipe = Pipe()
        let launched = try CourierProcess.start(["run", "flow.yaml", "--junit", "junit.xml"], in: workspace, stdout: pipe.fileHandleForWriting)
        try? pipe.fileHandleForWriting.close()
        // Read the first line, then close the read end: the next console write gets EPIPE.
        let firstLine = readLine(from: pipe.fileHandleForReading.fileDescriptor, limit: .seconds(30))
        try pipe.fileHandleForReading.close()
        let result = try await launched.finish(timeout: .seconds(60))

        #expect(firstLine.hasPrefix("flow.yaml"), "first line: \(firstLine)")
        // Before the fix: "Fatal error: 'try!' … Broken pipe", SIGILL (exit 132), no teardown, no report.
        #expect(result.status == 0, result.context)
        #expect(!result.stderr.contains("Fatal error"), result.context)
        #expect(recorder.received.contains { $0.hasPrefix("GET /teardown ") }, "teardown did not run: \(result.context)")
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.cases.map(\.name) == ["first", "second", "third", "clean up"])
        #expect(report.cases.allSatisfy { $0.passed })
    }

    @Test("stdout is /dev/full: exit 3 and one line on stderr", arguments: ["run", "validate", "query", "version"])
    func fullDisk(command: String) async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("flow.yaml", """
            name: flow
            steps:
              - name: first
                request: { url: "\(server.baseURL)/health" }
            """)
        try workspace.write("doc.json", #"{"a": [1, 2, 3]}"#)
        let arguments: [String] = switch command {
        case "run": ["run", "flow.yaml", "--junit", "junit.xml"]
        case "validate": ["validate", "flow.yaml"]
        case "query": ["query", "$.a[*]", "doc.json"]
        default: ["version"]
        }
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let result = try await CourierProcess.start(arguments, in: workspace, stdout: full).finish(timeout: .seconds(60))
        try? full.close()

        #expect(result.status == 3, result.context)
        #expect(result.stderr == "error: cannot write to standard output: No space left on device\n", result.context)
        if command == "run" {
            let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
            #expect(report.testCase("first")?.passed == true)
        }
    }

    // MARK: - Signals

    @Test("SIGTERM and SIGHUP during a slow step: teardown runs, JUnit written, exit 128 + signal",
          arguments: [(SIGTERM, "SIGTERM"), (SIGHUP, "SIGHUP")])
    func terminate(signal: Int32, name: String) async throws {
        let server = try TestServer.shared()
        let recorder = try RequestRecorder()
        defer { recorder.stop() }
        let workspace = try Workspace()
        try workspace.write("slow.yaml", slowWorkflow(server: server, teardown: "\(recorder.baseURL)/teardown"))
        let launched = try CourierProcess.start(["run", "slow.yaml", "--junit", "junit.xml"], in: workspace)
        try await launched.waitForServerToBeBusy()
        launched.send(signal)
        let result = try await launched.finish(timeout: .seconds(30))

        #expect(result.status == 128 + signal, result.context)
        let delay = try #require(launched.exitDelay(afterSignal: 0))
        #expect(delay < .seconds(8), "the run did not stop at \(name): \(delay)")
        #expect(result.stdout.contains("INTERRUPTED by \(name)"), result.context)
        #expect(recorder.received.contains { $0.hasPrefix("GET /teardown ") }, "teardown did not run: \(result.context)")
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.testCase("first")?.passed == true)
        #expect(report.testCase("slow one")?.error?.type == "cancelled")
        #expect(report.testCase("slow one")?.error?.message == "interrupted by \(name)")
        #expect(report.testCase("never sent")?.skippedMessage == "interrupted by \(name)")
        #expect(report.testCase("clean up")?.passed == true)
    }

    @Test("a second signal exits at once, with the reports of what finished")
    func secondSignal() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        // The teardown would hang for 30 s: only the second signal ends the run early.
        try workspace.write("slow.yaml", slowWorkflow(server: server, teardown: "\(server.baseURL)/delay?ms=30000"))
        let launched = try CourierProcess.start(["run", "slow.yaml", "--junit", "junit.xml"], in: workspace)
        try await launched.waitForServerToBeBusy()
        launched.send(SIGTERM)
        try await Task.sleep(for: .milliseconds(800))
        launched.send(SIGINT)
        let result = try await launched.finish(timeout: .seconds(30))

        #expect(result.status == 143, "the first signal's status: \(result.context)")
        let delay = try #require(launched.exitDelay(afterSignal: 1))
        #expect(delay < .seconds(5), "a second signal must not wait for the teardown: \(delay)")
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.testCase("first")?.passed == true)
        #expect(report.testCase("slow one")?.error?.type == "cancelled")
        #expect(report.testCase("never sent")?.skippedMessage == "interrupted by SIGTERM")
        #expect(report.testCase("clean up") == nil, "the teardown had not finished")
    }

    /// Takes ~11 s: the deadline is the real 10 s `docker stop` allows (no test-only knob).
    @Test("a teardown that hangs is cut at the 10 s deadline; the reports of what ran are written before it")
    func teardownDeadline() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("slow.yaml", slowWorkflow(server: server, teardown: "\(server.baseURL)/delay?ms=30000")
            + "\n  - name: after clean up\n    request: { url: \"\(server.baseURL)/health\" }\n")
        let launched = try CourierProcess.start(["run", "slow.yaml", "--junit", "junit.xml"], in: workspace)
        try await launched.waitForServerToBeBusy()
        launched.send(SIGTERM)

        // While the teardown hangs, the report of the main steps is there already. It is copied
        // the moment it appears by a thread of its own: polling from a task of the cooperative
        // pool, which a loaded machine can starve for seconds, read the final report instead.
        let early = workspace.url.appendingPathComponent("junit.xml")
        let copy = workspace.url.appendingPathComponent("early-junit.xml")
        let appeared = await FirstAppearance.copy(early, to: copy, within: .seconds(8))
        #expect(appeared, "no report within 8 s of the signal")
        #expect(launched.isRunning, "the teardown should still be running")
        let partial = try await JUnitReport.load(copy)
        #expect(partial.testCase("slow one")?.error?.type == "cancelled")
        #expect(partial.testCase("clean up") == nil)

        let result = try await launched.finish(timeout: .seconds(40))
        #expect(result.status == 143, result.context)
        let delay = try #require(launched.exitDelay(afterSignal: 0))
        #expect(delay > .seconds(9.5) && delay < .seconds(20), "the deadline is 10 s after the signal: \(delay)")
        let report = try await JUnitReport.load(early)
        #expect(report.testCase("clean up")?.error?.type == "cancelled")
        #expect(report.testCase("clean up")?.error?.message.map { $0.contains("10 s deadline") } == true)
        #expect(report.testCase("after clean up")?.skipped == true)
    }

    @Test("SIGTERM with --junit -: standard output gets one report, the final one")
    func interruptedReportOnStandardOutput() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("slow.yaml", slowWorkflow(server: server, teardown: "\(server.baseURL)/health"))
        let launched = try CourierProcess.start(["run", "slow.yaml", "--junit", "-"], in: workspace)
        try await launched.waitForServerToBeBusy()
        launched.send(SIGTERM)
        let result = try await launched.finish(timeout: .seconds(30))

        #expect(result.status == 143, result.context)
        // A partial report before the final one would make two XML documents on a stream.
        #expect(result.stdout.components(separatedBy: "<?xml").count == 2, result.context)
        try workspace.write("stdout.xml", result.stdout)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("stdout.xml"))
        #expect(report.testCase("clean up")?.passed == true, "the final report, with the teardown")
    }

    // MARK: - Report destinations

    @Test("--junit to a symbolic link: the link stays a link, its target gets the report", arguments: [true, false])
    func symlink(targetExists: Bool) async throws {
        let workspace = try Workspace()
        try workspace.write("flow.yaml", try passingWorkflow())
        try FileManager.default.createDirectory(atPath: workspace.path("reports"), withIntermediateDirectories: true)
        if targetExists { try workspace.write("reports/target.xml", "old") }
        try FileManager.default.createSymbolicLink(atPath: workspace.path("link.xml"), withDestinationPath: "reports/target.xml")
        let result = try await Courier.run(["run", "flow.yaml", "--junit", "link.xml"], in: workspace.url)

        #expect(result.status == 0, result.context)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: workspace.path("link.xml")) == "reports/target.xml")
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("reports/target.xml"))
        #expect(report.testCase("first")?.passed == true)
    }

    @Test("--junit to a character device: written into it, still a device")
    func characterDevice() async throws {
        let workspace = try Workspace()
        try workspace.write("flow.yaml", try passingWorkflow())
        // A null device (1, 3: glibc's makedev does not import) of our own when we may make one: a failing test must not replace the machine's /dev/null.
        let device = mknod(workspace.path("null"), S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0 ? workspace.path("null") : "/dev/null"
        let result = try await Courier.run(["run", "flow.yaml", "--junit", device], in: workspace.url)

        #expect(result.status == 0, result.context)
        let type = try FileManager.default.attributesOfItem(atPath: device)[.type] as? FileAttributeType
        #expect(type == .typeCharacterSpecial, "\(device) was replaced: \(String(describing: type))")
    }

    @Test("--junit to a FIFO: a reader gets the whole report")
    func fifo() async throws {
        let workspace = try Workspace()
        try workspace.write("flow.yaml", try passingWorkflow())
        let path = workspace.path("report.fifo")
        try #require(mkfifo(path, 0o644) == 0)
        let reader = FIFOReader(path: path)
        let result = try await Courier.run(["run", "flow.yaml", "--junit", path], in: workspace.url)
        let text = reader.finish()

        #expect(result.status == 0, result.context)
        let type = try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType
        #expect(type != .typeRegular, "the FIFO was replaced by a regular file")
        try #require(!text.isEmpty, "the FIFO's reader got nothing")
        try workspace.write("received.xml", text)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("received.xml"))
        #expect(report.testCase("first")?.passed == true)
    }

    @Test("--junit -: the report on stdout, the console on stderr")
    func standardOutput() async throws {
        let workspace = try Workspace()
        try workspace.write("flow.yaml", try passingWorkflow())
        let result = try await Courier.run(["run", "flow.yaml", "--junit", "-"], in: workspace.url)

        #expect(result.status == 0, result.context)
        #expect(result.stdout.hasPrefix("<?xml"), result.context)
        #expect(result.stderr.contains("PASS") && result.stderr.contains("PASSED"), result.context)
        try workspace.write("stdout.xml", result.stdout)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("stdout.xml"))
        #expect(report.testCase("first")?.passed == true)
    }

    @Test("--junit '': exit 2 before anything is sent")
    func emptyPath() async throws {
        let recorder = try RequestRecorder()
        defer { recorder.stop() }
        let workspace = try Workspace()
        try workspace.write("flow.yaml", "name: flow\nsteps:\n  - name: first\n    request: { url: \"\(recorder.baseURL)/first\" }\n")
        let result = try await Courier.run(["run", "flow.yaml", "--junit", ""], in: workspace.url)

        #expect(result.status == 2, result.context)
        #expect(result.stderr.contains("--junit needs a file name"), result.context)
        #expect(recorder.received.isEmpty, "requests were sent: \(recorder.received)")
    }

    @Test("--junit to a path that cannot be written: exit 3 naming it, the run itself complete")
    func unwritablePath() async throws {
        let workspace = try Workspace()
        try workspace.write("flow.yaml", try passingWorkflow())
        try workspace.write("plain-file", "not a directory")
        // Not a permission problem: the tests may run as root, who may write anywhere.
        let result = try await Courier.run(["run", "flow.yaml", "--junit", "plain-file/junit.xml"], in: workspace.url)

        #expect(result.status == 3, result.context)
        #expect(result.stderr.contains("error: JUnit report: cannot write 'plain-file/junit.xml': Not a directory"), result.context)
        #expect(result.stdout.contains("PASSED"), result.context)
    }

    // MARK: - Helpers

    private func passingWorkflow() throws -> String {
        let server = try TestServer.shared()
        return "name: flow\nsteps:\n  - name: first\n    request: { url: \"\(server.baseURL)/health\" }\n"
    }

    /// A step that passes, one that takes 20 s, one never reached, and a teardown at `teardown`.
    private func slowWorkflow(server: TestServer, teardown: String) -> String {
        """
        name: slow
        steps:
          - name: first
            request: { url: "\(server.baseURL)/health" }
          - name: slow one
            request: { url: "\(server.baseURL)/delay?ms=20000" }
          - name: never sent
            request: { url: "\(server.baseURL)/health" }
        teardown:
          - name: clean up
            request: { url: "\(teardown)" }
        """
    }

    /// Bytes up to the first newline (or EOF, or `limit`), read with poll so a silent child cannot hang the test.
    private func readLine(from descriptor: Int32, limit: Duration) -> String {
        var bytes: [UInt8] = []
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while !bytes.contains(UInt8(ascii: "\n")) && clock.now < deadline {
            var wanted = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&wanted, 1, 100) > 0 else { continue }
            var byte: UInt8 = 0
            guard read(descriptor, &byte, 1) == 1 else { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// `courier` started with a chosen stdout, signalled while it runs.
private final class CourierProcess: @unchecked Sendable {
    // @unchecked: `process` is only used from the test's task, one call at a time.
    private let process: Process
    private let captureDirectory: URL
    private let start = ContinuousClock.now
    /// When each signal was sent, first to last: durations are measured from them,
    /// not from the start, which a busy machine can stretch.
    private(set) var signalled: [ContinuousClock.Instant] = []
    private(set) var exitedAt: ContinuousClock.Instant?

    /// Time from the `index`-th signal to the exit.
    func exitDelay(afterSignal index: Int) -> Duration? {
        guard index < signalled.count, let exitedAt else { return nil }
        return exitedAt - signalled[index]
    }

    private init(process: Process, captureDirectory: URL) {
        self.process = process
        self.captureDirectory = captureDirectory
    }

    static func start(_ arguments: [String], in workspace: Workspace, stdout: FileHandle? = nil) throws -> CourierProcess {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-it-sig-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in ["stdout", "stderr"] {
            _ = FileManager.default.createFile(atPath: directory.appendingPathComponent(name).path, contents: nil)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Paths.courierBinary())
        process.arguments = arguments
        process.currentDirectoryURL = workspace.url
        var environment = ProcessInfo.processInfo.environment
        for name in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] { environment[name] = nil }
        environment["NO_COLOR"] = "1"
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let ownStdout = try FileHandle(forWritingTo: directory.appendingPathComponent("stdout"))
        let stderr = try FileHandle(forWritingTo: directory.appendingPathComponent("stderr"))
        process.standardOutput = stdout ?? ownStdout
        process.standardError = stderr
        try process.run()
        try? ownStdout.close()
        try? stderr.close()
        return CourierProcess(process: process, captureDirectory: directory)
    }

    var isRunning: Bool { process.isRunning }

    func send(_ signal: Int32) {
        signalled.append(.now)
        kill(process.processIdentifier, signal)
    }

    /// Waits until the run is inside its slow step: the first step's PASS line is printed.
    func waitForServerToBeBusy() async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        while clock.now < deadline {
            // The console is on stdout, or on stderr when the report takes stdout (`--junit -`).
            let console = ["stdout", "stderr"].map {
                (try? String(contentsOf: captureDirectory.appendingPathComponent($0), encoding: .utf8)) ?? ""
            }
            if console.contains(where: { $0.contains("PASS ") }) {
                // The slow request is being sent now; give it a moment to reach the server.
                try await Task.sleep(for: .milliseconds(300))
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw HarnessError("courier did not pass its first step within 30 s")
    }

    /// Waits for the exit (SIGKILL after `timeout`) and collects what it left.
    func finish(timeout: Duration) async throws -> ProcessResult {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var timedOut = false
        while process.isRunning {
            if clock.now > deadline {
                timedOut = true
                kill(process.processIdentifier, SIGKILL)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        exitedAt = clock.now
        process.waitUntilExit()
        let duration = clock.now - start
        defer { try? FileManager.default.removeItem(at: captureDirectory) }
        let read = { (name: String) in (try? String(contentsOf: self.captureDirectory.appendingPathComponent(name), encoding: .utf8)) ?? "" }
        let status = process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
        let result = ProcessResult(status: status, stdout: read("stdout"), stderr: read("stderr"), timedOut: timedOut, duration: duration)
        if timedOut { throw HarnessError("courier did not finish within \(timeout):\n\(result.allOutput)") }
        return result
    }
}

/// Reads a FIFO to its end on a thread of its own (opening a FIFO blocks until a writer comes).
private final class FIFOReader: @unchecked Sendable {
    // @unchecked: `text` is written by the thread before `done` is signalled, read after.
    private let path: String
    private var text = ""
    private let done = DispatchSemaphore(value: 0)

    init(path: String) {
        self.path = path
        Thread { [self] in
            let descriptor = open(path, O_RDONLY)
            var bytes: [UInt8] = []
            if descriptor >= 0 {
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count <= 0 { break }
                    bytes += buffer[0..<count]
                }
                close(descriptor)
            }
            text = String(decoding: bytes, as: UTF8.self)
            done.signal()
        }.start()
    }

    /// The text read; if no writer ever came, opens and closes the FIFO for writing so the reader ends (empty).
    func finish() -> String {
        if done.wait(timeout: .now() + 5) == .timedOut {
            let unblock = open(path, O_WRONLY | O_NONBLOCK)
            if unblock >= 0 { close(unblock) }
            _ = done.wait(timeout: .now() + 5)
        }
        return text
    }
}

/// Copies a file the moment it appears, polling on a thread of its own (not the cooperative
/// pool, whose tasks a loaded machine may not run for seconds).
enum FirstAppearance {
    static func copy(_ file: URL, to destination: URL, within limit: Duration) async -> Bool {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let clock = ContinuousClock()
                let until = clock.now + limit
                while clock.now < until {
                    if (try? FileManager.default.copyItem(at: file, to: destination)) != nil {
                        continuation.resume(returning: true)
                        return
                    }
                    usleep(2_000)
                }
                continuation.resume(returning: false)
            }
        }
    }
}
