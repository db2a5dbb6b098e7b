import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A loopback HTTP listener that answers every request with one canned
/// response (then closes the connection): for spec examples whose response
/// shape (headers, cookies and JSON together) no testserver.py endpoint gives.
final class CannedServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let response: [UInt8]

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// `headers` are sent as given (repeat a name for repeated lines); Content-Length is added.
    init(status: Int = 200, headers: [(String, String)], body: String) throws {
        var text = "HTTP/1.1 \(status) Canned\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        text += "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        response = Array(text.utf8)

        (listener, port) = try LoopbackSocket.bind(listening: true)
        let thread = Thread { [weak self] in self?.acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 { return }
            readRequest(client)
            response.withUnsafeBytes { buffer in
                var sent = 0
                while sent < buffer.count {
                    let n = send(client, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                    if n <= 0 { break }
                    sent += n
                }
            }
            shutdown(client, Int32(SHUT_WR))
            close(client)
        }
    }

    /// Reads the head and a Content-Length body, so the client sees its request consumed.
    private func readRequest(_ client: Int32) {
        var data = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(client, &chunk, chunk.count, 0)
            if n <= 0 { return }
            data += chunk[0..<n]
            guard let text = String(bytes: data, encoding: .utf8), let end = text.range(of: "\r\n\r\n") else { continue }
            let head = text[..<end.lowerBound].lowercased()
            let declared = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            if text.utf8.count - text.utf8.distance(from: text.utf8.startIndex, to: end.upperBound.samePosition(in: text.utf8)!) >= declared { return }
        }
    }
}
