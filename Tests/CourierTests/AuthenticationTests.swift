import Courier
import Foundation
import Synchronization
import Testing

@Suite struct AuthenticationTests {
    /// 200 for `Bearer fresh-<n>`, 401 for anything else.
    static func server(accepting valid: @escaping @Sendable (String?) -> Bool) -> MockTransport {
        MockTransport { request in
            valid(request.headers["Authorization"]) ? .text("ok", delay: .milliseconds(40)) : .status(401, delay: .milliseconds(40))
        }
    }

    @Test func aBearerTokenIsSent() async throws {
        let mock = Self.server { $0 == "Bearer t0" }
        var config = APIClient.Configuration()
        let auth = TokenAuthenticator(token: "t0") { "never" }
        config.authenticator = auth
        _ = try await makeClient(mock, configuration: config).send(Get<String>(path: "/me"))
        #expect(mock.requests.map { $0.headers["Authorization"] } == ["Bearer t0"])
        #expect(await auth.refreshCount == 0)
    }

    @Test func withoutATokenOneIsFetchedFirst() async throws {
        let mock = Self.server { $0 == "Bearer new" }
        var config = APIClient.Configuration()
        let auth = TokenAuthenticator { "new" }
        config.authenticator = auth
        _ = try await makeClient(mock, configuration: config).send(Get<String>(path: "/me"))
        #expect(mock.requests.count == 1)
        #expect(await auth.refreshCount == 1)
    }

    @Test func fiftyConcurrent401sShareOneRefresh() async throws {
        let mock = Self.server { $0 == "Bearer fresh" }
        let calls = Collector<Int>()
        let auth = TokenAuthenticator(token: "expired") {
            calls.append(1)
            try await Task.sleep(for: .milliseconds(50))  // long enough for every request to get its 401
            return "fresh"
        }
        var config = APIClient.Configuration()
        config.authenticator = auth
        let client = makeClient(mock, configuration: config)
        let results = await client.send(all: (0..<50).map { _ in Get<String>(path: "/me") }, maxConcurrency: 50)
        #expect(results.allSatisfy { (try? $0.get()) == "ok" })
        #expect(calls.all.count == 1)
        #expect(await auth.refreshCount == 1)
        let sent = mock.requests.map { $0.headers["Authorization"] ?? "" }
        #expect(sent.filter { $0 == "Bearer expired" }.count == 50)
        #expect(sent.filter { $0 == "Bearer fresh" }.count == 50)
        #expect(mock.maxConcurrentRequests > 40)
    }

    @Test func aSecond401IsUnauthorizedAfterOneRefresh() async throws {
        let mock = Self.server { _ in false }
        let auth = TokenAuthenticator(token: "a") { "b" }
        var config = APIClient.Configuration()
        config.authenticator = auth
        let error = await #expect(throws: APIError.self) { try await makeClient(mock, configuration: config).send(Get<String>(path: "/me")) }
        #expect(error?.kind == .unauthorized)
        #expect(error?.attempts == 2)
        #expect(mock.requests.map { $0.headers["Authorization"] } == ["Bearer a", "Bearer b"])
        #expect(await auth.refreshCount == 1)
    }

    @Test func aFailingRefreshIsUnauthorizedWithItsError() async throws {
        struct LoginFailed: Error {}
        let mock = Self.server { _ in false }
        var config = APIClient.Configuration()
        config.authenticator = TokenAuthenticator(token: "a") { throw LoginFailed() }
        let error = await #expect(throws: APIError.self) { try await makeClient(mock, configuration: config).send(Get<String>(path: "/me")) }
        #expect(error?.kind == .unauthorized)
        #expect(error?.underlyingError is LoginFailed)
    }

    @Test func a401WithoutAnAuthenticatorIsUnauthorizedAtOnce() async throws {
        let mock = MockTransport(fallback: .status(401))
        let error = await #expect(throws: APIError.self) { try await makeClient(mock).send(Get<String>(path: "/me")) }
        #expect(error?.kind == .unauthorized)
        #expect(mock.requests.count == 1)
    }
}

@Suite struct RefreshThroughTheSameClientTests {
    final class Box: Sendable {
        let client = Mutex<APIClient?>(nil)
    }

    @Test func aRefreshSentThroughTheSameClientWorks() async throws {
        let mock = MockTransport { request in
            if request.path == "/token" { return .text("fresh") }
            return request.headers["Authorization"] == "Bearer fresh" ? .text("ok") : .status(401)
        }
        let box = Box()
        var config = APIClient.Configuration()
        config.authenticator = TokenAuthenticator(token: "old") {
            guard let client = box.client.withLock({ $0 }) else { throw CancellationError() }
            return try await client.send(Get<String>(path: "/token", method: .post))
        }
        let client = makeClient(mock, configuration: config)
        box.client.withLock { $0 = client }
        #expect(try await client.send(Get<String>(path: "/me")) == "ok")
        box.client.withLock { $0 = nil }
    }

    @Test func aRefreshWhoseOwnRequestGets401FailsInsteadOfHanging() async throws {
        let mock = MockTransport(fallback: .status(401))
        let box = Box()
        var config = APIClient.Configuration()
        config.authenticator = TokenAuthenticator(token: "old") {
            guard let client = box.client.withLock({ $0 }) else { throw CancellationError() }
            return try await client.send(Get<String>(path: "/token", method: .post))
        }
        let client = makeClient(mock, configuration: config)
        box.client.withLock { $0 = client }
        let error = await #expect(throws: APIError.self) { try await client.send(Get<String>(path: "/me")) }
        #expect(error?.kind == .unauthorized)
        box.client.withLock { $0 = nil }
    }
}
