import CourierDiagnostics
import CourierResults
import Foundation
import Testing

/// Skip reasons and error kinds are closed sets of cases that reports write as text, and
/// read back (`merge-reports`) as the same cases.
@Suite struct OutcomeVocabularyTests {
    @Test(arguments: [
        (SkipReason.conditionFalse, "condition is false"),
        (.setupFailed, "setup failed"),
        (.earlierStepFailed, "an earlier step failed"),
        (.loginFailed, "login failed"),
        (.variablesFailed, "the workflow's variables could not be evaluated"),
        (.interrupted(Interruption(signal: 15, signalName: "SIGTERM")), "interrupted by SIGTERM"),
        (.interrupted(.cancelled), "interrupted"),
        (.teardownDeadline(Interruption(signal: 2, signalName: "SIGINT"), grace: .seconds(10)),
         "interrupted by SIGINT; teardown stopped at its 10 s deadline"),
        (.teardownDeadline(Interruption(signal: 2, signalName: "SIGINT"), grace: .milliseconds(2500)),
         "interrupted by SIGINT; teardown stopped at its 2500 ms deadline"),
        (.failFastCancelled, "cancelled: --fail-fast"),
        (.failFastNotRun, "not run: --fail-fast"),
        (.anotherWorkflowInvalid, "not run: another workflow is invalid"),
        (.notRendered(what: "include var user", capture: "token"), "not rendered (--dry-run): include var user depends on capture token"),
    ])
    func eachSkipReasonReadsAsTheContractSaysIt(reason: SkipReason, text: String) {
        #expect(reason.description == text)
    }

    @Test func aReportsSkipReasonIsReadBackAsTheSameCaseOrKeptAsWritten() {
        for fixed in [SkipReason.conditionFalse, .setupFailed, .earlierStepFailed, .loginFailed, .variablesFailed,
                      .failFastCancelled, .failFastNotRun, .anotherWorkflowInvalid] {
            #expect(SkipReason(text: fixed.description) == fixed)
        }
        #expect(SkipReason(text: "interrupted by SIGHUP") == .recorded("interrupted by SIGHUP"))
        #expect(SkipReason(text: "interrupted by SIGHUP").description == "interrupted by SIGHUP")
    }

    @Test func stepOutcomesRoundTripThroughJSONWithTheirKinds() throws {
        let outcomes: [StepOutcome] = [
            .skipped(reason: .failFastCancelled),
            .errored(StepError(.loginFailed, message: "login failed: 'auth › log in' failed")),
            .errored(StepError(.cancelled, message: "interrupted by SIGTERM")),
            .errored(StepError(.transfer("connection_refused"), message: "refused", hint: "is it running?")),
        ]
        let data = try JSONEncoder().encode(outcomes)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""type":"login_failed""#))
        #expect(text.contains(#""type":"connection_refused""#))
        #expect(text.contains(#""reason":"cancelled: --fail-fast""#))
        #expect(try JSONDecoder().decode([StepOutcome].self, from: data) == outcomes)
    }

    @Test func theEngineOwnKindsAreNotTakenForTransferNames() {
        for kind in [StepError.Kind.template, .include, .cancelled, .loginFailed, .invalidWorkflow] {
            #expect(StepError.Kind(name: kind.description) == kind)
        }
        #expect(StepError.Kind(name: "tls_pin_mismatch") == .transfer("tls_pin_mismatch"))
    }
}
