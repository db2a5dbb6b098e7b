import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// One `Tests/Servers/testserver.py` on a free loopback port.
///
/// Suites get one with the `.testServer` trait (started before the suite's first test, stopped
/// with SIGTERM after its last); tests read it from `TestServer.current`.
final class TestServer: Sendable {
    private let server: PortFileServer
    var port: Int { server.port }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    @TaskLocal static var current: TestServer?

    /// The server of the enclosing `.testServer` suite.
    static func shared() throws -> TestServer {
        guard let server = current else {
            throw HarnessError("no test server: add the .testServer trait to the suite")
        }
        return server
    }

    private init(server: PortFileServer) {
        self.server = server
    }

    /// Starts the server and waits (at most ``Paths/serverStartSeconds``) for its port file.
    static func start() async throws -> TestServer {
        TestServer(server: try await PortFileServer.start(Paths.testServerScript, name: "server"))
    }

    /// Closes the launcher's stdin (it terminates the server), then SIGTERM and SIGKILL if need be.
    func stop() {
        server.stop()
    }

    /// A plain HTTP/1.1 GET over a socket (no proxies, no libcurl): the server's own view of
    /// things, e.g. `/auth/stats`.
    func get(_ path: String) throws -> (status: Int, body: String) {
        try RawHTTP.get(host: "127.0.0.1", port: port, path: path)
    }

    /// `get` + JSON object decoding.
    func getJSON(_ path: String) throws -> [String: Any] {
        try RawHTTP.getJSON(port: port, path: path)
    }
}

/// `.testServer`: one test server for the suite it is attached to.
struct TestServerTrait: SuiteTrait, TestTrait, TestScoping {
    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        // A test inside a suite that already has a server uses that one.
        if TestServer.current != nil && !test.isSuite {
            try await function()
            return
        }
        let server = try await TestServer.start()
        defer { server.stop() }
        try await TestServer.$current.withValue(server) {
            try await function()
        }
    }
}

extension Trait where Self == TestServerTrait {
    /// Starts a `testserver.py` for the suite (or test); see `TestServer.current`.
    static var testServer: Self { TestServerTrait() }
}

/// Minimal blocking HTTP client over a POSIX socket.
enum RawHTTP {
    static func get(host: String, port: Int, path: String) throws -> (status: Int, body: String) {
        guard let fd = LoopbackSocket.connect(host: host, port: port, receiveTimeoutSeconds: 10) else {
            throw HarnessError("connect to \(host):\(port) failed: errno \(errno)")
        }
        defer { close(fd) }
        let request = "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n\r\n"
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw HarnessError("write failed: errno \(errno)") }
            sent += n
        }
        var response = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            response += buffer[0..<n]
        }
        let text = String(decoding: response, as: UTF8.self)
        guard let headerEnd = text.range(of: "\r\n\r\n") else {
            throw HarnessError("malformed response from \(host):\(port)\(path): \(text)")
        }
        let statusLine = text[..<headerEnd.lowerBound].split(separator: "\r\n").first ?? ""
        let parts = statusLine.split(separator: " ")
        let status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        return (status, String(text[headerEnd.upperBound...]))
    }

    /// A GET answered 200 with a JSON object (counters, stats).
    static func getJSON(port: Int, path: String) throws -> [String: Any] {
        let (status, body) = try get(host: "127.0.0.1", port: port, path: path)
        guard status == 200,
              let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else {
            throw HarnessError("GET \(path) gave \(status): \(body)")
        }
        return object
    }

    /// A loopback port where a connection is refused, for as long as the test process runs.
    ///
    /// The socket stays bound (never listening, so a connect gets RST) and is never closed: a port
    /// that was bound and closed goes back to the kernel's pool, and a server another test starts
    /// in parallel can get it — CI once saw a canary's "dead" proxy request reach a recorder that
    /// had to stay empty. A few file descriptors held to the end are the price.
    static func refusingPort() throws -> Int {
        try LoopbackSocket.bind(listening: false).port
    }

    /// A loopback port free a moment ago, for a server that binds it itself (nginx): it may be
    /// taken again before that server starts, so the caller retries on a bind failure.
    static func portFreeAMomentAgo() throws -> Int {
        let (fd, port) = try LoopbackSocket.bind(listening: false)
        close(fd)
        return port
    }
}
