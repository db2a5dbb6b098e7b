@testable import CourierEngine
import CourierHTTP
import CourierJSON
import CourierResults
import Testing

/// The step runner alone: what a phase skips and why, conditions, `for_each` and `delay:`.
@Suite struct StepRunnerTests {
    @Test func aFailedStepSkipsTheRestOfThePhaseWithItsReason() async throws {
        let parts = try RunParts("""
            steps:
              - { name: one, request: { url: "http://api/1" }, expect: { status: 201 } }
              - { name: two, request: { url: "http://api/2" } }
            """)
        let (failed, reason) = await parts.runSteps()
        #expect(failed)
        #expect(reason == "an earlier step failed")
        #expect(parts.results.map(\.name) == ["one", "two"])
        #expect(parts.results[1].outcome.skipReason?.description == "an earlier step failed")
    }

    @Test func continueOnFailureRunsTheNextStepAndLeavesNoSkipReason() async throws {
        let transport = FakeTransport()
        let parts = try RunParts("""
            steps:
              - { name: one, request: { url: "http://api/1" }, expect: { status: 201 }, continue_on_failure: true }
              - { name: two, request: { url: "http://api/2" } }
            """, transport: transport)
        let (failed, reason) = await parts.runSteps()
        #expect(failed)
        #expect(reason == nil)
        #expect(transport.requests.map(\.url) == ["http://api/1", "http://api/2"])
    }

    @Test func aFalseConditionSkipsTheStepWithoutFailingThePhase() async throws {
        let transport = FakeTransport()
        let parts = try RunParts("""
            steps:
              - { name: maybe, if: "{{ go }}", request: { url: "http://api/1" } }
            """, transport: transport)
        // Variables are the workflow runner's to define: the phase reads the scope as it is.
        parts.state.scope["go"] = .bool(false)
        let (failed, _) = await parts.runSteps()
        #expect(!failed)
        #expect(transport.requests.isEmpty)
        #expect(parts.results.first?.outcome.skipReason?.description == "condition is false")
    }

    @Test func forEachRunsEachItemNumberedAndRestoresItemAndIndex() async throws {
        let transport = FakeTransport()
        let parts = try RunParts("""
            steps:
              - name: each
                for_each: [a, b, c]
                request: { url: "http://api/{{ item }}/{{ index }}" }
            """, transport: transport)
        parts.state.scope["item"] = .string("outer")
        let (failed, _) = await parts.runSteps()
        #expect(!failed)
        #expect(transport.requests.map(\.url) == ["http://api/a/0", "http://api/b/1", "http://api/c/2"])
        #expect(parts.results.map(\.iteration) == [1, 2, 3])
        #expect(parts.state.scope["item"] == .string("outer"))
        #expect(parts.state.scope["index"] == nil)
    }

    @Test func forEachOfANonListIsTheStepsErrorAtTheExpression() async throws {
        let parts = try RunParts("""
            steps:
              - name: each
                for_each: "{{ 3 }}"
                request: { url: "http://api/{{ item }}" }
            """)
        let (failed, _) = await parts.runSteps()
        #expect(failed)
        #expect(parts.results.first?.outcome.error?.message == "for_each needs a list, found a number")
    }

    @Test func aCancelledTaskSkipsTheStepsNotStartedWithTheInterruption() async throws {
        let control = RunControl()
        _ = control.interrupt(Interruption(signal: 15, signalName: "SIGTERM"))
        let transport = FakeTransport()
        let (reason, results) = try await Task {
            let parts = try RunParts("""
                steps:
                  - { name: one, request: { url: "http://api/1" } }
                """, transport: transport, control: control)
            withUnsafeCurrentTask { $0?.cancel() }
            return (await parts.runSteps().skipReason?.description, parts.results)
        }.value
        #expect(transport.requests.isEmpty)
        #expect(reason == "interrupted by SIGTERM")
        #expect(results.first?.outcome.skipReason?.description == "interrupted by SIGTERM")
    }

    @Test func delayWaitsOnTheSleeperItIsHanded() async throws {
        let clock = ManualClock()
        let parts = try RunParts("""
            steps:
              - { name: later, delay: 10s, request: { url: "http://api/1" } }
            """, sleeper: clock)
        let (failed, _) = await parts.runSteps()
        #expect(!failed)
        #expect(clock.sleeps == [.seconds(10)])
    }

    @Test func aDelayCutShortSkipsTheStepAndSendsNothing() async throws {
        let control = RunControl()
        _ = control.interrupt(Interruption(signal: 2, signalName: "SIGINT"))
        let transport = FakeTransport()
        // Teardown runs after an interruption; in a cancelled task the wait throws at once.
        let results = try await Task {
            let parts = try RunParts("""
                steps: [{ request: { url: "http://api/0" } }]
                teardown:
                  - { name: later, delay: 10s, request: { url: "http://api/1" } }
                """, transport: transport, control: control, sleeper: ManualClock())
            withUnsafeCurrentTask { $0?.cancel() }
            var reason: SkipReason? = nil
            await parts.steps.runPhase(parts.workflow.teardown, phase: .teardown, context: parts.top, skipReason: &reason)
            return parts.results
        }.value
        #expect(transport.requests.isEmpty)
        #expect(results.first?.outcome.skipReason?.description == "interrupted by SIGINT")
    }
}
