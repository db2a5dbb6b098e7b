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
            case .success(let workflow): loaded.workflows.append(workflow)
            case .failure(let list): loaded.diagnostics += list.diagnostics
            }
        }
        return loaded
    }

    /// Prints diagnostics compiler-style on standard error.
    static func report(_ diagnostics: [Diagnostic], sources: SourceStore, color: Bool) {
        guard !diagnostics.isEmpty else { return }
        Output.err(DiagnosticRenderer(sources: sources, color: color).render(diagnostics))
    }
}
