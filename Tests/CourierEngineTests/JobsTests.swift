@testable import CourierEngine
import CourierHTTP
import CourierSync
import CourierWorkflow
import Foundation
import Synchronization
import Testing

/// `--jobs`: workflows at once on one transport; `--fail-fast` cancels the running ones.
@Suite struct JobsTests {
    /// Counts requests in flight. URLs containing `hold` wait until `release` (bounded: 20 s)
    /// or until cancelled; `fail` answers 500; anything else 200 at once.
    final class GateTransport: HTTPTransport {
        private let state = PthreadLock<(inFlight: Int, peak: Int, released: Bool)>((0, 0, false))

        var peak: Int { state.withLock { $0.peak } }
        var inFlight: Int { state.withLock { $0.inFlight } }
        func release() { state.withLock { $0.released = true } }

        func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
            if request.url.contains("fail") {
                // Fails once another request is in flight (bounded wait), so that one is cancelled mid-request.
                for _ in 0..<1000 where state.withLock({ $0.inFlight }) == 0 { try? await Task.sleep(for: .milliseconds(10)) }
                return HTTPResponse(status: 500)
            }
            guard request.url.contains("hold") else { return HTTPResponse(status: 200) }
            state.withLock { state in
                state.inFlight += 1
                state.peak = max(state.peak, state.inFlight)
            }
            defer { state.withLock { $0.inFlight -= 1 } }
            for _ in 0..<2000 where !state.withLock({ $0.released }) {
                do { try await Task.sleep(for: .milliseconds(10)) } catch {
                    throw HTTPError(kind: .cancelled, message: "request cancelled")
                }
            }
            return HTTPResponse(status: 200)
        }
    }

    private func workflows(_ count: Int, url: (Int) -> String) throws -> [Workflow] {
        try (0..<count).map { index in
            try decode("""
                name: w\(index)
                steps:
                  - { name: wait, request: { url: "\(url(index))" } }
                  - { name: after, request: { url: http://h/ok } }
                teardown:
                  - { name: clean, request: { url: http://h/clean } }
                """, path: "/tmp/courier-etests/w\(index).yaml")
        }
    }

    /// Waits (bounded: 10 s) until `condition` holds.
    private func eventually(_ condition: () -> Bool) async throws {
        for _ in 0..<1000 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
    }

    @Test("jobs 4 over 6 waiting workflows: 4 in flight at once, never more; results in the order given")
    func workflowsRunAtOnce() async throws {
        let transport = GateTransport()
        var settings = RunSettings()
        settings.jobs = 4
        let control = RunControl()
        let engine = Engine(transport: transport, settings: settings, control: control)
        let task = Task { await engine.run(try workflows(6) { _ in "http://h/hold" }) }
        try await eventually { transport.inFlight == 4 }
        #expect(transport.inFlight == 4)
        // The snapshot lists every running workflow.
        #expect(control.snapshot().workflows.map(\.name) == ["w0", "w1", "w2", "w3"])
        transport.release()
        let result = try await task.value
        #expect(transport.peak == 4)
        #expect(result.workflows.map(\.name) == ["w0", "w1", "w2", "w3", "w4", "w5"])
        #expect(result.passed)
    }

    /// Records which of `executors` each request is sent from (-1: none of them).
    final class ThreadRecordingTransport: HTTPTransport {
        let executors: [EngineExecutor]
        private let seen = PthreadLock<[String: Int]>([:])
        var executorByURL: [String: Int] { seen.withLock { $0 } }

        init(executors: [EngineExecutor]) { self.executors = executors }

        func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
            let index = executors.firstIndex(where: \.isCurrentThread) ?? -1
            seen.withLock { $0[request.url] = index }
            return HTTPResponse(status: 200)
        }
    }

    @Test("jobs 2 with an executor per job slot: workflows run at once run on different threads, never the caller's")
    func executorPerSlot() async throws {
        let executors = [EngineExecutor(name: "courier.engine.0"), EngineExecutor(name: "courier.engine.1")]
        defer { for executor in executors { executor.stop() } }
        let transport = ThreadRecordingTransport(executors: executors)
        var settings = RunSettings()
        settings.jobs = 2
        var engine = Engine(transport: transport, settings: settings)
        engine.executors = executors
        let result = await engine.run(try workflows(2) { "http://h/w\($0)" })
        #expect(result.passed)
        let seen = transport.executorByURL
        #expect(Set([seen["http://h/w0"], seen["http://h/w1"]]) == [0, 1], "\(seen)")
    }

    @Test("jobs 1 runs one workflow after the other")
    func oneJob() async throws {
        let transport = GateTransport()
        transport.release()
        var settings = RunSettings()
        settings.jobs = 1
        let result = await Engine(transport: transport, settings: settings).run(try workflows(3) { _ in "http://h/hold" })
        #expect(transport.peak == 1)
        #expect(result.workflows.count == 3)
    }

    @Test("--fail-fast with jobs 2: the running one is cancelled ('cancelled: --fail-fast', teardown run), the rest not run")
    func failFastCancelsTheRunningOnes() async throws {
        let transport = GateTransport()
        var settings = RunSettings()
        settings.jobs = 2
        settings.failFast = true
        let engine = Engine(transport: transport, settings: settings)
        // w0 waits until cancelled; w1 fails once w0 is in flight; w2 and w3 never start.
        let all = try workflows(4) { $0 == 1 ? "http://h/fail" : "http://h/hold" }
        let result = await engine.run(all)
        #expect(!result.interrupted, "a --fail-fast stop is not an interruption")
        #expect(result.workflows.map(\.name) == ["w0", "w1", "w2", "w3"])
        let cancelled = result.workflows[0].steps
        #expect(cancelled.map(\.name) == ["wait", "after", "clean"])
        // Cancelled in flight: skipped, not errored (it did not fail).
        #expect(cancelled[0].outcome.skipReason?.description == "cancelled: --fail-fast" && cancelled[0].outcome.error == nil)
        #expect(cancelled[1].outcome.skipReason?.description == "cancelled: --fail-fast")
        #expect(cancelled[2].outcome.isPassed, "teardown still runs")
        #expect(!result.workflows[1].passed)
        for notRun in result.workflows[2...] {
            #expect(notRun.steps.map(\.outcome.skipReason?.description) == ["not run: --fail-fast", "not run: --fail-fast", "not run: --fail-fast"])
        }
    }
}

