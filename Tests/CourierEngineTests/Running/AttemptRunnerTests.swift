@testable import CourierEngine
import CourierHTTP
import CourierJSON
import CourierResults
import Dispatch
import Synchronization
import Testing

/// One request step: attempt → check → commit, with its retry policy.
@Suite struct AttemptRunnerTests {
    @Test func onlyAPassedStepsCapturesAreCommittedButTheResultShowsThemEither() async throws {
        let transport = FakeTransport { request in
            .success(jsonResponse(request.url.hasSuffix("/bad") ? 500 : 200, #"{"token":"t-1"}"#))
        }
        let parts = try RunParts("""
            steps:
              - { id: bad, request: { url: "http://api/bad" }, expect: { status: 200 }, capture: { a: $.token }, continue_on_failure: true }
              - { id: good, request: { url: "http://api/good" }, expect: { status: 200 }, capture: { b: $.token } }
            """, transport: transport)
        _ = await parts.runSteps()
        #expect(parts.results.map { $0.captures.map(\.name) } == [["a"], ["b"]])
        #expect(parts.state.scope["a"] == nil)
        #expect(parts.state.scope["b"] == .string("t-1"))
        // `steps.<id>` is there whenever a response came back, passed or not.
        #expect(parts.state.scope.steps["bad"] != nil)
        #expect(parts.state.scope.steps["good"] != nil)
    }

    @Test func everyAttemptIsKeptAndOnlyTheLastDecides() async throws {
        let calls = Atomic<Int>(0)
        let transport = FakeTransport { _ in
            let n = calls.add(1, ordering: .relaxed).newValue
            return .success(jsonResponse(n < 3 ? 503 : 200, #"{"n":\#(n)}"#))
        }
        let clock = ManualClock()
        let parts = try RunParts("""
            steps:
              - name: flaky
                request: { url: "http://api/x" }
                retry: { attempts: 4, delay: 1s, jitter: false }
                expect: { status: 200 }
                capture: { n: $.n }
            """, transport: transport, sleeper: clock)
        let (failed, _) = await parts.runSteps()
        #expect(!failed)
        let result = try #require(parts.results.first)
        #expect(result.attempts.count == 3)
        #expect(result.attempts.map { $0.response?.status } == [503, 503, 200])
        #expect(result.attempts.prefix(2).allSatisfy { $0.retry != nil })
        #expect(clock.sleeps.count == 2)
        #expect(parts.state.scope["n"] == .number(JSONNumber(3)))
    }

    @Test func aRequestThatCannotBeBuiltIsATemplateErrorAndSendsNothing() async throws {
        let transport = FakeTransport()
        let parts = try RunParts("""
            steps:
              - { name: broken, request: { url: "http://api/{{ n | int }}" } }
            """, transport: transport)
        parts.state.scope["n"] = .string("not a number")
        let (failed, _) = await parts.runSteps()
        #expect(failed)
        #expect(transport.requests.isEmpty)
        #expect(parts.results.first?.outcome.error?.type == "template")
        #expect(parts.results.first?.attempts.isEmpty == true)
    }

    @Test func aTransportErrorIsTheStepsErrorWithTheRequestRecorded() async throws {
        let parts = try RunParts("""
            steps:
              - { name: down, request: { url: "http://api/x" } }
            """, transport: FakeTransport { _ in .failure(HTTPError(kind: .connectionRefused, message: "refused")) })
        let (failed, _) = await parts.runSteps()
        #expect(failed)
        let result = try #require(parts.results.first)
        #expect(result.outcome.error?.type == HTTPError.Kind.connectionRefused.description)
        #expect(result.attempts.first?.error != nil)
        #expect(result.attempts.first?.request.url == "http://api/x")
    }

    @Test func aDryRunRecordsTheRequestAndCommitsPlaceholders() async throws {
        var settings = RunSettings()
        settings.dryRun = true
        let transport = FakeTransport()
        let parts = try RunParts("""
            steps:
              - { name: login, request: { url: "http://api/login" }, capture: { token: $.token } }
              - { name: use, request: { url: "http://api/{{ token }}" } }
            """, transport: transport, settings: settings)
        _ = await parts.runSteps()
        #expect(transport.requests.isEmpty)
        #expect(parts.state.scope["token"] == .string("<capture: token>"))
        #expect(parts.results.map { $0.attempts.first?.request.url } == ["http://api/login", "http://api/<capture: token>"])
    }

    @Test func aLargeBodyIsCheckedOnTheExecutorOffTheDriverThread() async throws {
        let executor = CountingExecutor()
        let big = "[" + Array(repeating: "1", count: Engine.heavyBodyBytes).joined(separator: ",") + "]"
        let parts = try RunParts("""
            steps:
              - { name: big, request: { url: "http://api/x" }, expect: { json: { "$[0]": 1 } } }
              - { name: small, request: { url: "http://api/y" } }
            """, transport: FakeTransport { request in
                .success(jsonResponse(200, request.url.hasSuffix("x") ? big : "[]"))
            }, offDriver: executor)
        _ = await parts.runSteps()
        #expect(parts.results.first?.outcome.isPassed == true)
        #expect(executor.jobs > 0)
    }
}

/// A task executor that runs its jobs on the global concurrent executor and counts them.
final class CountingExecutor: TaskExecutor {
    private let count = Atomic<Int>(0)
    var jobs: Int { count.load(ordering: .relaxed) }

    func enqueue(_ job: consuming ExecutorJob) {
        count.add(1, ordering: .relaxed)
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        DispatchQueue.global().async { job.runSynchronously(on: executor) }
    }
}
