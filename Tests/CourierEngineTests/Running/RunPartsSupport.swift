import CourierDiagnostics
@testable import CourierEngine
import CourierResults
import CourierWorkflow

/// One workflow run's parts, put together as the engine puts them together, so a test can
/// drive one part (a phase of steps, one include, one login) and look at the state after.
struct RunParts {
    let runner: WorkflowRunner
    let engine: Engine
    let workflow: Workflow

    var steps: StepRunner { runner.steps }
    var state: WorkflowState { runner.state }
    var results: [StepResult] { runner.log.results }
    var top: StepContext { .top(of: workflow) }

    init(_ yaml: String, transport: FakeTransport = FakeTransport(), settings: RunSettings = RunSettings(),
         sources: SourceStore? = nil, control: RunControl = RunControl(), stop: RunStop = RunStop(),
         sleeper: any Sleeper = NoWaitSleeper(), offDriver: (any TaskExecutor)? = nil) throws {
        workflow = try decode(yaml, sources: sources)
        var engine = Engine(transport: transport, settings: settings, sources: sources ?? SourceStore(), control: control,
                            sleeper: sleeper)
        engine.heavyWorkExecutor = offDriver
        self.engine = engine
        let clock = RunClock(clock: engine.clock)
        control.runStarted(at: clock.startedAt)
        runner = WorkflowRunner(workflow: workflow, index: 0, engine: engine, plan: RunPlan(engine: engine), clock: clock, stop: stop)
    }

    /// Runs the workflow's `steps:` as one phase; returns whether any failed and the skip reason it ended with.
    func runSteps() async -> (failed: Bool, skipReason: String?) {
        var reason: SkipReason? = nil
        let failed = await steps.runPhase(workflow.steps, phase: .steps, context: top, skipReason: &reason)
        return (failed, reason?.description)
    }
}
