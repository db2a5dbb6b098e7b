import CourierDiagnostics
import CourierSecrets
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
    /// `environment`: for `env.NAME` (an unset one is an error in the run's environment, else a warning).
    static func checkNames(_ workflows: [Workflow], externalNames: Set<String>, commandLineKnown: Bool = true,
                           environment: VariableChecker.Environment? = nil) -> [Diagnostic] {
        var seen = Set<Diagnostic>()
        return workflows.flatMap { VariableChecker.check($0, externalNames: externalNames, commandLineKnown: commandLineKnown, environment: environment) }
            .filter { seen.insert($0).inserted }
    }

    /// Registers the `secrets:` values written literally in the files (every
    /// leaf of a structured one), before any diagnostic is printed: a warning's
    /// source excerpt may show the line that holds one. Templated values are
    /// registered by the engine once they are rendered.
    static func registerLiteralSecrets(of workflows: [Workflow], in registry: SecretRegistry) {
        func visit(_ value: TemplateValue, name: String, depth: Int) {
            // The decoder bounds nesting already; this only keeps the walk bounded by itself.
            guard depth < 64 else { return }
            switch value.kind {
            case .string(let template):
                if let text = template.literalText { registry.register(text, name: depth == 0 ? name : nil) }
            case .number(let text, _):
                registry.register(text, name: depth == 0 ? name : nil)
            case .array(let items):
                for item in items { visit(item, name: name, depth: depth + 1) }
            case .object(let members):
                for member in members { visit(member.value, name: name, depth: depth + 1) }
            case .null, .bool:
                break
            }
        }
        for workflow in workflows {
            for definition in workflow.secrets { visit(definition.value, name: definition.name, depth: 0) }
        }
    }

    /// Prints diagnostics compiler-style on standard error (masked, as every output).
    ///
    /// A diagnostic shows its source line, which may hold a literal secret of a file that
    /// never became a workflow (a YAML error below its `secrets:`): the secrets written in
    /// every file with a diagnostic, as far as it parses, are registered first. The JUnit
    /// `validate` cases, written later with the same registry, are covered by that too.
    static func report(_ diagnostics: [Diagnostic], sources: SourceStore, color: Bool) {
        guard !diagnostics.isEmpty else { return }
        registerSecretsOfFiles(named: diagnostics, sources: sources, in: Output.secrets)
        Output.err(DiagnosticRenderer(sources: sources, color: color).render(diagnostics))
    }

    static func registerSecretsOfFiles(named diagnostics: [Diagnostic], sources: SourceStore, in registry: SecretRegistry) {
        var seen = Set<String>()
        for file in diagnostics.compactMap(\.range?.file) where seen.insert(file).inserted {
            guard let source = try? sources.file(file) else { continue }
            for secret in declaredSecretLiterals(in: source.text) { registry.register(secret, name: nil) }
        }
    }
}
