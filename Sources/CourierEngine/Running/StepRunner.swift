import CourierJSON
import CourierResults
import CourierWorkflow

/// Runs a workflow's steps phase by phase: what is skipped and why, `if` conditions,
/// `for_each` items and `delay:`, handing each request step to the ``AttemptRunner`` and
/// each include to the ``IncludeRunner``.
final class StepRunner {
    private let state: WorkflowState
    private let log: ResultLog
    private let stopping: WorkflowStopping
    private let attempts: AttemptRunner
    private let includes: IncludeRunner
    private let login: LoginFlow?
    private let placeholders: any PlaceholderPolicy
    private let sleeper: any Sleeper
    private let clock: RunClock

    init(state: WorkflowState, log: ResultLog, stopping: WorkflowStopping, attempts: AttemptRunner, includes: IncludeRunner,
         login: LoginFlow?, placeholders: any PlaceholderPolicy, sleeper: any Sleeper, clock: RunClock) {
        self.state = state
        self.log = log
        self.stopping = stopping
        self.attempts = attempts
        self.includes = includes
        self.login = login
        self.placeholders = placeholders
        self.sleeper = sleeper
        self.clock = clock
    }

    /// Runs steps in order; returns whether any failed. Once `skipReason` is
    /// set the rest are reported skipped, except in teardown, where every step runs.
    @discardableResult
    func runPhase(_ steps: [Step], phase: StepPhase, context: StepContext, skipReason: inout SkipReason?) async -> Bool {
        var anyFailed = false
        for step in steps {
            if !stopping.isCleaningUp(phase) {
                if skipReason == nil && Task.isCancelled { skipReason = stopping.stopReason }
                if let reason = skipReason {
                    log.skip(step, phase: phase, context: context, reason: reason)
                    continue
                }
            } else if stopping.deadlinePassed {
                log.skip(step, phase: phase, context: context, reason: stopping.teardownDeadlineReason)
                continue
            }
            let loginFailedBefore = login?.hasFailed == true
            let failed = await runStep(step, phase: phase, context: context)
            anyFailed = anyFailed || failed
            // A failed login stops the workflow whatever `continue_on_failure` says: every
            // request after it would fail the same way (teardown still runs).
            let loginFailed = !loginFailedBefore && login?.hasFailed == true && !context.inLogin
            let goOn = phase == .steps && (step.continueOnFailure ?? state.workflow.continueOnFailure) && !loginFailed
            if failed && !goOn && phase != .teardown {
                skipReason = Task.isCancelled ? stopping.stopReason
                    : loginFailed ? .loginFailed
                    : (phase == .setup ? .setupFailed : .earlierStepFailed)
            }
        }
        return anyFailed
    }

    /// Runs a step (every item of a `for_each`); returns whether it failed.
    private func runStep(_ step: Step, phase: StepPhase, context: StepContext) async -> Bool {
        if let reason = placeholders.notRenderedReason(for: step) {
            log.skip(step, phase: phase, context: context, reason: reason)
            return false
        }
        if let condition = step.condition {
            do {
                guard try state.renderer.condition(condition) else {
                    log.skip(step, phase: phase, context: context, reason: .conditionFalse)
                    return false
                }
            } catch {
                log.errored(step, phase: phase, context: context, error)
                return true
            }
        }
        guard let forEach = step.forEach else {
            return await runOnce(step, phase: phase, context: context, iteration: nil)
        }
        let items: [JSONValue]
        do { items = try self.items(of: forEach) } catch {
            log.errored(step, phase: phase, context: context, error)
            return true
        }
        var failed = false
        let saved = (state.scope["item"], state.scope["index"])
        for (index, item) in items.enumerated() {
            if stopping.mustStop(phase) { break }
            state.scope["item"] = item
            state.scope["index"] = .number(JSONNumber(index))
            if await runOnce(step, phase: phase, context: context, iteration: index + 1) { failed = true }
        }
        state.scope["item"] = saved.0
        state.scope["index"] = saved.1
        return failed
    }

    /// The items of a `for_each`: a list written out, or an expression that gives one.
    private func items(of forEach: ForEach) throws(EvaluationError) -> [JSONValue] {
        let renderer = state.renderer
        switch forEach {
        case .list(let values):
            return try values.map { value throws(EvaluationError) in try renderer.value(value) }
        case .expression(let expression):
            let value = try renderer.evaluate(expression)
            guard case .array(let list) = value else {
                throw EvaluationError(.type, "for_each needs a list, found \(ExpressionEvaluator.describe(value))", at: expression.range)
            }
            return list
        }
    }

    private func runOnce(_ step: Step, phase: StepPhase, context: StepContext, iteration: Int?) async -> Bool {
        let start = clock.elapsedMicroseconds()
        if let delay = step.delay {
            do {
                try await sleeper.sleep(for: delay)
            } catch {
                // Stopped while waiting out `delay:`: nothing was sent, so no request is shown;
                // the step is skipped, as the ones after it are.
                log.record(StepResult(name: log.fullName(of: step, in: context, iteration: iteration), phase: phase,
                                      location: step.range, iteration: iteration,
                                      outcome: .skipped(reason: stopping.reasonCutShort(in: phase))))
                return false
            }
        }
        switch step.action {
        case .include(let include):
            return await includes.run(include, step: step, phase: phase, context: context, iteration: iteration, start: start,
                                      steps: self)
        case .request(let request):
            let result = await attempts.perform(request, step: step, phase: phase, context: context, iteration: iteration,
                                                start: start, login: login?.need(for: request, context: context, steps: self))
            let failed = result.outcome.isProblem
            log.record(result)
            return failed
        }
    }
}
