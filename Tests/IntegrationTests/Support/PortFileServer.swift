import Foundation

/// A Python server from `Tests/Servers/` on a free loopback port: started with `--port-file`,
/// ready once it has written the port it listens on. `TestServer`, `MisbehavingServer` and
/// `RawEchoServer` each hold one.
struct PortFileServer: Sendable {
    let port: Int
    private let process: LaunchedProcess
    private let directory: URL

    private init(port: Int, process: LaunchedProcess, directory: URL) {
        self.port = port
        self.process = process
        self.directory = directory
    }

    /// Starts `script` (named `name` in messages and its temporary directory) and waits, at most
    /// ``Paths/serverStartSeconds``, for its port file; the server's output is in the error otherwise.
    static func start(_ script: URL, name: String) async throws -> PortFileServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-it-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let portFile = directory.appendingPathComponent("port")
        let log = directory.appendingPathComponent("server.log")
        let python = Paths.systemPython.hasPrefix("/") ? Paths.systemPython : "python3"
        let box = try LaunchedProcess.launch([python, script.path, "--port-file", portFile.path], log: log)
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(Paths.serverStartSeconds)
        while clock.now < deadline {
            if let text = try? String(contentsOf: portFile, encoding: .utf8),
               let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), port > 0 {
                return PortFileServer(port: port, process: box, directory: directory)
            }
            if !box.isRunning { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        box.stop()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        throw HarnessError("\(script.lastPathComponent) did not write its port file within \(Paths.serverStartSeconds) s; its output:\n\(output)")
    }

    /// Closes the launcher's stdin (it terminates the server), then SIGTERM and SIGKILL if need be.
    func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
