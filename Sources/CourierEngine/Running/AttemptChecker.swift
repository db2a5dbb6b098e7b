import CourierHTTP
import CourierJSON
import CourierResults
import CourierSecrets
import CourierWorkflow

/// Checks one response: the step's expectations, its `retry.abort_if`, and its captures,
/// into the attempt's own outcome. Changes no variable of the workflow (``AttemptOutcome``).
struct AttemptChecker {
    let state: WorkflowState
    let harvester: CredentialHarvester
    let recording: AttemptRecording

    func check(_ response: HTTPResponse, sent request: HTTPRequest, step: Step, abortIf: Expectations?,
               start: Int) -> AttemptOutcome {
        let view = ResponseView(response)
        // Captures first: the expectations may use them (`expect: { json: { $.total: "{{ count }}" } }`);
        // their records still follow the expectations'.
        let (captures, captureRecords, warnings, attemptScope) = capture(step.capture, from: view, sent: request)
        let renderer = state.renderer(over: attemptScope)
        let expectations = ExpectationChecker(renderer: renderer, secrets: recording.secrets).check(step.expect, response: view, stepRange: step.range)
            + captureRecords
        var abortMatched = false
        if let abortIf {
            abortMatched = !ExpectationChecker(renderer: renderer, secrets: recording.secrets).check(abortIf, response: view, stepRange: step.range)
                .contains { $0.outcome == .failed }
        }
        let record = recording.attempt(request, .success(response), expectations: expectations, start: start)
        // Made whole at the end, not filled in field by field: that built the outcome in a
        // temporary and copied it out.
        return AttemptOutcome(record: record, expectations: expectations, captures: captures,
                              stepValue: step.id != nil ? view.stepValue(request: request) : nil, warnings: warnings, abortMatched: abortMatched,
                              method: request.method, status: response.status, retryAfter: response.headers["Retry-After"])
    }

    /// The step's captures, each read with the attempt's copy of the scope as it is after the
    /// one before (a capture may use an earlier one), each with its records as checks; and that
    /// copy of the scope at the end, for the step's expectations.
    private func capture(_ declared: [Capture], from view: ResponseView, sent request: HTTPRequest)
        -> (captures: [CapturedValue], records: [ExpectationResult], warnings: [String], scope: Scope) {
        var captures: [CapturedValue] = []
        var records: [ExpectationResult] = []
        var warnings: [String] = []
        var attemptScope = state.scope
        attemptScope.sentRequest = request
        for capture in declared {
            var renderer = state.renderer(over: attemptScope)
            renderer.redactingValues = capture.secret
            switch CaptureEvaluator(renderer: renderer).capture(capture, from: view) {
            case .success(let captured):
                let value = captured.value
                attemptScope[capture.name.value] = value
                if capture.secret {
                    // Registered now, committed or not: this attempt's transcript shows it.
                    harvester.secret(value)
                    if SecretLength.firstShortLeaf(of: value, named: capture.name.value) != nil {
                        warnings.append(SecretLength.shortCaptureWarning(name: capture.name.value))
                    }
                }
                captures.append(CapturedValue(name: capture.name.value, value: value, secret: capture.secret))
                var checking = state.renderer(over: attemptScope)
                checking.redactingValues = capture.secret
                records += CaptureEvaluator(renderer: checking, secrets: recording.secrets).records(capture, captured)
            case .failure(let failure):
                records.append(failure)
            }
        }
        return (captures, records, warnings, attemptScope)
    }
}
