import CourierDiagnostics
import CourierWorkflow

/// Loads every file before anything is sent: one invalid file stops the run
/// with exit 2 and every diagnostic printed.
enum WorkflowLoading {
    struct Loaded {
        var workflows: [Workflow]
        var diagnostics: [Diagnostic]
        var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    static func load(_ files: [String], sources: SourceStore) -> Loaded {
        var loaded = Loaded(workflows: [], diagnostics: [])
        for file in files {
            switch loadWorkflow(path: file, sources: sources) {
            case .success(let workflow):
                loaded.workflows.append(workflow)
                // Warnings (e.g. ignored keys of an included workflow) come with a success too.
                loaded.diagnostics += workflow.warnings
            case .failure(let list): loaded.diagnostics += list.diagnostics
            }
        }
        loaded.diagnostics += loaded.workflows.flatMap(notYetRun)
        // A fragment included by several workflows reports its problems once.
        var seen = Set<Diagnostic>()
        loaded.diagnostics = loaded.diagnostics.filter { seen.insert($0).inserted }
        return loaded
    }

    /// Keys of the format this version checks but does not carry out yet: saying so
    /// beats a workflow that silently runs without them.
    static func notYetRun(_ workflow: Workflow) -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        if let auth = workflow.auth {
            warnings.append(.warning("the workflow 'auth' flow is not carried out by this version of courier yet: requests are sent without its credentials", at: auth.range))
        }
        if let retry = workflow.defaults.retry {
            warnings.append(.warning("'retry' is not carried out by this version of courier yet: every step runs once", at: retry.range))
        }
        func visit(_ steps: [Step]) {
            for step in steps {
                if let retry = step.retry {
                    warnings.append(.warning("'retry' is not carried out by this version of courier yet: this step runs once", at: retry.range))
                }
                if case .include(let include) = step.action { visit(include.resolved?.steps ?? []) }
            }
        }
        visit(workflow.setup + workflow.steps + workflow.teardown)
        return warnings
    }

    /// Names in templates that nothing can define (see ``VariableChecker``):
    /// `externalNames` are those of `--var` and `--vars-file`.
    /// `commandLineKnown`: whether `externalNames` are all the names the run
    /// will get (true for `run`; for `validate`, only when given `--var`/`--vars-file`).
    static func checkNames(_ workflows: [Workflow], externalNames: Set<String>, commandLineKnown: Bool = true) -> [Diagnostic] {
        var seen = Set<Diagnostic>()
        return workflows.flatMap { VariableChecker.check($0, externalNames: externalNames, commandLineKnown: commandLineKnown) }
            .filter { seen.insert($0).inserted }
    }

    /// Prints diagnostics compiler-style on standard error.
    static func report(_ diagnostics: [Diagnostic], sources: SourceStore, color: Bool) {
        guard !diagnostics.isEmpty else { return }
        Output.err(DiagnosticRenderer(sources: sources, color: color).render(diagnostics))
    }
}
