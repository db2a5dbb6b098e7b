import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A loopback HTTP listener that answers every request `200 {}` and keeps the raw requests:
/// a side channel through which a workflow can hand the test a value (e.g. a token only the
/// server knows) without that value passing through Courier's output.
final class RequestRecorder: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var requests: [String] = []

    var baseURL: String { "http://127.0.0.1:\(port)" }

    init() throws {
        (listener, port) = try LoopbackSocket.bind(listening: true)
        let thread = Thread { [weak self] in self?.acceptLoop() }
        thread.start()
    }

    /// Every request received so far, raw (request line, headers, body).
    var received: [String] {
        lock.lock()
        defer { lock.unlock() }
        return requests
    }

    /// The value of header `name` in the last request that has it.
    func lastHeader(_ name: String) -> String? {
        for request in received.reversed() {
            for line in request.components(separatedBy: "\r\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }

    private var stopped = false

    /// Stops listening; safe to call more than once (the descriptor is closed exactly once, so
    /// a number reused by another test's socket is never closed by mistake).
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        shutdown(listener, Int32(SHUT_RDWR))  // wakes the accept loop, which then ends
        close(listener)
    }

    deinit { stop() }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 { return }
            handle(client)
        }
    }

    private func handle(_ client: Int32) {
        defer { close(client) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let text = String(decoding: data, as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n") {
                let head = text[..<end.lowerBound].lowercased()
                let declared = head.components(separatedBy: "\r\n")
                    .first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if text[end.upperBound...].utf8.count >= declared { break }
            }
            let n = buffer.withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            data += buffer[0..<n]
        }
        lock.lock()
        requests.append(String(decoding: data, as: UTF8.self))
        lock.unlock()
        let response = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}".utf8)
        _ = response.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
    }
}
