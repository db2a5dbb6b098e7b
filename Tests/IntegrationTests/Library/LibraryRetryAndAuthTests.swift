import Courier
import Foundation
import Testing

/// Retries and token refresh, counted by the server.
@Suite("Library: retries and token refresh")
struct LibraryRetryAndAuthTests {
    @Test("503 twice, then 200: three attempts on the server, the third one's body decoded")
    func retriesOn503() async throws {
        let client = libraryClient(try await LibraryServers.shared.baseURL(.http)) {
            $0.retry = RetryPolicy(attempts: 3, delay: .milliseconds(10), jitter: false)
        }
        let key = uniqueKey("retry503")
        let response = try await client.send(Flaky(key: key, fail: 2))
        #expect(response.ok)
        #expect(response.attempt == 3)
        await client.shutdown()
    }

    @Test("503 more often than the policy allows: serverError after exactly `attempts` attempts")
    func retriesExhausted() async throws {
        let client = libraryClient(try await LibraryServers.shared.baseURL(.http)) {
            $0.retry = RetryPolicy(attempts: 2, delay: .milliseconds(10), jitter: false)
        }
        let key = uniqueKey("retry503-exhausted")
        do {
            let response = try await client.send(Flaky(key: key, fail: 5))
            Issue.record("succeeded at attempt \(response.attempt)")
        } catch {
            #expect(error.kind == .serverError)
            #expect(error.statusCode == 503)
            #expect(error.attempts == 2)
        }
        // The server saw two attempts: the next call is its third.
        var config = APIClient.Configuration()
        config.keyDecodingStrategy = .convertFromSnakeCase
        let probe = APIClient(baseURL: try await LibraryServers.shared.baseURL(.http), configuration: config)
        let error = await #expect(throws: APIError.self) { try await probe.send(Flaky(key: key, fail: 5)) }
        #expect(error?.body.map { String(decoding: $0, as: UTF8.self) }?.contains("\"attempt\": 3") == true)
        await probe.shutdown()
        await client.shutdown()
    }

    @Test("429 with Retry-After: 1 is retried after the wait, and succeeds")
    func retriesOn429() async throws {
        let client = libraryClient(try await LibraryServers.shared.baseURL(.http)) {
            $0.retry = RetryPolicy(attempts: 2, delay: .milliseconds(10), jitter: false)
        }
        var endpoint = Flaky(key: uniqueKey("retry429"), fail: 1, status: 429)
        endpoint.retryAfter = "1"
        let response = try await client.send(endpoint)
        #expect(response.ok)
        #expect(response.attempt == 2)
        await client.shutdown()
    }

    @Test("a POST is not resent after a 503 (it reached the server)")
    func postNotRetried() async throws {
        let client = libraryClient(try await LibraryServers.shared.baseURL(.http)) {
            $0.retry = RetryPolicy(attempts: 3, delay: .milliseconds(10), jitter: false)
        }
        let key = uniqueKey("retry-post")
        var endpoint = Flaky(key: key, fail: 1)
        endpoint.method = .post
        do {
            let response = try await client.send(endpoint)
            Issue.record("POST was resent: attempt \(response.attempt)")
        } catch {
            #expect(error.kind == .serverError)
            #expect(error.attempts == 1)
        }
        await client.shutdown()
    }

    @Test("50 concurrent requests with an expired token: one refresh on the server, at least 40 in flight at once")
    func concurrentRefresh() async throws {
        let base = try await LibraryServers.shared.baseURL(.http)
        let key = uniqueKey("refresh")
        // The identity provider: the same server, through a client of its own without an authenticator.
        let tokenClient = libraryClient(base)
        let authenticator = TokenAuthenticator(token: "expired-token") {
            try await tokenClient.send(FetchToken(key: key)).accessToken
        }
        let client = libraryClient(base) { $0.authenticator = authenticator }

        let count = 50
        let results = await withTaskGroup(of: Result<Gather.Response, APIError>.self) { group in
            for _ in 0..<count {
                group.addTask {
                    do throws(APIError) { return .success(try await client.send(Gather(key: key, n: count))) } catch { return .failure(error) }
                }
            }
            var all: [Result<Gather.Response, APIError>] = []
            for await result in group { all.append(result) }
            return all
        }
        let failures = results.compactMap { result -> APIError? in
            if case .failure(let error) = result { return error }
            return nil
        }
        #expect(failures.isEmpty, "\(failures.prefix(3))")

        let stats = try await tokenClient.send(GatherStats(key: key))
        #expect(stats.refreshes == 1, "the server saw \(stats.refreshes) refreshes")
        #expect(await authenticator.refreshCount == 1)
        #expect(stats.ok == count)
        #expect(stats.unauthorized >= 1 && stats.unauthorized <= count)
        #expect(stats.peak >= 40, "at most \(stats.peak) requests were in flight at once")
        await client.shutdown()
        await tokenClient.shutdown()
    }

    @Test("a token the server keeps rejecting: one refresh, then unauthorized")
    func refreshDoesNotLoop() async throws {
        let base = try await LibraryServers.shared.baseURL(.http)
        let key = uniqueKey("refresh-rejected")
        let authenticator = TokenAuthenticator(token: "expired-token") { "never-valid" }
        let client = libraryClient(base) { $0.authenticator = authenticator }
        do {
            let response = try await client.send(Gather(key: key, n: 1))
            Issue.record("accepted: \(response)")
        } catch {
            #expect(error.kind == .unauthorized)
            #expect(error.statusCode == 401)
            #expect(!error.description.contains("never-valid"), "the token leaks: \(error)")
        }
        #expect(await authenticator.refreshCount == 1)
        let stats = try await client.send(GatherStats(key: key))
        #expect(stats.unauthorized == 2)
        await client.shutdown()
    }
}