/// One workflow at a time runs on the thread that drives transfers; a large body is checked
/// on the engine's `heavyWorkExecutor` instead, a small one where the engine runs.
@Suite struct HeavyWorkTests {
    final class CountingExecutor: TaskExecutor {
        let jobs = Atomic<Int>(0)
        func enqueue(_ job: consuming ExecutorJob) {
            jobs.add(1, ordering: .relaxed)
            globalConcurrentExecutor.enqueue(job)
        }
    }

    final class BodyTransport: HTTPTransport {
        let bodySize: Int
        init(bodySize: Int) { self.bodySize = bodySize }
        func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
            let text = "{\"pad\": \"" + String(repeating: "x", count: max(0, bodySize - 20)) + "\", \"ok\": true}"
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Array(text.utf8))
        }
    }

    func jobsOnHeavyExecutor(bodySize: Int) async throws -> (passed: Bool, jobs: Int) {
        let workflow = try decode("""
            name: heavy
            steps:
              - request: { url: http://h/doc }
                expect: { json: { $.ok: true } }
            """)
        let heavy = CountingExecutor()
        var engine = Engine(transport: BodyTransport(bodySize: bodySize), settings: RunSettings())
        engine.heavyWorkExecutor = heavy
        let result = await engine.run([workflow])
        return (result.passed, heavy.jobs.load(ordering: .relaxed))
    }

    @Test func aLargeBodyIsCheckedOnTheHeavyWorkExecutor() async throws {
        let (passed, jobs) = try await jobsOnHeavyExecutor(bodySize: Engine.heavyBodyBytes + 1024)
        #expect(passed)
        #expect(jobs > 0)
    }

    @Test func aSmallBodyIsCheckedWhereTheEngineRuns() async throws {
        let (passed, jobs) = try await jobsOnHeavyExecutor(bodySize: 200)
        #expect(passed)
        #expect(jobs == 0)
    }
}
