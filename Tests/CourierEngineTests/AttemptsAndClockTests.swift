@testable import CourierEngine
import CourierHTTP
import CourierJSON
import CourierResults
import Foundation
import Synchronization
import Testing

/// A step is attempts, then a commit; time goes through the injected clock and sleeper.
@Suite struct AttemptsAndClockTests {
    private func engine(_ transport: FakeTransport, clock: ManualClock, settings: RunSettings = RunSettings()) -> Engine {
        Engine(transport: transport, settings: settings, clock: clock, sleeper: clock)
    }

    @Test("a `delay: 10s` step waits on the sleeper: no real time passes, the step's time includes the 10 s")
    func delayUsesTheSleeper() async throws {
        let clock = ManualClock()
        let workflow = try decode("""
            steps:
              - { name: later, delay: 10s, request: { url: http://h/a } }
            """)
        let result = await engine(FakeTransport(), clock: clock).run([workflow])
        // Slept on the manual clock (a real sleep would not be recorded there, nor move its time).
        // No wall-clock assertion: a loaded machine makes those flaky.
        #expect(clock.sleeps == [.seconds(10)])
        let step = try #require(result.workflows.first?.steps.first)
        #expect(step.outcome.isPassed)
        #expect(step.durationMicroseconds == 10_000_000)
        #expect(result.durationMicroseconds == 10_000_000)
    }

    /// A sleeper whose wait is cut short, as a signal's cancellation cuts it.
    struct InterruptedSleeper: Sleeper {
        func sleep(for duration: Duration) async throws { throw CancellationError() }
    }

    @Test("a step stopped during its `delay:` is skipped: no request is built, sent or shown")
    func interruptedDelaySendsNothing() async throws {
        let transport = FakeTransport()
        let workflow = try decode("""
            steps:
              - { name: later, delay: 10s, request: { url: http://h/a } }
            """)
        let result = await Engine(transport: transport, settings: RunSettings(), clock: ManualClock(),
                                  sleeper: InterruptedSleeper()).run([workflow])
        let step = try #require(result.workflows.first?.steps.first)
        #expect(step.outcome.skipReason?.description != nil, "\(step.outcome)")
        #expect(step.attempts.isEmpty, "a request was recorded: \(step.attempts)")
        #expect(transport.requests.isEmpty)
    }

    @Test("--dry-run waits out no `delay:`: it sends nothing, so there is nothing to wait for")
    func dryRunDoesNotSleep() async throws {
        let clock = ManualClock()
        var settings = RunSettings()
        settings.dryRun = true
        let workflow = try decode("""
            steps:
              - { name: later, delay: 5s, request: { url: http://h/a } }
            """)
        let result = await engine(FakeTransport(), clock: clock, settings: settings).run([workflow])
        #expect(clock.sleeps.isEmpty, "slept \(clock.sleeps) in a dry run")
        #expect(result.workflows.first?.steps.count == 1)
    }

    @Test("a step whose expectation fails commits no capture: the next step (continue_on_failure) does not see it")
    func failedAttemptLeaksNoCapture() async throws {
        let transport = FakeTransport { _ in .success(jsonResponse(200, #"{"token":"leaked-0001"}"#)) }
        let workflow = try decode("""
            continue_on_failure: true
            steps:
              - name: fails
                id: first
                request: { url: http://h/login }
                expect: { status: 201 }
                capture: { token: $.token }
              - name: uses it
                request: { url: "http://h/next/{{ token }}" }
              - name: reads steps
                request: { url: "http://h/status-was/{{ steps.first.status }}" }
            """)
        let result = await engine(transport, clock: ManualClock()).run([workflow])
        let steps = try #require(result.workflows.first?.steps)
        #expect(steps.count == 3)
        #expect(steps[0].outcome.failures.map(\.subject) == ["status"])
        #expect(steps[0].captures.map(\.name) == ["token"], "the result shows what the attempt captured")
        let error = try #require(steps[1].outcome.error, "\(steps[1].outcome)")
        #expect(error.type == "template" && error.message.contains("token"), "\(error.message)")
        #expect(!transport.requests.contains { $0.url.contains("leaked") })
        // `steps.<id>` is what happened, failed or not: it is committed.
        #expect(transport.requests.last?.url == "http://h/status-was/200")
    }

    @Test("a passing step commits its captures; a later failing one leaves the earlier value in place")
    func passingStepCommits() async throws {
        let transport = FakeTransport { request in
            request.url.hasSuffix("/one") ? .success(jsonResponse(200, #"{"token":"first-0001"}"#))
                                          : .success(jsonResponse(500, #"{"token":"second-0002"}"#))
        }
        let workflow = try decode("""
            continue_on_failure: true
            steps:
              - { request: { url: http://h/one }, capture: { token: $.token } }
              - { request: { url: http://h/two }, expect: { status: 200 }, capture: { token: $.token } }
              - { request: { url: "http://h/use/{{ token }}" } }
            """)
        let result = await engine(transport, clock: ManualClock()).run([workflow])
        #expect(result.workflows.first?.steps.first?.captures.map(\.name) == ["token"])
        #expect(transport.requests.last?.url == "http://h/use/first-0001")
    }

    @Test("a secret captured by a failed attempt is still registered (its transcript is masked), but not committed")
    func failedAttemptRegistersItsSecret() async throws {
        let transport = FakeTransport { _ in .success(jsonResponse(500, #"{"token":"failed-secret-0001"}"#)) }
        let workflow = try decode("""
            steps:
              - request: { url: http://h/login }
                expect: { status: 200 }
                capture: { token: { json: $.token, secret: true } }
            """)
        let settings = RunSettings()
        let result = await engine(transport, clock: ManualClock(), settings: settings).run([workflow])
        #expect(settings.secrets.values.contains("failed-secret-0001"))
        #expect(result.workflows.first?.steps.first?.outcome.failures.isEmpty == false)
    }

    @Test("the loop's policies: one attempt for a step without retry; `again` asks for a wait")
    func singleAttemptPolicy() {
        var policy: any AttemptPolicy = SingleAttempt()
        #expect(policy.decide(after: AttemptOutcome(), number: 1) == .stop)
        #expect(AttemptDecision.again(AttemptRetry(reason: "503", wait: .seconds(1))) != .stop)
    }

    @Test("the manual clock moves only when slept on or advanced, and a cancelled sleep throws")
    func manualClock() async throws {
        let clock = ManualClock()
        #expect(clock.now() == .zero)
        try await clock.sleep(for: .milliseconds(1500))
        clock.advance(by: .seconds(2))
        #expect(clock.now() == .milliseconds(3500))
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.now() == .milliseconds(3500))
    }

    @Test("the teardown deadline after an interruption is waited for on the injected sleeper")
    func teardownDeadlineUsesTheSleeper() async throws {
        let clock = ManualClock()
        let control = RunControl(teardownGrace: .seconds(10), clock: clock, sleeper: clock)
        #expect(!control.teardownDeadlinePassed)
        control.interrupt(Interruption(signal: 15, signalName: "SIGTERM"))
        // The manual sleeper returns at once; bounded wait for the detached deadline task.
        for _ in 0..<500 where !control.teardownDeadlinePassed { try await Task.sleep(for: .milliseconds(10)) }
        #expect(control.teardownDeadlinePassed)
        #expect(clock.sleeps == [.seconds(10)])
    }
}
