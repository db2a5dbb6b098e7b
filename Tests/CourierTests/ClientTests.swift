import Courier
import Foundation
import Testing

@Suite struct ClientTests {
    @Test func defaultHeadersAreSentAndEndpointHeadersReplaceThem() async throws {
        let mock = MockTransport(fallback: .text("ok"))
        var config = APIClient.Configuration()
        config.defaultHeaders = ["User-Agent": "app/1.0", "X-Tenant": "a"]
        _ = try await makeClient(mock, configuration: config).send(Get<String>(path: "/x", headers: ["x-tenant": "b", "X-Extra": "1"]))
        let headers = try #require(mock.requests.first?.headers)
        #expect(headers["User-Agent"] == "app/1.0")
        #expect(headers.values(for: "X-Tenant") == ["b"])
        #expect(headers["X-Extra"] == "1")
    }

    @Test func configurationReachesTheTransportRequest() async throws {
        let seen = Collector<HTTPRequestOptions>()
        let mock = MockTransport { _ in .status(204) }
        struct Spy: HTTPTransport {
            let inner: MockTransport
            let seen: Collector<HTTPRequestOptions>
            func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
                seen.append(request.options)
                return try await inner.send(request)
            }
        }
        var config = APIClient.Configuration()
        config.timeout = .milliseconds(2500)
        config.connectTimeout = .seconds(1)
        config.tls.caCertificate = "/ca.pem"
        config.tls.clientCertificate = .pkcs12(path: "/client.p12", password: "pw")
        config.tls.pinnedPublicKey = "sha256//abc"
        config.followRedirects = false
        let client = APIClient(baseURL: try #require(URL(string: "https://api.test")), configuration: config,
                               transport: Spy(inner: mock, seen: seen))
        _ = try await client.send(Get<EmptyResponse>(path: "/x"))
        let options = try #require(seen.all.first)
        #expect(options.timeoutMilliseconds == 2500)
        #expect(options.connectTimeoutMilliseconds == 1000)
        #expect(options.tls.caPath == "/ca.pem")
        #expect(options.tls.certificatePath == "/client.p12")
        #expect(options.tls.password == "pw")
        #expect(options.tls.pinnedPublicKey == "sha256//abc")
        #expect(options.followRedirects == false)
    }

    @Test func cancellingASendInFlightIsCancelled() async throws {
        let mock = MockTransport(fallback: .text("late", delay: .seconds(30)))
        let client = makeClient(mock)
        let task = Task { try await client.send(Get<String>(path: "/slow")) }
        for _ in 0..<5000 where mock.requests.isEmpty { try await Task.sleep(for: .milliseconds(2)) }
        task.cancel()
        let result = await task.result
        guard case .failure(let error as APIError) = result else { Issue.record("expected an APIError, got \(result)"); return }
        #expect(error.kind == .cancelled)
    }

    @Test func aTaskCancelledBeforeSendingIsCancelled() async throws {
        let mock = MockTransport(fallback: .text("ok"))
        let client = makeClient(mock)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.send(Get<String>(path: "/x"))
        }
        let result = await task.result
        guard case .failure(let error as APIError) = result else { Issue.record("expected an APIError, got \(result)"); return }
        #expect(error.kind == .cancelled)
    }

    @Test func uploadReportsProgressFromZeroToOne() async throws {
        let mock = MockTransport(fallback: .text("stored"))
        let seen = Collector<Double>()
        var form = MultipartForm()
        form.addData(name: "f", data: Data(count: 1000), filename: "f.bin")
        let text = try await makeClient(mock).upload(Get<String>(path: "/upload", method: .post, body: .multipart(form))) { seen.append($0) }
        #expect(text == "stored")
        // Progress runs on a task of its own; the last call happens before upload returns.
        #expect(seen.all.first == 0)
        #expect(seen.all.last == 1)
        #expect(seen.all == seen.all.sorted())
    }

    @Test func downloadWritesTheFileAndReportsProgress() async throws {
        let payload = Data((0..<5000).map { UInt8($0 % 251) })
        let mock = MockTransport(fallback: .status(200, headers: ["Content-Length": "5000"], body: payload))
        let seen = Collector<Double>()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-dl-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let response = try await makeClient(mock).download(GetUser(id: 1), to: file) { seen.append($0) }
        #expect(response.status == 200)
        #expect(mock.requests.first?.headers["Accept"] == nil)  // the body is not decoded
        #expect(response.body.isEmpty)
        #expect(try Data(contentsOf: file) == payload)
        #expect(seen.all.first == 0)
        #expect(seen.all.last == 1)
    }

    @Test func aFailedDownloadRemovesTheFileAndKeepsTheBodyInTheError() async throws {
        let mock = MockTransport(fallback: .text("gone", status: 410))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-dl-\(UUID().uuidString)")
        let error = await #expect(throws: APIError.self) { try await makeClient(mock).download(Get<Data>(path: "/file"), to: file) }
        #expect(error?.kind == .clientError)
        #expect(error?.body == Data("gone".utf8))
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func httpMethodAcceptsAnyToken() {
        let purge: HTTPMethod = "PURGE"
        #expect(purge.rawValue == "PURGE")
        #expect(!purge.isIdempotent)
        #expect(HTTPMethod.put.isIdempotent)
        #expect(!HTTPMethod.post.isIdempotent)
    }
}

@Suite struct PartialDownloadTests {
    /// Writes half a body to the destination, then fails as a timeout mid-body would.
    struct HalfThenTimeout: HTTPTransport {
        func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
            if case .file(let path) = request.responseBody {
                _ = FileManager.default.createFile(atPath: path, contents: Data("partial".utf8))
            }
            throw HTTPError(kind: .timeout, curlCode: 28, message: "timed out mid-body")
        }
    }

    @Test func aPartialFileIsRemovedButAFileThatWasThereIsNot() async throws {
        let client = APIClient(baseURL: try #require(URL(string: "https://api.test")), transport: HalfThenTimeout())
        let fresh = FileManager.default.temporaryDirectory.appendingPathComponent("courier-dl-\(UUID().uuidString)")
        let error = await #expect(throws: APIError.self) { try await client.download(Get<Data>(path: "/f"), to: fresh) }
        #expect(error?.kind == .timeout)
        #expect(!FileManager.default.fileExists(atPath: fresh.path))

        let existing = FileManager.default.temporaryDirectory.appendingPathComponent("courier-dl-\(UUID().uuidString)")
        #expect(FileManager.default.createFile(atPath: existing.path, contents: Data("old".utf8)))
        defer { try? FileManager.default.removeItem(at: existing) }
        _ = await #expect(throws: APIError.self) { try await client.download(Get<Data>(path: "/f"), to: existing) }
        #expect(FileManager.default.fileExists(atPath: existing.path))
    }
}
