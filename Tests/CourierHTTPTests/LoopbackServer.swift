import Foundation
import CourierHTTP
import CourierSync
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for the client's unit tests: a thread per
/// connection, keep-alive, `Content-Length` and chunked request bodies.
///
/// Routes: `/hello`, `/slow` (answers after 50 ms), `/fields` (field names in several spellings), `/bytes?n=N` (N bytes of a
/// known pattern), `/zeros?n=N`, `/echo-headers` (the request's header lines), `/echo-body`,
/// `/trickle` (announces 100 MB and sends 1 KiB every 20 ms until the client
/// leaves), `/stall` (reads the request, never answers).
final class LoopbackServer: @unchecked Sendable {
    // @unchecked: `listener` is set once in init; the rest sits behind locks (ThreadSanitizer sees PthreadLock).
    struct Stats {
        var requests = 0
        var inFlight = 0
        var peakInFlight = 0
        /// Connections whose request reached `/stall` or `/trickle` and are being held.
        var held = 0
    }

    let port: Int
    private let listener: Int32
    private let stats = PthreadLock(Stats())
    private let connections = PthreadLock<Set<Int32>>([])
    private let stopped = Atomic<Bool>(false)

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError("socket() failed") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound, listen(fd, 256) == 0 else {
            close(fd)
            throw ServerError("cannot listen on 127.0.0.1")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }
    var snapshot: Stats { stats.withLock { $0 } }

    /// Waits (bounded) until `condition` holds for the server's counters.
    /// Returns as soon as `condition` holds; the bound is generous because on a loaded
    /// two-core machine the tasks that make it hold may wait long for the pool (a 10 s bound
    /// once ran out in a full run).
    func wait(upTo seconds: Double = 60, until condition: (Stats) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if condition(snapshot) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition(snapshot)
    }

    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for fd in connections.withLock({ $0 }) { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    deinit { stop() }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        return address
    }

    // MARK: - Serving

