@testable import CourierEngine
import CourierHTTP
import CourierJSON
import CourierResults
import Foundation
import Synchronization
import Testing

/// `retry:`, `defaults.retry`, `--retry N`, polling and `abort_if`, on a fake transport and a
/// manual clock: the waits asserted are exactly the ones slept on, and no real time passes.
@Suite struct RetryEngineTests {
    /// Answers the n-th request (0-based) with `responses[n]`, the last one after that.
    private func sequence(_ responses: [Result<HTTPResponse, HTTPError>]) -> FakeTransport {
        let count = Mutex(0)
        return FakeTransport { _ in
            let n = count.withLock { value in defer { value += 1 }; return value }
            return responses[min(n, responses.count - 1)]
        }
    }

    private func run(_ yaml: String, _ transport: FakeTransport, clock: ManualClock = ManualClock(),
                     settings: RunSettings = RunSettings()) async throws -> (WorkflowResult, [RunEvent]) {
        let log = EventLog()
        let engine = Engine(transport: transport, settings: settings, clock: clock, sleeper: clock, onEvent: { log.append($0) })
        let result = await engine.run([try decode(yaml)])
        return (try #require(result.workflows.first), log.all)
    }

    private func status(_ code: Int, headers: HTTPHeaders = [:]) -> Result<HTTPResponse, HTTPError> {
        .success(HTTPResponse(status: code, headers: headers))
    }

    @Test("503 twice then 200: three attempts, exponential waits slept on the clock, the step passes")
    func retriesUntilSuccess() async throws {
        let clock = ManualClock()
        let transport = sequence([status(503), status(503), status(200)])
        let (result, events) = try await run("""
            steps:
              - name: flaky
                request: { url: http://h/flaky }
                retry: { attempts: 5, delay: 1s, jitter: false }
                expect: { status: 200 }
            """, transport, clock: clock)
        let step = try #require(result.steps.first)
        #expect(step.outcome.isPassed, "\(step.outcome)")
        #expect(step.attempts.count == 3)
        #expect(clock.sleeps == [.seconds(1), .seconds(2)])
        #expect(step.attempts.map { $0.retry?.message } == ["503, retrying in 1.0 s", "503, retrying in 2.0 s", nil])
        // The step's time is its wall clock: the waits are in it.
        #expect(step.durationMicroseconds == 3_000_000)
        let retries = events.compactMap { if case .attemptRetried(_, let name, let retry) = $0 { "\(name): \(retry.message)" } else { nil } }
        #expect(retries == ["flaky: 503, retrying in 1.0 s", "flaky: 503, retrying in 2.0 s"])
    }

    @Test("a for_each item's RETRY lines name its iteration, as its attempts and its result do")
    func retriedIterationsKeepTheirIndex() async throws {
        let transport = sequence([status(200), status(503), status(200)])
        let (result, events) = try await run("""
            steps:
              - name: each
                for_each: [a, b]
                request: { url: "http://h/{{ item }}" }
                retry: { attempts: 2, delay: 1s, jitter: false }
                expect: { status: 200 }
            """, transport)
        #expect(result.steps.count == 2)
        let retries = events.compactMap { if case .attemptRetried(_, let name, _) = $0 { name } else { nil } }
        let attempts = events.compactMap { if case .attemptFinished(_, let name, _, _, _) = $0 { name } else { nil } }
        #expect(retries == ["each [2]"])
        #expect(attempts == ["each [1]", "each [2]", "each [2]"])
    }

    @Test("nothing is retried unless configured")
    func noRetryByDefault() async throws {
        let transport = sequence([status(503), status(200)])
        let (result, _) = try await run("steps:\n  - { request: { url: http://h/a }, expect: { status: 200 } }\n", transport)
        #expect(result.steps.first?.attempts.count == 1)
        #expect(result.steps.first?.outcome.isProblem == true)
    }

    @Test("attempts run out: the last attempt decides, every attempt is kept")
    func attemptsRunOut() async throws {
        let clock = ManualClock()
        let (result, _) = try await run("""
            steps:
              - request: { url: http://h/a }
                retry: { attempts: 3, delay: 100ms, backoff: linear, jitter: false }
                expect: { status: 200 }
            """, sequence([status(502)]), clock: clock)
        let step = try #require(result.steps.first)
        #expect(step.attempts.count == 3)
        #expect(step.outcome.failures.map(\.subject) == ["status"])
        #expect(clock.sleeps == [.milliseconds(100), .milliseconds(200)])
        #expect(step.attempts.last?.retry == nil)
    }

    @Test("Retry-After on a 503 is the wait, capped at max_delay, and the console note says so")
    func retryAfterHonouredAndCapped() async throws {
        let clock = ManualClock()
        let (result, _) = try await run("""
            steps:
              - request: { url: http://h/a }
                retry: { attempts: 3, max_delay: 5s }
            """, sequence([status(503, headers: ["Retry-After": "2"]), status(429, headers: ["Retry-After": "30"]), status(200)]), clock: clock)
        #expect(clock.sleeps == [.seconds(2), .seconds(5)])
        #expect(result.steps.first?.attempts.compactMap { $0.retry?.message } == [
            "503, retrying in 2.0 s (Retry-After)",
            "429, retrying in 5.0 s (Retry-After: the server asked for 30.0 s, capped at max_delay)",
        ])
    }

    @Test("seeded jitter: the waits are the policy's for that seed, each at most the backoff")
    func seededJitter() async throws {
        var settings = RunSettings()
        settings.retryJitterSeed = 7
        let clock = ManualClock()
        let (result, _) = try await run("""
            steps:
              - request: { url: http://h/a }
                retry: { attempts: 4, delay: 1s }
            """, sequence([status(503)]), clock: clock, settings: settings)
        #expect(result.steps.first?.attempts.count == 4)
        var random = SeededRandomNumberGenerator(seed: 7)
        let policy = RetryPolicy(attempts: 4, delay: .seconds(1))
        let expected = (1...3).map { policy.jitteredDelay(beforeRetry: $0, using: &random) }
        // Waits are recorded (and slept) to the microsecond.
        #expect(clock.sleeps == expected.map { AttemptRetry(reason: "", wait: $0).wait })
        #expect(Set(expected).count == 3 && expected.allSatisfy { $0 <= .seconds(4) })
    }

    @Test("polling: `on: [expect]` repeats until the expectations hold; only the deciding attempt's captures are committed")
    func pollsUntilDone() async throws {
        let clock = ManualClock()
        let transport = sequence([.success(jsonResponse(200, #"{"state":"running","n":"first"}"#)),
                                  .success(jsonResponse(200, #"{"state":"running","n":"second"}"#)),
                                  .success(jsonResponse(200, #"{"state":"done","n":"third"}"#))])
        let (result, _) = try await run("""
            steps:
              - name: wait for the job
                request: { url: http://h/job }
                retry: { attempts: 10, delay: 500ms, backoff: constant, jitter: false, on: [expect] }
                expect: { json: { $.state: done } }
                capture: { n: $.n }
              - request: { url: "http://h/after/{{ n }}" }
            """, transport, clock: clock)
        #expect(result.steps.first?.attempts.count == 3)
        #expect(result.steps.first?.outcome.isPassed == true)
        #expect(clock.sleeps == [.milliseconds(500), .milliseconds(500)])
        #expect(transport.requests.last?.url == "http://h/after/third")
        #expect(result.steps.first?.attempts.first?.retry?.reason == "200, json $.state not met")
    }

    @Test("a failing capture also keeps polling: captures are part of `expect`")
    func pollsOnCaptures() async throws {
        let transport = sequence([.success(jsonResponse(200, #"{}"#)), .success(jsonResponse(200, #"{"id":"x-1"}"#))])
        let (result, _) = try await run("""
            steps:
              - request: { url: http://h/job }
                retry: { attempts: 3, on: [expect] }
                capture: { id: $.id }
            """, transport)
        #expect(result.steps.first?.attempts.count == 2)
        #expect(result.steps.first?.captures.first?.value == .string("x-1"))
    }

    @Test("abort_if: a job reporting `failed` stops the polling at once, and nothing is captured")
    func abortOnTerminalState() async throws {
        let clock = ManualClock()
        let transport = sequence([.success(jsonResponse(200, #"{"state":"running"}"#)),
                                  .success(jsonResponse(200, #"{"state":"failed","id":"never"}"#)),
                                  .success(jsonResponse(200, #"{"state":"done"}"#))])
        let (result, _) = try await run("""
            continue_on_failure: true
            steps:
              - request: { url: http://h/job }
                retry: { attempts: 30, delay: 1s, backoff: constant, jitter: false, on: [expect], abort_if: { json: { $.state: failed } } }
                expect: { json: { $.state: done } }
                capture: { id: $.id }
              - request: { url: "http://h/after/{{ id }}" }
            """, transport, clock: clock)
        let step = try #require(result.steps.first)
        #expect(step.attempts.count == 2)
        // The last attempt says why polling stopped before the budget of 30 ran out.
        #expect(step.attempts.map(\.stopped) == [nil, AttemptRetry.abortIfHeld])
        #expect(clock.sleeps == [.seconds(1)])
        #expect(step.outcome.failures.map(\.subject).contains("json $.state"))
        #expect(!transport.requests.contains { $0.url.contains("never") })
        #expect(result.steps.last?.outcome.error?.type == "template")
    }

    @Test("`defaults.retry` applies to every step; a step's own `retry` replaces it")
    func defaultsRetry() async throws {
        let transport = sequence([status(503)])
        let (result, _) = try await run("""
            continue_on_failure: true
            defaults:
              retry: { attempts: 3, delay: 1ms }
            steps:
              - request: { url: http://h/a }
              - request: { url: http://h/b }
                retry: { attempts: 2, delay: 1ms }
            """, transport)
        #expect(result.steps.map(\.attempts.count) == [3, 2])
    }

    @Test("--retry 3 retries a GET that got a 503 but not a POST; a POST is retried when the connection was refused")
    func commandLineRetry() async throws {
        var settings = RunSettings()
        settings.retryAttempts = 3
        let transport = FakeTransport { request in
            if request.url.hasSuffix("/refused") { return .failure(HTTPError(kind: .connectionRefused, message: "refused")) }
            return .success(HTTPResponse(status: 503))
        }
        let (result, _) = try await run("""
            continue_on_failure: true
            steps:
              - { name: get, request: { url: http://h/a } }
              - { name: post, request: { method: POST, url: http://h/b } }
              - { name: delete, request: { method: DELETE, url: http://h/c } }
              - { name: refused post, request: { method: POST, url: http://h/refused } }
              - { name: trace, request: { method: TRACE, url: http://h/d } }
              - { name: patch, request: { method: PATCH, url: http://h/e } }
            """, transport, settings: settings)
        // TRACE is idempotent (RFC 9110 §9.2.2), PATCH is not.
        #expect(result.steps.map(\.attempts.count) == [3, 1, 3, 3, 3, 1])
    }

    @Test("a workflow's `retry:` applies to a POST as configured; --retry N sets its default attempts")
    func workflowRetryAppliesToPost() async throws {
        var settings = RunSettings()
        settings.retryAttempts = 4
        let (result, _) = try await run("""
            continue_on_failure: true
            steps:
              - { request: { method: POST, url: http://h/a }, retry: { attempts: 2, delay: 1ms } }
              - { request: { method: POST, url: http://h/b }, retry: { delay: 1ms } }
            """, sequence([status(503)]), settings: settings)
        #expect(result.steps.map(\.attempts.count) == [2, 4])
    }

    @Test("a cancelled wait ends the step at once, reported as interrupted")
    func cancelledWait() async throws {
        let transport = sequence([status(503)])
        let workflow = try decode("""
            steps:
              - request: { url: http://h/a }
                retry: { attempts: 5, delay: 30s }
            """)
        let engine = Engine(transport: transport, settings: RunSettings(), clock: ManualClock(), sleeper: CancelledSleeper())
        let result = await engine.run([workflow])
        let step = try #require(result.workflows.first?.steps.first)
        #expect(step.attempts.count == 1)
        #expect(step.outcome.error?.type == "cancelled", "\(step.outcome)")
        #expect(step.outcome.error?.message.contains("while waiting to retry") == true)
    }
}

/// A sleeper whose every wait is interrupted, like Ctrl-C in the middle of it.
private struct CancelledSleeper: Sleeper {
    func sleep(for duration: Duration) async throws { throw CancellationError() }
}
