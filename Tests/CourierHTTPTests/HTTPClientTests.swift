import CourierHTTP
import CourierSync
import Foundation
import Synchronization
import Testing

/// `HTTPClient` against a loopback server: concurrency, cancellation, shutdown,
/// timeouts, streaming and handle reuse. Waits are bounded; no assertion is on
/// wall-clock time except hang guards.
@Suite struct HTTPClientTests {
    /// Fails the test instead of hanging when `operation` does not finish in time.
    func withHangGuard<T: Sendable>(seconds: Int = 60, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw ServerError("hung for more than \(seconds) s")
            }
            return value
        }
    }

    /// For transfers whose other end is a task of the test: a 5-minute limit, since what they
    /// check is what arrives, and the whole suite on two cores can starve that task for a while.
    static var patientOptions: HTTPRequestOptions {
        var options = HTTPRequestOptions()
        options.timeoutMilliseconds = 300_000
        return options
    }

    func kind(of operation: () async throws(HTTPError) -> HTTPResponse) async -> HTTPError.Kind? {
        do throws(HTTPError) {
            _ = try await operation()
            return nil
        } catch {
            return error.kind
        }
    }

    @Test func redirectHopsCarryTheURLsLibcurlFetched() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = HTTPClient()
        let base = server.baseURL
        let response = try await withHangGuard { try await client.execute(HTTPRequest(url: "\(base)/a/r1")) }
        #expect(response.status == 200)
        #expect(response.redirects.map(\.status) == [302, 302, 302])
        #expect(response.redirects.map(\.url) == ["\(base)/a/r1", "\(base)/r2", "\(base)/r3"])
        #expect(response.effectiveURL == "\(base)/hello")
    }

    @Test func hundredConcurrentTransfersAllSucceed() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = HTTPClient()
        let statuses = try await withHangGuard {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<100 {
                    group.addTask { try await client.send(HTTPRequest(url: "\(server.baseURL)/slow?i=\(index)")).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
        }
        #expect(statuses.count == 100)
        #expect(statuses.allSatisfy { $0 == 200 })
        #expect(server.snapshot.requests == 100)
        // They ran side by side, not one after the other.
        #expect(server.snapshot.peakInFlight > 1)
        await client.shutdown()
    }

    @Test func cancellingMidBodyAbortsTheTransfer() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = HTTPClient()
        let started = Atomic<Bool>(false)
        let request = HTTPRequest(url: "\(server.baseURL)/trickle", onProgress: { progress in
            if progress.downloaded > 0 { started.store(true, ordering: .relaxed) }
        })
        let task = Task { await kind { () async throws(HTTPError) in try await client.send(request) } }
        let bodyArrived = try await withHangGuard {
            while !started.load(ordering: .relaxed) { try await Task.sleep(for: .milliseconds(5)) }
            return true
        }
        #expect(bodyArrived)
        task.cancel()
        let result = try await withHangGuard { await task.value }
        #expect(result == .cancelled)
        // The server sees the connection go away.
        #expect(await server.wait { $0.held == 0 })
        await client.shutdown()
    }

    @Test func cancellingBeforeSendingNeverStartsTheTransfer() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = HTTPClient()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await kind { () async throws(HTTPError) in try await client.send(HTTPRequest(url: "\(server.baseURL)/hello")) }
        }
        let result = try await withHangGuard { await task.value }
        #expect(result == .cancelled)
        #expect(server.snapshot.requests == 0)
        // The client is still fine afterwards.
        let response = try await client.send(HTTPRequest(url: "\(server.baseURL)/hello"))
        #expect(response.status == 200)
        await client.shutdown()
    }

    @Test func shutdownFailsTransfersInFlightPromptly() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = HTTPClient()
        let tasks = (0..<5).map { _ in
            Task { await kind { () async throws(HTTPError) in try await client.send(HTTPRequest(url: "\(server.baseURL)/stall")) } }
        }
        #expect(await server.wait { $0.held == 5 })
        try await withHangGuard { await client.shutdown() }
        for task in tasks {
            let result = try await withHangGuard { await task.value }
            #expect(result == .clientShutDown)
        }
    }

    @Test func sendingAfterShutdownThrowsAtOnce() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = HTTPClient()
        _ = try await client.send(HTTPRequest(url: "\(server.baseURL)/hello"))
        await client.shutdown()
        let result = try await withHangGuard {
            await kind { () async throws(HTTPError) in try await client.send(HTTPRequest(url: "\(server.baseURL)/hello")) }
        }
        #expect(result == .clientShutDown)
        // A second shutdown returns too.
        try await withHangGuard { await client.shutdown() }
        #expect(server.snapshot.requests == 1)
    }

    @Test func droppingTheClientWithTransfersInFlightDoesNotHang() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        var client: HTTPClient? = HTTPClient()
        weak let weakClient = client
        _ = try await client?.send(HTTPRequest(url: "\(server.baseURL)/hello"))
        client = nil
        #expect(weakClient == nil)
    }

    @Test func totalTimeout() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = HTTPClient()
        var options = HTTPRequestOptions()
        options.timeoutMilliseconds = 200
        let request = HTTPRequest(url: "\(server.baseURL)/stall", options: options)
        let result = try await withHangGuard { await kind { () async throws(HTTPError) in try await client.send(request) } }
        #expect(result == .timeout)
        await client.shutdown()
    }

    @Test func connectTimeout() async throws {
        // A listener whose accept queue is full drops further SYNs: connecting hangs.
        let (listener, port) = try BacklogFullListener.make()
        defer { listener.close() }
        let client = HTTPClient()
        var options = HTTPRequestOptions()
        options.connectTimeoutMilliseconds = 200
        let request = HTTPRequest(url: "http://127.0.0.1:\(port)/", options: options)
        let error = try await withHangGuard { () -> HTTPError? in
            do throws(HTTPError) {
                _ = try await client.send(request)
                return nil
            } catch {
                return error
            }
        }
        #expect(error?.kind == .timeout)
        #expect(error?.curlOption == "CURLOPT_CONNECTTIMEOUT_MS")
        await client.shutdown()
    }

    @Test func downloadToFile() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = HTTPClient()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("courier-http-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let size = 8 * 1024 * 1024 + 17
        let response = try await client.send(HTTPRequest(url: "\(server.baseURL)/bytes?n=\(size)", responseBody: .file(path: path)))
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        let written = try #require(FileManager.default.contents(atPath: path))
        #expect(written.count == size)
        #expect(written.enumerated().allSatisfy { $0.element == LoopbackServer.patternByte(at: $0.offset) })
        await client.shutdown()
    }

    @Test func downloadToAnUnwritablePathFailsWithThePath() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = HTTPClient()
        let path = "/nonexistent-courier-dir/out.bin"
        do throws(HTTPError) {
            _ = try await client.send(HTTPRequest(url: "\(server.baseURL)/bytes?n=10", responseBody: .file(path: path)))
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .fileUnwritable)
            #expect(error.path == path)
        }
        #expect(server.snapshot.requests == 0)
        await client.shutdown()
    }

    /// A download into a FIFO that nobody reads fails at once, naming the pipe, instead of
    /// blocking the driver thread (and every other transfer) in `open`; one with a reader is
    /// written through.
    @Test func downloadToAFIFOWithoutAReaderFailsAtOnce() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = HTTPClient()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("courier-fifo-\(UUID().uuidString)").path
        try #require(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        do throws(HTTPError) {
            _ = try await client.send(HTTPRequest(url: "\(server.baseURL)/bytes?n=10", responseBody: .file(path: path)))
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .fileUnwritable)
            #expect(error.message.contains("pipe (FIFO) that no process is reading"), "\(error.message)")
        }
        // The client still works: the driver thread was not stuck.
        #expect(try await client.send(HTTPRequest(url: "\(server.baseURL)/bytes?n=3")).status == 200)

        // With a reader (opened without waiting for a writer), the body goes through the pipe.
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        let response = try await client.send(HTTPRequest(url: "\(server.baseURL)/bytes?n=100", responseBody: .file(path: path)))
        #expect(response.status == 200)
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(reader, &buffer, buffer.count)
        #expect(count == 100)
        await client.shutdown()
    }

    @Test func progressIsMonotonicAndReachesTheTotal() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = HTTPClient()
        let seen = PthreadLock<[HTTPProgress]>([])
        let size = 4 * 1024 * 1024
        let request = HTTPRequest(url: "\(server.baseURL)/bytes?n=\(size)", onProgress: { progress in
            seen.withLock { $0.append(progress) }
        })
        _ = try await client.send(request)
        let updates = seen.withLock { $0 }
        #expect(!updates.isEmpty)
        for (earlier, later) in zip(updates, updates.dropFirst()) {
            #expect(later.downloaded >= earlier.downloaded)
        }
        #expect(updates.last?.downloaded == Int64(size))
        #expect(updates.last?.downloadTotal == Int64(size))
        #expect(updates.last?.downloadFraction == 1)
        await client.shutdown()
    }

    @Test func uploadProgressReachesTheBodySize() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = HTTPClient()
        let last = PthreadLock<HTTPProgress?>(nil)
        let body = [UInt8](repeating: 7, count: 3 * 1024 * 1024)
        let request = HTTPRequest(method: "POST", url: "\(server.baseURL)/echo-body", body: .bytes(body), onProgress: { progress in
            last.withLock { $0 = progress }
        })
        let response = try await client.send(request)
        #expect(response.body == body)
        #expect(last.withLock { $0?.uploaded } == Int64(body.count))
        #expect(last.withLock { $0?.uploadFraction } == 1)
        await client.shutdown()
    }

    @Test(arguments: [true, false]) func requestBodyFromAStream(knownLength: Bool) async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = HTTPClient()
        let chunks = (0..<48).map { index in [UInt8](repeating: UInt8(index), count: 64 * 1024) }
        let total = chunks.reduce(0) { $0 + $1.count }
        let upload = HTTPRequestBodyStream(length: knownLength ? Int64(total) : nil, bufferLimit: 128 * 1024)
        let writer = Task {
            for chunk in chunks { try await upload.write(chunk) }
            upload.finish()
        }
        // Streams correctness, not speed: the writer is a task of the cooperative pool, which a
        // loaded machine running the whole suite may keep busy for tens of seconds.
        let response = try await withHangGuard(seconds: 300) {
            try await client.send(HTTPRequest(method: "PUT", url: "\(server.baseURL)/echo-body", body: .stream(upload),
                                              options: Self.patientOptions))
        }
        try await writer.value
        #expect(response.status == 200)
        #expect(response.body == chunks.flatMap { $0 })
        await client.shutdown()
    }

    @Test func responseBodyAsAStreamWithBackPressure() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = HTTPClient()
        let size = 4 * 1024 * 1024
        let stream = HTTPResponseBodyStream(bufferLimit: 64 * 1024)
        let sending = Task {
            try await client.send(HTTPRequest(url: "\(server.baseURL)/bytes?n=\(size)", options: Self.patientOptions, responseBody: .stream(stream)))
        }
        // The reader is a task of the cooperative pool, which a loaded machine may keep busy.
        let received = try await withHangGuard(seconds: 300) {
            var received: [UInt8] = []
            var chunks = 0
            for try await chunk in stream {
                received += chunk
                chunks += 1
                // A slow reader: the transfer must pause rather than buffer everything.
                if chunks % 16 == 0 { try await Task.sleep(for: .milliseconds(1)) }
            }
            return received
        }
        let response = try await withHangGuard { try await sending.value }
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(received.count == size)
        #expect(received.enumerated().allSatisfy { $0.element == LoopbackServer.patternByte(at: $0.offset) })
        await client.shutdown()
    }

    @Test func aReusedHandleCarriesNothingOfThePreviousRequest() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = HTTPClient()
        let url = "\(server.baseURL)/echo-headers"
        let credentialed = url.replacingOccurrences(of: "http://", with: "http://user:secret@")
        var headers = HTTPHeaders()
        headers.add(name: "X-Secret", value: "canary-1234")
        var options = HTTPRequestOptions()
        options.cookieJar = CookieJar()
        let first = try await client.send(HTTPRequest(url: credentialed, headers: headers, options: options))
        #expect(first.text.contains("X-Secret: canary-1234"))
        #expect(first.text.contains("Authorization: Basic"))
        let second = try await client.send(HTTPRequest(url: url))
        // Same connection, so the same pooled handle.
        #expect(second.reusedConnection)
        #expect(!second.text.contains("X-Secret"))
        #expect(!second.text.contains("Authorization"))
        #expect(second.sentRequests.isEmpty)
        await client.shutdown()
    }
}

