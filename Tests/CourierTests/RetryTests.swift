import Courier
import Foundation
import Testing

@Suite struct RetryTests {
    static func policy(attempts: Int = 3) -> RetryPolicy {
        RetryPolicy(attempts: attempts, delay: .zero, jitter: false)
    }

    @Test func a503ThenA200IsRetriedAndSucceeds() async throws {
        let mock = MockTransport()
        mock.on(.get, "/users/1", replies: .status(503), .status(503), try .json(User(id: 1, fullName: "A")))
        var config = APIClient.Configuration()
        config.retry = Self.policy()
        let sleeps = SleepRecorder()
        let user = try await makeClient(mock, configuration: config, sleeps: sleeps).send(GetUser(id: 1))
        #expect(user.id == 1)
        #expect(mock.requests.count == 3)
        #expect(sleeps.recorded == [.zero, .zero])
    }

    @Test func attemptsRunOutWithTheLastError() async throws {
        let mock = MockTransport(fallback: .status(503))
        var config = APIClient.Configuration()
        config.retry = Self.policy()
        let error = await #expect(throws: APIError.self) {
            try await makeClient(mock, configuration: config, sleeps: SleepRecorder()).send(GetUser(id: 1))
        }
        #expect(error?.kind == .serverError)
        #expect(error?.attempts == 3)
        #expect(mock.requests.count == 3)
    }

    @Test func noRetriesByDefault() async throws {
        let mock = MockTransport(fallback: .status(503))
        _ = await #expect(throws: APIError.self) { try await makeClient(mock, sleeps: SleepRecorder()).send(GetUser(id: 1)) }
        #expect(mock.requests.count == 1)
    }

    @Test func retryAfterIsHonouredOn429AndCappedByMaxDelay() async throws {
        let mock = MockTransport()
        mock.on(.get, "/users/1", replies: .status(429, headers: ["Retry-After": "2"]), .status(503, headers: ["Retry-After": "60"]),
                try .json(User(id: 1, fullName: "A")))
        var config = APIClient.Configuration()
        config.retry = RetryPolicy(attempts: 3, delay: .milliseconds(1), maxDelay: .seconds(10), jitter: false)
        let sleeps = SleepRecorder()
        _ = try await makeClient(mock, configuration: config, sleeps: sleeps).send(GetUser(id: 1))
        #expect(sleeps.recorded == [.seconds(2), .seconds(10)])
    }

    @Test func aRealRetryAfterWaitIsSlept() async throws {
        let mock = MockTransport()
        mock.on(.get, "/users/1", replies: .status(503, headers: ["Retry-After": "1"]), try .json(User(id: 1, fullName: "A")))
        var config = APIClient.Configuration()
        config.retry = RetryPolicy(attempts: 2, delay: .milliseconds(1), jitter: false)
        let clock = ContinuousClock()
        let start = clock.now
        _ = try await APIClient(baseURL: try #require(URL(string: "https://api.test")), configuration: config, transport: mock)
            .send(GetUser(id: 1))
        #expect(clock.now - start >= .milliseconds(990))
    }

    @Test func aPOSTIsNotRetriedAfterAResponse() async throws {
        let mock = MockTransport(fallback: .status(503))
        var config = APIClient.Configuration()
        config.retry = Self.policy()
        _ = await #expect(throws: APIError.self) {
            try await makeClient(mock, configuration: config, sleeps: SleepRecorder())
                .send(Get<EmptyResponse>(path: "/users", method: .post, body: .json(["a": "b"])))
        }
        #expect(mock.requests.count == 1)
    }

    @Test func aPOSTIsNotRetriedAfterATimeoutOrABrokenConnection() async throws {
        for kind in [HTTPError.Kind.timeout, .connectionClosed] {
            let mock = MockTransport(fallback: .failure(kind))
            var config = APIClient.Configuration()
            config.retry = Self.policy()
            _ = await #expect(throws: APIError.self) {
                try await makeClient(mock, configuration: config, sleeps: SleepRecorder()).send(Get<EmptyResponse>(path: "/x", method: .post))
            }
            #expect(mock.requests.count == 1, "\(kind)")
        }
    }

    @Test func aPOSTIsRetriedWhenItNeverReachedTheServer() async throws {
        let mock = MockTransport()
        mock.on(.post, "/users", replies: .failure(.connectionRefused), .status(201))
        var config = APIClient.Configuration()
        config.retry = Self.policy()
        _ = try await makeClient(mock, configuration: config, sleeps: SleepRecorder()).send(Get<EmptyResponse>(path: "/users", method: .post))
        #expect(mock.requests.count == 2)
    }

    @Test func idempotentMethodsAreRetriedAfterATimeout() async throws {
        for method in [HTTPMethod.get, .put, .delete, .head, .options] {
            let mock = MockTransport()
            mock.on(method, "/x", replies: .failure(.timeout), .status(204))
            var config = APIClient.Configuration()
            config.retry = Self.policy()
            _ = try await makeClient(mock, configuration: config, sleeps: SleepRecorder()).send(Get<EmptyResponse>(path: "/x", method: method))
            #expect(mock.requests.count == 2, "\(method)")
        }
    }

    @Test func tlsFailuresAreNotRetried() async throws {
        let mock = MockTransport(fallback: .failure(.tls))
        var config = APIClient.Configuration()
        config.retry = Self.policy()
        let error = await #expect(throws: APIError.self) {
            try await makeClient(mock, configuration: config, sleeps: SleepRecorder()).send(GetUser(id: 1))
        }
        #expect(error?.kind == .tls)
        #expect(mock.requests.count == 1)
    }

    @Test func cancellingTheWaitBeforeARetryIsCancelled() async throws {
        let mock = MockTransport(fallback: .status(503, headers: ["Retry-After": "30"]))
        var config = APIClient.Configuration()
        config.retry = RetryPolicy(attempts: 3, maxDelay: .seconds(30))
        let client = APIClient(baseURL: try #require(URL(string: "https://api.test")), configuration: config, transport: mock)
        let task = Task { try await client.send(GetUser(id: 1)) }
        // Wait (bounded) until the first attempt happened, then cancel during the 30 s wait.
        for _ in 0..<5000 where mock.requests.isEmpty { try await Task.sleep(for: .milliseconds(2)) }
        task.cancel()
        let clock = ContinuousClock()
        let start = clock.now
        let result = await task.result
        // Far from the 30 s the server asked for, with room for a loaded machine.
        #expect(clock.now - start < .seconds(20))
        #expect(throws: APIError.self) { try result.get() }
        if case .failure(let error as APIError) = result { #expect(error.kind == .cancelled) }
        #expect(mock.requests.count == 1)
    }
}
