import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One `Tests/Servers/raw_echo.py` on a free loopback port: it keeps every request's exact
/// bytes (request line, header block, body) and answers `418` with them.
final class RawEchoServer: Sendable {
    private let server: PortFileServer
    var port: Int { server.port }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    private init(server: PortFileServer) {
        self.server = server
    }

    static var script: URL { Paths.packageRoot.appendingPathComponent("Tests/Servers/raw_echo.py") }

    /// Starts the server and waits (at most ``Paths/serverStartSeconds``) for its port file.
    static func start() async throws -> RawEchoServer {
        RawEchoServer(server: try await PortFileServer.start(script, name: "raw-echo"))
    }

    func stop() {
        server.stop()
    }

    /// How many requests the server has kept.
    func count() throws -> Int {
        let (status, body) = try RawHTTP.get(host: "127.0.0.1", port: port, path: "/__raw_echo/count")
        guard status == 200, let count = Int(body) else { throw HarnessError("raw echo count: \(status) \(body)") }
        return count
    }

    /// The `index`-th request kept (0-based), as received.
    func request(_ index: Int) throws -> [UInt8] {
        guard let fd = LoopbackSocket.connect(host: "127.0.0.1", port: port, receiveTimeoutSeconds: 10) else {
            throw HarnessError("connect to the raw echo server failed: errno \(errno)")
        }
        defer { close(fd) }
        let request = Array("GET /__raw_echo/log/\(index) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var response = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            response += buffer[0..<n]
        }
        let marker = Array("\r\n\r\n".utf8)
        guard let end = response.firstRange(of: marker),
              String(decoding: response[..<end.lowerBound], as: UTF8.self).hasPrefix("HTTP/1.1 200") else {
            throw HarnessError("no request \(index) kept by the raw echo server: \(String(decoding: response, as: UTF8.self))")
        }
        return Array(response[end.upperBound...])
    }
}
