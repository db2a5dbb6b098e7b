import CourierJSON
import CourierResults
import CourierSecrets
import CourierWorkflow

/// Runs one workflow: variables, setup, steps, teardown.
///
/// Puts together the parts of one run (``StepRunner``, ``IncludeRunner``, ``AttemptRunner``,
/// ``LoginFlow``, ``CredentialHarvester``) over one ``WorkflowState``; each part is handed
/// what it needs of the ``RunPlan``. Lives inside one task; its mutable state never crosses threads.
final class WorkflowRunner {
    // Not private: unit tests drive the parts of a run directly.
    let state: WorkflowState
    let log: ResultLog
    private let events: WorkflowEvents
    private let stopping: WorkflowStopping
    private let harvester: CredentialHarvester
    let steps: StepRunner
    private let variables: RunPlan.Variables
    private let clock: RunClock
    private var workflow: Workflow { state.workflow }

    init(workflow: Workflow, index: Int, engine: Engine, plan: RunPlan, clock: RunClock, stop: RunStop) {
        let state = WorkflowState(workflow: workflow, environment: plan.environment, functions: plan.functions)
        let events = WorkflowEvents(file: workflow.file, index: index, control: engine.control, onEvent: engine.onEvent)
        let log = ResultLog(state: state, events: events)
        let stopping = WorkflowStopping(control: engine.control, stop: stop)
        let harvester = CredentialHarvester(registry: plan.secrets, environment: plan.environment)
        let placeholders = plan.placeholders()
        let attempts = AttemptRunner(state: state, log: log, events: events, stopping: stopping, harvester: harvester,
                                     placeholders: placeholders, plan: plan, clock: clock)
        let includes = IncludeRunner(state: state, log: log, clock: clock, sources: plan.sources, offDriver: plan.offDriver)
        let login = workflow.auth.map { LoginFlow(flow: $0, log: log, workflow: workflow) }
        self.steps = StepRunner(state: state, log: log, stopping: stopping, attempts: attempts, includes: includes, login: login,
                                placeholders: placeholders, sleeper: plan.sleeper, clock: clock)
        self.state = state
        self.log = log
        self.events = events
        self.stopping = stopping
        self.harvester = harvester
        self.variables = plan.variables
        self.clock = clock
    }

    /// Runs the workflow. The engine has announced its start already.
    func run() async -> WorkflowResult {
        let start = clock.elapsedMicroseconds()
        var reason: SkipReason? = nil
        if let error = defineVariables() {
            log.record(StepResult(name: "variables", phase: .setup, location: error.range,
                                  outcome: .errored(StepError(.template, message: error.message, location: error.range))))
            reason = .variablesFailed
        }
        let top = StepContext.top(of: workflow)
        await steps.runPhase(workflow.setup, phase: .setup, context: top, skipReason: &reason)
        await steps.runPhase(workflow.steps, phase: .steps, context: top, skipReason: &reason)

        // Teardown always runs, also after an interruption (its requests are shielded from
        // the run's cancellation, see ``TransportDelivery``), until the control's deadline
        // after an interruption.
        events.teardownStarting()
        stopping.teardownStarted()
        var noSkip: SkipReason? = nil
        await steps.runPhase(workflow.teardown, phase: .teardown, context: top, skipReason: &noSkip)
        return finish(startedAt: clock.timestamp(at: start), durationMicroseconds: clock.elapsedMicroseconds(since: start))
    }

    /// Reports every step skipped (setup, steps, teardown) for a workflow that never started
    /// (the engine has announced it).
    func reportNotRun(reason: SkipReason) -> WorkflowResult {
        let top = StepContext.top(of: workflow)
        for (steps, phase) in [(workflow.setup, StepPhase.setup), (workflow.steps, .steps), (workflow.teardown, .teardown)] {
            for step in steps { log.skip(step, phase: phase, context: top, reason: reason) }
        }
        return finish(startedAt: .zero, durationMicroseconds: 0)
    }

    private func finish(startedAt: Timestamp, durationMicroseconds: Int) -> WorkflowResult {
        let result = WorkflowResult(
            file: workflow.file, name: workflow.name, description: workflow.description,
            tags: workflow.tags.map(\.value), steps: log.results, startedAt: startedAt,
            durationMicroseconds: durationMicroseconds)
        events.workflowFinished(result)
        return result
    }

    /// `vars` then `secrets`, top to bottom, each able to use the ones before;
    /// `--var` and `--vars-file` values win over what the file says.
    private func defineVariables() -> EvaluationError? {
        for (name, value) in variables.file { state.scope[name] = value }
        for (name, value) in variables.commandLine { state.scope[name] = value }
        for (definitions, areSecret) in [(workflow.vars, false), (workflow.secrets, true)] {
            for definition in definitions {
                let value: JSONValue
                if let override = variables.override(for: definition.name) {
                    value = override
                } else {
                    if areSecret { harvester.textsQuoted(in: definition.value) }
                    // A secret's error message must not quote the value it was computing.
                    var renderer = state.renderer
                    renderer.redactingValues = areSecret
                    do { value = try renderer.value(definition.value) } catch { return error }
                }
                state.scope[definition.name] = value
                guard areSecret else { continue }
                harvester.declaredSecret(value, name: definition.name)
                // Literal ones were refused at load; this catches templates and --var values.
                if let (name, length) = SecretLength.firstShortLeaf(of: value, named: definition.name) {
                    return EvaluationError(.invalid, SecretLength.tooShortMessage(name: name, length: length),
                                           at: definition.value.range)
                }
            }
        }
        return nil
    }
}
