import CourierDiagnostics
import CourierJSON
import CourierResults
import CourierWorkflow

/// Runs an `include:` step: the steps of the included file run as steps of this workflow,
/// each its own result named `<include> › <step>`. The include's `vars` are visible inside
/// only; captures stay visible afterwards (spec section 4).
///
/// A literal path was loaded with the workflow; a templated one is loaded here, with the
/// checks `validate` makes for literal ones, off the thread that drives transfers.
final class IncludeRunner {
    private let state: WorkflowState
    private let log: ResultLog
    private let clock: RunClock
    private let sources: SourceStore
    private let offDriver: (any TaskExecutor)?

    init(state: WorkflowState, log: ResultLog, clock: RunClock, sources: SourceStore, offDriver: (any TaskExecutor)?) {
        self.state = state
        self.log = log
        self.clock = clock
        self.sources = sources
        self.offDriver = offDriver
    }

    /// Why an include could not run: reported as the include step's own error.
    private struct Failure: Error {
        let kind: StepError.Kind
        let message: String
        let location: SourceRange?
    }

    /// Runs the include's steps with `steps`; returns whether any failed.
    func run(_ include: Include, step: Step, phase: StepPhase, context: StepContext, iteration: Int?, start: Int,
             steps: StepRunner) async -> Bool {
        let values: [(name: String, value: JSONValue)]
        let file: IncludedFile
        do {
            values = try evaluateVars(of: include)
            file = try await includedFile(include, context: context, varNames: values.map(\.name))
        } catch {
            log.record(StepResult(name: log.fullName(of: step, in: context, iteration: iteration), phase: phase, location: step.range,
                                  iteration: iteration,
                                  outcome: .errored(StepError(error.kind, message: error.message,
                                                              location: error.location ?? include.range)),
                                  startedAt: clock.timestamp(at: start), durationMicroseconds: clock.elapsedMicroseconds(since: start)))
            return true
        }

        // Include vars shadow outer names for the included steps only.
        let shadowed = values.map { (name: $0.name, previous: state.scope[$0.name], captures: state.captureDefinitions[$0.name, default: 0]) }
        for (name, value) in values { state.scope[name] = value }
        let label = step.name.flatMap { try? state.renderer.string($0) } ?? file.displayName
        let numbered = iteration.map { "\(label) [\($0)]" } ?? label
        let innerContext = context.entering(directory: file.directory, label: numbered, file: file.path)
        var reason: SkipReason? = nil
        let failed = await steps.runPhase(file.steps, phase: phase, context: innerContext, skipReason: &reason)
        for (name, previous, captures) in shadowed where state.captureDefinitions[name, default: 0] == captures {
            // No capture inside defined it again: the include's value goes, what was there comes back.
            // A capture that happens to hold the include's own value stays (contract §4).
            state.scope[name] = previous
        }
        return failed
    }

    /// The include's vars, evaluated in the including scope, in order (each may use the ones before).
    private func evaluateVars(of include: Include) throws(Failure) -> [(name: String, value: JSONValue)] {
        var values: [(name: String, value: JSONValue)] = []
        var inner = state.renderer
        for definition in include.vars {
            do {
                let value = try inner.value(definition.value)
                values.append((definition.name, value))
                inner.scope[definition.name] = value
            } catch {
                throw Failure(kind: .template, message: error.message, location: error.range)
            }
        }
        return values
    }

    /// The file loaded with the workflow, or for a templated path, the one it names now.
    private func includedFile(_ include: Include, context: StepContext, varNames: [String]) async throws(Failure) -> IncludedFile {
        if let resolved = include.resolved { return resolved }
        let written: String
        do { written = try state.renderer.string(include.path) } catch {
            throw Failure(kind: .template, message: error.message, location: error.range)
        }
        let path = FilePaths.resolve(written, against: context.directory)
        let names = Set(state.scope.variables.keys).union(varNames)
        let stepIDs = Set(state.scope.steps.keys)
        let sources = self.sources
        let loaded = await withTaskExecutorPreference(offDriver) {
            Self.load(path: path, written: written, at: include.path.range, sources: sources, chain: context.chain,
                      definedNames: names, stepIDs: stepIDs)
        }
        return try loaded.get()
    }

    /// Loads and name-checks an included file, as `validate` does for a literal path.
    private static func load(path: String, written: String, at pathRange: SourceRange?, sources: SourceStore, chain: [String],
                             definedNames: Set<String>, stepIDs: Set<String>) -> Result<IncludedFile, Failure> {
        switch loadIncludedFile(path: path, sources: sources, chain: chain) {
        case .failure(let list):
            let errors = list.diagnostics.filter { $0.severity == .error }
            let more = errors.count > 1 ? " (and \(errors.count - 1) more)" : ""
            return .failure(Failure(kind: .include, message: "include '\(written)': \(errors.first?.message ?? "cannot be loaded")" + more,
                                    location: errors.first?.range ?? pathRange))
        case .success(let loaded):
            let problems = VariableChecker.check(steps: loaded.steps, definedNames: definedNames, stepIDs: stepIDs)
                .filter { $0.severity == .error }
            if let first = problems.first {
                let more = problems.count > 1 ? " (and \(problems.count - 1) more)" : ""
                return .failure(Failure(kind: .template, message: "include '\(written)': \(first.message)\(more)", location: first.range))
            }
            return .success(loaded)
        }
    }
}
