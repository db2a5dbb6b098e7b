import Courier
import Foundation
import Testing

/// Every `APIError` kind produced by real responses and real transport failures.
@Suite("Library: error kinds")
struct LibraryErrorTests {
    /// The error `send` threw, or a recorded issue when it succeeded.
    func failure<E: Endpoint>(_ client: APIClient, _ endpoint: E,
                              sourceLocation: SourceLocation = #_sourceLocation) async -> APIError? {
        do {
            let response = try await client.send(endpoint)
            Issue.record("expected an error, got \(response)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    @Test("status codes map to kinds, with the status and body", arguments: [
        (401, APIError.Kind.unauthorized), (403, .forbidden), (404, .notFound), (418, .clientError),
        (422, .clientError), (500, .serverError), (503, .serverError),
    ])
    func statusKinds(status: Int, kind: APIError.Kind) async throws {
        let client = libraryClient(try await LibraryServers.shared.baseURL(.http))
        let error = try #require(await failure(client, GetStatus(code: status)))
        #expect(error.kind == kind)
        #expect(error.statusCode == status)
        let body = String(decoding: error.body ?? Data(), as: UTF8.self)
        #expect(body.contains("\"status\": \(status)"), "\(body)")
        await client.shutdown()
    }

    @Test("404 from the app's own route keeps the server's body")
    func notFoundBody() async throws {
        let client = libraryClient(try await LibraryServers.shared.baseURL(.http))
        let error = try #require(await failure(client, GetLibUser(id: 0)))
        #expect(error.kind == .notFound)
        #expect(error.isRetryable == false)
        #expect(error.bodyExcerpt()?.contains("no such user") == true)
        await client.shutdown()
    }

    @Test("429 is rate limited with the server's Retry-After")
    func rateLimited() async throws {
        let client = libraryClient(try await LibraryServers.shared.baseURL(.http))
        let error = try #require(await failure(client, GetStatus(code: 429, retryAfter: "7")))
        #expect(error.kind == .rateLimited)
        #expect(error.statusCode == 429)
        #expect(error.retryAfter == .seconds(7))
        #expect(error.isRetryable)
        await client.shutdown()
    }

    @Test("a wrong type deep in the body is a decoding error with its coding path and an excerpt")
    func decoding() async throws {
        let client = libraryClient(try await LibraryServers.shared.baseURL(.http))
        let error = try #require(await failure(client, GetBadUser()))
        #expect(error.kind == .decoding)
        #expect(error.statusCode == 200)
        #expect(error.codingPath == "team.memberCount", "\(error)")
        #expect(error.bodyExcerpt()?.contains("\"member_count\": \"many\"") == true)
        #expect(error.description.contains("team.memberCount"), "\(error)")
        await client.shutdown()
    }

    @Test("a response slower than configuration.timeout is a timeout")
    func timeout() async throws {
        let client = libraryClient(try await LibraryServers.shared.baseURL(.http)) { $0.timeout = .milliseconds(500) }
        let error = try #require(await failure(client, GetDelay(milliseconds: 5000)))
        #expect(error.kind == .timeout, "\(error)")
        #expect(error.statusCode == nil)
        #expect(error.isRetryable)
        await client.shutdown()
    }

    @Test("nothing listening is a transport error with libcurl's code (7)")
    func connectionRefused() async throws {
        let port = try RawHTTP.refusingPort()
        let client = libraryClient(try #require(URL(string: "http://127.0.0.1:\(port)")))
        let error = try #require(await failure(client, GetLibUser(id: 1)))
        #expect(error.kind == .transport, "\(error)")
        #expect(error.curlCode == 7)
        #expect(error.statusCode == nil)
        #expect(error.isRetryable)
        await client.shutdown()
    }

    @Test("a certificate from a CA the client does not trust is a TLS error")
    func untrustedCertificate() async throws {
        let client = libraryClient(try await LibraryServers.shared.baseURL(.https))
        let error = try #require(await failure(client, GetLibUser(id: 1)))
        #expect(error.kind == .tls, "\(error)")
        #expect(error.curlCode == 60, "\(error)")
        // The hint names the library's setting, not a YAML key or a command-line flag.
        #expect(!error.description.contains("--"), "\(error)")
        await client.shutdown()
    }

    @Test("the same server is trusted through configuration.tls.caCertificate")
    func trustedPrivateCA() async throws {
        let ca = try await LibraryServers.shared.certificate("ca.pem")
        let client = libraryClient(try await LibraryServers.shared.baseURL(.https)) { $0.tls.caCertificate = ca }
        let user = try await client.send(GetLibUser(id: 5))
        #expect(user.fullName == "User 5")
        await client.shutdown()
    }

    @Test("a base URL that is not http(s) is an invalid URL error, and nothing is sent")
    func invalidURL() async throws {
        let client = libraryClient(try #require(URL(string: "ftp://127.0.0.1/api")))
        let error = try #require(await failure(client, GetLibUser(id: 1)))
        #expect(error.kind == .invalidURL, "\(error)")
        #expect(error.statusCode == nil)
        await client.shutdown()
    }

    @Test("cancelling the task ends the transfer with kind cancelled")
    func cancelled() async throws {
        let client = libraryClient(try await LibraryServers.shared.baseURL(.http))
        let task = Task { () async -> Result<EmptyResponse, APIError> in
            do throws(APIError) {
                return .success(try await client.send(GetDelay(milliseconds: 20_000)))
            } catch {
                return .failure(error)
            }
        }
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        guard case .failure(let error) = await task.value else {
            Issue.record("a cancelled request succeeded")
            return
        }
        #expect(error.kind == .cancelled, "\(error)")
        await client.shutdown()
    }
}