/// A loopback listener that never accepts and whose queue is full, so a new
/// connection attempt hangs until the client's connect timeout.
final class BacklogFullListener: Sendable {
    private let listener: Int32
    private let fillers: [Int32]

    private init(listener: Int32, fillers: [Int32]) {
        self.listener = listener
        self.fillers = fillers
    }

    static func make() throws -> (BacklogFullListener, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = LoopbackServer.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard fd >= 0, bound, listen(fd, 0) == 0 else { throw ServerError("cannot listen") }
        let port = Int(UInt16(bigEndian: address.sin_port))
        // Fill the accept queue with connections nobody accepts (non-blocking: the
        // ones past the queue's size simply stay pending).
        var fillers: [Int32] = []
        for _ in 0..<4 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            var target = LoopbackServer.loopback(port: port)
            _ = withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            fillers.append(filler)
        }
        usleep(50_000)
        return (BacklogFullListener(listener: fd, fillers: fillers), port)
    }

    func close() {
        for filler in fillers { _ = Glibc.close(filler) }
        _ = Glibc.close(listener)
    }
}

/// Header injection: a line break in a header would become header lines of its own.
@Suite struct HeaderLineBreakTests {
    @Test(arguments: ["evil\r\nX-Injected: 1", "first\nsecond", "nul\u{0}byte"])
    func aValueWithALineBreakIsRefusedAndNothingIsSent(value: String) async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = HTTPClient()
        do throws(HTTPError) {
            _ = try await client.execute(HTTPRequest(url: "\(server.baseURL)/hello", headers: ["X-Key": value]))
            Issue.record("the request was sent")
        } catch {
            #expect(error.kind == .invalidHeader)
            #expect(error.message.contains("'X-Key'"))
            // The value may be a secret: never quoted.
            #expect(!error.description.contains("evil") && !error.description.contains("second") && !error.description.contains("byte"))
        }
        // A request without the break then goes through: the server saw only that one.
        let response = try await client.execute(HTTPRequest(url: "\(server.baseURL)/hello", headers: ["X-Key": "fine"]))
        #expect(response.status == 200)
        #expect(server.snapshot.requests == 1)
    }
}
