@testable import CourierEngine
import CourierHTTP
import CourierResults
import Foundation
import Synchronization
import Testing

/// Interruption reasons, the teardown deadline and the snapshot of what finished.
@Suite struct RunControlTests {
    /// Answers at once, except URLs containing `slow`, which wait until cancelled (or 30 s).
    final class SlowTransport: HTTPTransport {
        /// Set when the teardown's hanging request has been sent.
        let teardownSent = Atomic<Bool>(false)

        func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
            guard request.url.contains("slow") else { return HTTPResponse(status: 200) }
            if request.url.contains("slow-teardown") { teardownSent.store(true, ordering: .sequentiallyConsistent) }
            do {
                try await Task.sleep(for: .seconds(30))
            } catch {
                throw HTTPError(kind: .cancelled, message: "request cancelled")
            }
            return HTTPResponse(status: 200)
        }
    }

    private let workflow = """
        name: slow
        steps:
          - { name: first, request: { url: http://h/fast } }
          - { name: slow one, request: { url: http://h/slow } }
          - { name: never sent, request: { url: http://h/fast } }
        teardown:
          - { name: hangs, request: { url: http://h/slow-teardown } }
          - { name: after, request: { url: http://h/fast } }
        """

    @Test("an interruption: the reason in results, partial report when the main steps stop, teardown cut at its deadline")
    func interruptedRun() async throws {
        let parsed = try decode(workflow)
        let partials = Mutex<[RunResult]>([])
        // The deadline passes when the test says so, after the teardown's request was sent:
        // however slow the machine, the teardown has started when it is cut.
        let deadline = GatedSleeper()
        let transport = SlowTransport()
        let control = RunControl(teardownGrace: .milliseconds(2500), sleeper: deadline,
                                 onStepsStopped: { run in partials.withLock { $0.append(run) } })
        let engine = Engine(transport: transport, settings: RunSettings(), control: control)
        let task = Task { await engine.run([parsed]) }
        // Bounded wait for the slow step to start.
        for _ in 0..<500 where control.snapshot().workflows.first?.steps.isEmpty ?? true {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(control.interrupt(Interruption(signal: 15, signalName: "SIGTERM")))
        #expect(!control.interrupt(Interruption(signal: 2, signalName: "SIGINT")), "only the first interruption counts")
        task.cancel()
        for _ in 0..<3000 where !transport.teardownSent.load(ordering: .sequentiallyConsistent) {
            try await Task.sleep(for: .milliseconds(10))
        }
        let teardownSent = transport.teardownSent.load(ordering: .sequentiallyConsistent)
        #expect(teardownSent, "the teardown's request was never sent")
        deadline.release()
        let result = await task.value

        #expect(result.interruption?.signalName == "SIGTERM")
        let steps = try #require(result.workflows.first?.steps)
        #expect(steps.map(\.name) == ["first", "slow one", "never sent", "hangs", "after"])
        guard case .errored(let error) = steps[1].outcome else { Issue.record("slow one: \(steps[1].outcome)"); return }
        #expect(error.type == "cancelled" && error.message == "interrupted by SIGTERM")
        guard case .skipped(let reason) = steps[2].outcome else { Issue.record("never sent: \(steps[2].outcome)"); return }
        #expect(reason.description == "interrupted by SIGTERM")
        guard case .errored(let cut) = steps[3].outcome else { Issue.record("hangs: \(steps[3].outcome)"); return }
        #expect(cut.message == "interrupted by SIGTERM; teardown stopped at its 2500 ms deadline")
        guard case .skipped(let after) = steps[4].outcome else { Issue.record("after: \(steps[4].outcome)"); return }
        #expect(after.description.contains("deadline"))

        let partial = try #require(partials.withLock { $0 }.first)
        #expect(partials.withLock { $0.count } == 1)
        #expect(partial.workflows.first?.steps.map(\.name) == ["first", "slow one", "never sent"])
        #expect(partial.interruption?.signalName == "SIGTERM")
    }

    @Test("without an interruption: no deadline, no partial report, the snapshot is the whole run")
    func uninterruptedRun() async throws {
        let parsed = try decode("name: quick\nsteps:\n  - { name: one, request: { url: http://h/a } }\nsecrets:\n  token: abcd\n")
        let called = Mutex(false)
        let control = RunControl(teardownGrace: .milliseconds(1), onStepsStopped: { _ in called.withLock { $0 = true } })
        let settings = RunSettings()
        let result = await Engine(transport: SlowTransport(), settings: settings, control: control).run([parsed])
        #expect(result.interruption == nil)
        #expect(!called.withLock { $0 })
        let snapshot = control.snapshot()
        #expect(snapshot.workflows.map(\.name) == ["quick"])
        #expect(settings.secrets.values == ["abcd"])
    }
}

/// A sleeper whose sleeps end when the test calls `release()` (or the sleeping task is cancelled).
final class GatedSleeper: Sleeper {
    private let state = Mutex<(released: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    func sleep(for duration: Duration) async throws {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.released { return true }
                state.waiting.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
        try Task.checkCancellation()
    }

    func release() {
        let waiting = state.withLock { state in
            state.released = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}
