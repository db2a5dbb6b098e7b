import CourierResults
import CourierWorkflow

/// One workflow run's results as they finish: each is named (unique in the workflow),
/// told to the run's control and event stream, and kept for the workflow's result.
final class ResultLog {
    private(set) var results: [StepResult] = []
    /// Every result's reported name is its own in this workflow (spec section 12).
    private var uniqueNames = UniqueStepNames()
    private let state: WorkflowState
    private let events: WorkflowEvents

    init(state: WorkflowState, events: WorkflowEvents) {
        self.state = state
        self.events = events
    }

    func record(_ result: consuming StepResult) {
        events.stepFinished(result)
        // Last: the result moves into the list (a copy retains every string of every attempt).
        results.append(result)
    }

    /// Reports a step skipped; an include's steps are reported one by one
    /// when its file is known, so a report lists the same testcases every run.
    func skip(_ step: Step, phase: StepPhase, context: StepContext, reason: SkipReason) {
        if case .include(let include) = step.action, let file = include.resolved, !file.steps.isEmpty {
            let label = step.name.map { TemplateSource.text(of: $0) } ?? file.displayName
            let inner = context.entering(directory: file.directory, label: label, file: file.path)
            for included in file.steps { skip(included, phase: phase, context: inner, reason: reason) }
            return
        }
        record(StepResult(name: fullName(of: step, in: context), phase: phase, location: step.range, outcome: .skipped(reason: reason)))
    }

    /// Reports a step whose `if`, `for_each` or `name` could not be evaluated.
    func errored(_ step: Step, phase: StepPhase, context: StepContext, _ error: EvaluationError) {
        record(StepResult(name: fullName(of: step, in: context), phase: phase, location: step.range,
                          outcome: .errored(StepError(.template, message: error.message, location: error.range))))
    }

    /// `login › log in`, `auth › log in (2)`: the name reports show, with its include and login
    /// prefixes, numbered when an earlier result of this workflow has it (`GET /health (2)`).
    /// Called once per result: each call claims the name it returns.
    func fullName(of step: Step, in context: StepContext, iteration: Int? = nil) -> String {
        // Most steps are neither included nor a login's: their name as it is, not concatenated.
        let full = context.prefix.isEmpty && context.suffix.isEmpty ? name(of: step) : context.prefix + name(of: step) + context.suffix
        return uniqueNames.claim(full, iteration: iteration)
    }

    /// The step's `name` rendered when its variables exist, else as written.
    private func name(of step: Step) -> String {
        if let name = step.name, let rendered = try? state.renderer.string(name) { return rendered }
        return StepNaming.name(of: step)
    }
}

/// What one workflow run tells the engine's control and event stream.
struct WorkflowEvents {
    let file: String
    /// Where this workflow is in the run's (path) order: the key of its events and snapshots.
    let index: Int
    let control: RunControl
    let onEvent: @Sendable (RunEvent) -> Void

    func stepFinished(_ result: StepResult) {
        control.stepFinished(index, result)
        onEvent(.stepFinished(file: file, result))
    }

    func attemptFinished(step: String, phase: StepPhase, number: Int, _ record: Attempt) {
        onEvent(.attemptFinished(file: file, step: step, phase: phase, number: number, record))
    }

    func attemptRetried(step: String, _ retry: AttemptRetry) {
        onEvent(.attemptRetried(file: file, step: step, retry))
    }

    func warning(_ message: String) {
        onEvent(.warning(file: file, message: message))
    }

    func teardownStarting() {
        control.teardownStarting(index)
    }

    func workflowFinished(_ result: WorkflowResult) {
        control.workflowFinished(index, result)
        onEvent(.workflowFinished(result))
    }
}