    private func acceptLoop() {
        while !stopped.load(ordering: .relaxed) {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else {
                if errno == EINTR { continue }
                return
            }
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            connections.withLock { _ = $0.insert(fd) }
            let thread = Thread { [self] in
                serve(fd)
                connections.withLock { _ = $0.remove(fd) }
                close(fd)
            }
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        var reader = SocketReader(fd: fd)
        while let request = reader.readRequest() {
            stats.withLock {
                $0.requests += 1
                $0.inFlight += 1
                $0.peakInFlight = max($0.peakInFlight, $0.inFlight)
            }
            let keepOpen = respond(to: request, on: fd)
            stats.withLock { $0.inFlight -= 1 }
            if !keepOpen { return }
        }
    }

    /// Answers one request; false when the connection must close.
    private func respond(to request: Request, on fd: Int32) -> Bool {
        let path = request.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.target
        switch path {
        case "/hello":
            return send(fd, status: 200, body: Array("hello\n".utf8))
        case "/slow":
            usleep(50_000)
            return send(fd, status: 200, body: Array("slow\n".utf8))
        case "/bytes":
            let count = request.query("n").flatMap(Int.init) ?? 0
            guard sendAll(fd, Array("HTTP/1.1 200 OK\r\nContent-Length: \(count)\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)) else { return false }
            var sent = 0
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while sent < count {
                let size = min(chunk.count, count - sent)
                for index in 0..<size { chunk[index] = Self.patternByte(at: sent + index) }
                guard sendAll(fd, Array(chunk[0..<size])) else { return false }
                sent += size
            }
            return true
        case "/zeros":
            // Large bodies fast: one buffer sent again and again.
            let count = request.query("n").flatMap(Int.init) ?? 0
            guard sendAll(fd, Array("HTTP/1.1 200 OK\r\nContent-Length: \(count)\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)) else { return false }
            let zeros = [UInt8](repeating: 0, count: 256 * 1024)
            var sent = 0
            while sent < count {
                let size = min(zeros.count, count - sent)
                guard sendAll(fd, size == zeros.count ? zeros : Array(zeros[0..<size])) else { return false }
                sent += size
            }
            return true
        case "/a/r1", "/r2", "/r3":
            // A chain of redirects: a relative, a host-relative, then an absolute Location.
            let location = switch path {
            case "/a/r1": "../r2"
            case "/r2": "/r3"
            default: "http://127.0.0.1:\(port)/hello"
            }
            return sendAll(fd, Array("HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 0\r\n\r\n".utf8))
        case "/fields":
            // Field names spelled as servers spell them, and otherwise: each must come back as sent.
            let head = "HTTP/1.1 200 OK\r\nServer: loop\r\nDATE: Mon, 30 Nov 2026 21:00:00 GMT\r\ncontent-type: text/plain\r\n"
                + "Etag: \"a\"\r\nETag: \"b\"\r\nVary: Accept\r\nVary: Origin\r\nX-Caf\u{E9}: cr\u{E8}me\r\nContent-Length: 3\r\n\r\nabc"
            return sendAll(fd, Array(head.utf8))
        case "/echo-headers":
            return send(fd, status: 200, body: Array(request.headerLines.joined(separator: "\n").utf8))
        case "/echo-body":
            return send(fd, status: 200, body: request.body)
        case "/trickle":
            stats.withLock { $0.held += 1 }
            defer { stats.withLock { $0.held -= 1 } }
            guard sendAll(fd, Array("HTTP/1.1 200 OK\r\nContent-Length: 104857600\r\n\r\n".utf8)) else { return false }
            let kib = [UInt8](repeating: 0x61, count: 1024)
            while !stopped.load(ordering: .relaxed), sendAll(fd, kib) { usleep(20_000) }
            return false
        case "/stall":
            stats.withLock { $0.held += 1 }
            defer { stats.withLock { $0.held -= 1 } }
            // Hold until the client gives up (read returns 0 or fails).
            var byte: UInt8 = 0
            while !stopped.load(ordering: .relaxed), recv(fd, &byte, 1, 0) > 0 {}
            return false
        default:
            return send(fd, status: 404, body: Array("not found\n".utf8))
        }
    }

    /// The byte `/bytes` sends at `offset`.
    static func patternByte(at offset: Int) -> UInt8 { UInt8(truncatingIfNeeded: offset &* 31 &+ offset >> 8) }

    private func send(_ fd: Int32, status: Int, body: [UInt8]) -> Bool {
        let head = "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Not Found")\r\nContent-Length: \(body.count)\r\nContent-Type: text/plain\r\n\r\n"
        return sendAll(fd, Array(head.utf8) + body)
    }

    private func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }
}

struct ServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One parsed request.
struct Request {
    var method = ""
    var target = ""
    var headerLines: [String] = []
    var body: [UInt8] = []

    func header(_ name: String) -> String? {
        for line in headerLines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].lowercased() == name.lowercased() {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    func query(_ name: String) -> String? {
        guard let question = target.firstIndex(of: "?") else { return nil }
        for pair in target[target.index(after: question)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.first.map(String.init) == name { return parts.count > 1 ? String(parts[1]) : "" }
        }
        return nil
    }
}

/// Buffered reads of HTTP/1.1 requests from a socket.
struct SocketReader {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(fd: Int32) { self.fd = fd }

    private mutating func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }

    private mutating func line() -> String? {
        while true {
            if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var lineBytes = Array(buffer[..<end])
                if lineBytes.last == UInt8(ascii: "\r") { lineBytes.removeLast() }
                buffer.removeSubrange(...end)
                return String(decoding: lineBytes, as: UTF8.self)
            }
            guard fill() else { return nil }
        }
    }

    private mutating func bytes(_ count: Int) -> [UInt8]? {
        while buffer.count < count { guard fill() else { return nil } }
        defer { buffer.removeSubrange(..<count) }
        return Array(buffer[..<count])
    }

    mutating func readRequest() -> Request? {
        guard let first = line() else { return nil }
        let parts = first.split(separator: " ")
        guard parts.count >= 2 else { return nil }
        var request = Request(method: String(parts[0]), target: String(parts[1]))
        while let header = line(), !header.isEmpty { request.headerLines.append(header) }
        if request.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
            while let sizeLine = line(), let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) {
                if size == 0 {
                    while let trailer = line(), !trailer.isEmpty {}
                    break
                }
                guard let chunk = bytes(size) else { return nil }
                request.body += chunk
                _ = line()
            }
        } else if let length = request.header("Content-Length").flatMap(Int.init), length > 0 {
            guard let body = bytes(length) else { return nil }
            request.body = body
        }
        return request
    }
}
