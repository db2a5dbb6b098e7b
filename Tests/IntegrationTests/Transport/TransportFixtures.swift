import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Servers and certificates shared by the transport suites, each started once per test
/// process on first use and stopped when the process ends (their launcher exits when its
/// stdin, held by this process, closes).
///
/// - plain HTTP, HTTPS, HTTPS requiring client certificates (TLS 1.3 and 1.2 only),
///   HTTPS with a wrong-name certificate and with a certificate from another CA:
///   `Tests/Servers/testserver.py`;
/// - a counting forward proxy: `Tests/Servers/forward_proxy.py`;
/// - nginx with HTTP/2 over TLS (ALPN) and a static brotli-encoded file, when nginx exists.
actor TransportFixtures {
    static let shared = TransportFixtures()

    enum Server: String, Sendable {
        /// `httpOther`: a second plain testserver.py, on another port (another host to libcurl).
        case http, httpOther, https, mtls, mtls12, wrongName, otherCA, proxy, nginx
    }

    private var certificatesTask: Task<URL, Error>?
    private var servers: [Server: Task<ServerProcess, Error>] = [:]

    /// The output of `make_certs.sh`, made once per process.
    func certificates() async throws -> URL {
        if let task = certificatesTask { return try await task.value }
        let task = Task { () throws -> URL in
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("courier-transport-certs-\(getpid())")
            let script = Paths.packageRoot.appendingPathComponent("Tests/Servers/make_certs.sh").path
            let result = try await ProcessRunner.run("/bin/bash", [script, directory.path], timeout: .seconds(60))
            guard result.status == 0 else {
                throw HarnessError("make_certs.sh failed (\(result.status)):\n\(result.allOutput)")
            }
            return directory
        }
        certificatesTask = task
        return try await task.value
    }

    func certificate(_ name: String) async throws -> String {
        try await certificates().appendingPathComponent(name).path
    }

    /// The server, started on first use.
    func server(_ which: Server) async throws -> ServerProcess {
        if let task = servers[which] { return try await task.value }
        let task = Task { () throws -> ServerProcess in try await self.start(which) }
        servers[which] = task
        return try await task.value
    }

    private func start(_ which: Server) async throws -> ServerProcess {
        let testServer = Paths.testServerScript.path
        let proxyScript = Paths.packageRoot.appendingPathComponent("Tests/Servers/forward_proxy.py").path
        if which == .http || which == .httpOther { return try await ServerProcess.startPython(testServer, [], scheme: "http") }
        if which == .proxy { return try await ServerProcess.startPython(proxyScript, [], scheme: "http") }
        let certs = try await certificates()
        func cert(_ name: String) -> String { certs.appendingPathComponent(name).path }
        switch which {
        case .https:
            return try await ServerProcess.startPython(testServer, ["--tls-cert", cert("server.pem"), "--tls-key", cert("server.key")], scheme: "https")
        case .mtls:
            return try await ServerProcess.startPython(testServer, ["--tls-cert", cert("server.pem"), "--tls-key", cert("server.key"),
                                                                    "--client-ca", cert("ca.pem")], scheme: "https")
        case .mtls12:
            return try await ServerProcess.startPython(testServer, ["--tls-cert", cert("server.pem"), "--tls-key", cert("server.key"),
                                                                    "--client-ca", cert("ca.pem"), "--tls-max", "1.2"], scheme: "https")
        case .wrongName:
            return try await ServerProcess.startPython(testServer, ["--tls-cert", cert("wrong-name.pem"), "--tls-key", cert("wrong-name.key")], scheme: "https")
        case .otherCA:
            return try await ServerProcess.startPython(testServer, ["--tls-cert", cert("other-server.pem"), "--tls-key", cert("other-server.key")], scheme: "https")
        case .nginx:
            return try await ServerProcess.startNginx(certificate: cert("server.pem"), key: cert("server.key"))
        case .http, .httpOther, .proxy:
            throw HarnessError("\(which) is started above")
        }
    }

    /// nginx, or nil when it is not installed (a failure on CI, where it must be).
    static var nginxPath: String? {
        let path = ProcessInfo.processInfo.environment["NGINX"] ?? "/usr/sbin/nginx"
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// Whether a test should go on to its nginx part: yes when nginx is installed, and on CI
    /// always (where starting it then fails the test, as a missing corpus does). Elsewhere a
    /// missing nginx is one known issue naming what goes unchecked, never a silent pass.
    static func usesNginx(toCheck what: String) -> Bool {
        if nginxPath != nil || Paths.onCI { return true }
        withKnownIssue("nginx is not installed (apt-get install nginx-light, which make test does); \(what) not checked") {
            Issue.record("no nginx")
        }
        return false
    }
}

/// A server child process behind a launcher that ends it when this process's end of its
/// stdin closes (so a crashed test run never leaves servers behind).
final class ServerProcess: Sendable {
    let port: Int
    let scheme: String
    private let box: LaunchedProcess
    let directory: URL

    var baseURL: String { "\(scheme)://127.0.0.1:\(port)" }

    private init(port: Int, scheme: String, box: LaunchedProcess, directory: URL) {
        self.port = port
        self.scheme = scheme
        self.box = box
        self.directory = directory
    }

    static func startPython(_ script: String, _ arguments: [String], scheme: String) async throws -> ServerProcess {
        let directory = try makeDirectory("server")
        let portFile = directory.appendingPathComponent("port")
        let python = Paths.systemPython.hasPrefix("/") ? Paths.systemPython : "python3"
        let box = try LaunchedProcess.launch([python, script, "--port-file", portFile.path] + arguments,
                                             log: directory.appendingPathComponent("server.log"))
        let port = try await waitFor(box: box, directory: directory) {
            (try? String(contentsOf: portFile, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        return ServerProcess(port: port, scheme: scheme, box: box, directory: directory)
    }

    /// The brotli encoding of `TransportFixtures.brotliText` (made with libbrotlienc, quality 11).
    static let brotliBase64 = "G0YASIzTFfcjnKxihCSzUG5L9bnQ1BbFMmcQlgYGEYtFBzbggD3AYZhoAJkOQmM4JRU/tgeFJYQA5ctel13FtnkyIIpF9UI1bXw="
    static let brotliText = #"{"encoding": "br", "message": "decoded by libcurl", "items": [1, 2, 3]}"#

    /// 64 MiB of zeros in 106 bytes of brotli (libbrotlienc, quality 11): a decompression bomb.
    static let brotliBombBase64 = "y///P/gnAOKxQCD3/o///3/wTwDEYRGA7v0f////4J8AiMMCAN37P/7//8E/ARCHBQC693/8//+DfwIgDgsAdO//+P//B/8EQBwWAOje//H//w/+CYA4LADQvf/L//8//BMAcVgAoHv/Bw=="

    /// nginx on HTTPS with `http2` (ALPN): `/health` answers `{"protocol": "$server_protocol"}`,
    /// `/brotli.json` is a static file sent with `Content-Encoding: br`, `/bomb.json` too
    /// (``brotliBombBase64``), and `/corrupt.json` is text sent as `Content-Encoding: gzip`.
    static func startNginx(certificate: String, key: String) async throws -> ServerProcess {
        guard let nginx = TransportFixtures.nginxPath else { throw HarnessError("nginx is not installed (apt-get install nginx-light)") }
        let directory = try makeDirectory("nginx")
        let html = directory.appendingPathComponent("html")
        try FileManager.default.createDirectory(at: html, withIntermediateDirectories: true)
        try Data(base64Encoded: brotliBase64)!.write(to: html.appendingPathComponent("brotli.json"))
        try Data(base64Encoded: brotliBombBase64)!.write(to: html.appendingPathComponent("bomb.json"))
        try Data("not gzip at all".utf8).write(to: html.appendingPathComponent("corrupt.json"))
        for attempt in 1...5 {
            let port = try RawHTTP.portFreeAMomentAgo()
            let prefix = directory.path
            let conf = """
                \(getuid() == 0 ? "user root root;" : "")
                worker_processes 1;
                daemon off;
                pid \(prefix)/nginx.pid;
                error_log \(prefix)/error.log warn;
                events { worker_connections 64; }
                http {
                    access_log off;
                    client_body_temp_path \(prefix)/tmp-body;
                    proxy_temp_path \(prefix)/tmp-proxy;
                    fastcgi_temp_path \(prefix)/tmp-fastcgi;
                    uwsgi_temp_path \(prefix)/tmp-uwsgi;
                    scgi_temp_path \(prefix)/tmp-scgi;
                    server {
                        listen 127.0.0.1:\(port) ssl http2;
                        ssl_certificate \(certificate);
                        ssl_certificate_key \(key);
                        root \(html.path);
                        location = /health {
                            default_type application/json;
                            return 200 '{"status": "ok", "protocol": "$server_protocol"}';
                        }
                        location = /brotli.json {
                            default_type application/json;
                            add_header Content-Encoding br;
                        }
                        location = /bomb.json {
                            default_type application/json;
                            add_header Content-Encoding br;
                        }
                        location = /corrupt.json {
                            default_type application/json;
                            add_header Content-Encoding gzip;
                        }
                    }
                }
                """
            let confFile = directory.appendingPathComponent("nginx-\(attempt).conf")
            try conf.write(to: confFile, atomically: true, encoding: .utf8)
            let box = try LaunchedProcess.launch([nginx, "-p", prefix, "-c", confFile.path, "-e", "\(prefix)/error.log"],
                                                 log: directory.appendingPathComponent("server.log"))
            do {
                _ = try await waitFor(box: box, directory: directory) { canConnect(port) ? port : nil }
                return ServerProcess(port: port, scheme: "https", box: box, directory: directory)
            } catch {
                box.stop()
                if attempt == 5 { throw error }
            }
        }
        throw HarnessError("nginx did not start")
    }

    private static func makeDirectory(_ kind: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-transport-\(kind)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    private static func waitFor(box: LaunchedProcess, directory: URL, ready: () -> Int?) async throws -> Int {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        while clock.now < deadline {
            if let port = ready() { return port }
            if !box.isRunning { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        box.stop()
        let log = (try? String(contentsOf: directory.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
        throw HarnessError("server did not start within 30 s; its output:\n\(log)")
    }

    static func canConnect(_ port: Int) -> Bool {
        guard let fd = LoopbackSocket.connect(port: port) else { return false }
        close(fd)
        return true
    }

    /// A plain GET to this (HTTP) server, for its counters (`/__proxy_stats`).
    func getJSON(_ path: String) throws -> [String: Any] {
        try RawHTTP.getJSON(port: port, path: path)
    }
}

/// A loopback socket that listens but never accepts: connections complete in the kernel's
/// backlog, then nothing is ever said — a TLS handshake against it hangs.
final class SilentListener: Sendable {
    let port: Int
    private let fd: Int32

    init() throws {
        (fd, port) = try LoopbackSocket.bind(listening: true)
    }

    deinit { close(fd) }
}

/// Runs a workflow written to a fresh workspace and loads its JUnit report.
struct TransportRun {
    let result: ProcessResult
    let workspace: Workspace
    let junit: JUnitReport?

    static func run(_ yaml: String, files: [String: String] = [:], arguments: [String] = [],
                    environment: [String: String] = [:], junit: Bool = true,
                    sourceLocation: SourceLocation = #_sourceLocation) async throws -> TransportRun {
        try await run(yaml, in: Workspace(), files: files, arguments: arguments, environment: environment,
                      junit: junit, sourceLocation: sourceLocation)
    }

    static func run(_ yaml: String, in workspace: Workspace, files: [String: String] = [:], arguments: [String] = [],
                    environment: [String: String] = [:], junit: Bool = true,
                    sourceLocation: SourceLocation = #_sourceLocation) async throws -> TransportRun {
        try workspace.write("flow.yaml", yaml)
        for (path, contents) in files { try workspace.write(path, contents) }
        let reportArguments = junit ? ["--junit", "junit.xml"] : []
        let result = try await Courier.run(["run", "flow.yaml"] + reportArguments + arguments, in: workspace.url,
                                           environment: environment)
        var report: JUnitReport?
        if junit && workspace.exists("junit.xml") {
            report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"), sourceLocation: sourceLocation)
        }
        return TransportRun(result: result, workspace: workspace, junit: report)
    }

    /// The `<error>` of the step named `name`.
    func error(_ name: String) -> JUnitReport.Problem? { junit?.testCase(name)?.error }

    /// Seconds Courier measured for the step named `name` (its JUnit `time`): unlike the
    /// process's wall clock, it does not grow when a busy machine is slow to start processes.
    func seconds(_ name: String) -> Double { junit?.testCase(name)?.seconds ?? .infinity }
}
