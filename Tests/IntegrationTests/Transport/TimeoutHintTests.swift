import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A timeout's hint names what ran out: the connection ('connect_timeout') or the response
/// ('timeout'), also on a keep-alive connection reused from an earlier step.
@Suite("timeout hints", .testServer)
struct TimeoutHintTests {
    @Test("a response timeout on a reused connection has the response-timeout hint, not the connect one")
    func reusedConnection() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("reuse.yaml", """
            name: reuse
            steps:
              - name: opens the connection
                request: { url: "{{ base_url }}/health" }
              - name: slow on the same connection
                request: { url: "{{ base_url }}/delay?ms=3000", timeout: 400ms }
            """)
        let result = try await Courier.run(files: ["reuse.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml"])
        #expect(result.status == 1, result.context)
        #expect(result.stdout.lines.contains("note: no response within 400 ms ('timeout'); raise it if the server is just slow"), result.context)
        #expect(!result.stdout.contains("connect_timeout"), result.context)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        let slow = try #require(report.testCase("slow on the same connection"))
        #expect(slow.error?.type == "timeout")
        #expect(slow.error?.text.contains("hint: no response within 400 ms ('timeout')") == true, "\(String(describing: slow.error))")
    }

    @Test("a connect timeout (a listener whose backlog is full) keeps the connect hint")
    func connectTimeout() async throws {
        let listener = try FullBacklogListener()
        defer { listener.close() }
        let workspace = try Workspace()
        try workspace.write("connect.yaml", """
            name: connect
            steps:
              - name: never accepted
                request: { url: "http://127.0.0.1:\(listener.port)/", connect_timeout: 300ms, timeout: 5s }
            """)
        let result = try await Courier.run(["run", "connect.yaml"], in: workspace.url)
        #expect(result.status == 1, result.context)
        #expect(result.stdout.lines.contains("note: no connection to 127.0.0.1:\(listener.port) within 300 ms ('connect_timeout'); is the host reachable?"),
                result.context)
    }
}

/// A loopback listener that never accepts, with its accept queue filled: the kernel drops
/// further SYNs, so a client's connect times out as against an unreachable host.
private struct FullBacklogListener {
    let port: Int
    private let descriptors: [Int32]

    init() throws {
        let listener = try LoopbackSocket.bind(listening: false)
        guard listen(listener.fd, 0) == 0 else {
            Glibc.close(listener.fd)
            throw HarnessError("listen() failed: errno \(errno)")
        }
        var descriptors = [listener.fd]
        // A backlog of 0 still queues a connection or two: fill the queue with connects that
        // do not wait (a blocking one would hang once it is full).
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(listener.port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        for _ in 0..<3 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard fd >= 0 else { continue }
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            descriptors.append(fd)
        }
        // Let the handshakes that fit complete before the client under test arrives.
        usleep(200_000)
        self.port = listener.port
        self.descriptors = descriptors
    }

    func close() {
        for fd in descriptors { Glibc.close(fd) }
    }
}
