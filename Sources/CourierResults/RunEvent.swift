/// What the engine reports while it runs, so a console can stream progress.
package enum RunEvent: Sendable {
    case workflowStarted(file: String, name: String)
    case stepFinished(file: String, StepResult)
    case workflowFinished(WorkflowResult)
    /// Something a user should know that fails nothing (`warning: …` on the console).
    case warning(file: String, message: String)
    /// An attempt of `step` (its display name) is retried: the console shows it as it happens.
    case attemptRetried(file: String, step: String, AttemptRetry)
    /// An attempt of a step (its display name, `[i]` included) was recorded: `number` counts
    /// from 1. Sent before the attempt's `attemptRetried`, so `-v` can show each exchange as it happens.
    case attemptFinished(file: String, step: String, phase: StepPhase, number: Int, Attempt)
}
