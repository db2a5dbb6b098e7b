import CourierDiagnostics
import CourierEngine
import CourierSecrets
import CourierWorkflow
import Foundation

/// Loads every file before anything is sent: one invalid file stops the run
/// with exit 2 and every diagnostic printed.
enum WorkflowLoading {
    struct Loaded {
        /// Without their top-level steps when loaded with `keepingSteps: false`.
        var workflows: [Workflow]
        /// What the name check needs of each workflow, in the same order.
        var facts: [NameFacts] = []
        var diagnostics: [Diagnostic]
        /// Files found in a directory that are not workflows (no top-level `steps:`).
        var skipped: [String] = []
        var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// The note on an error in a file found in a directory that may be another tool's.
    static let notOursNote = "if this is not a Courier workflow, list it in .courierignore or pass --exclude"

    /// Loads what discovery found. A file found in a directory without a top-level `steps:`
    /// is skipped, not loaded; one that looks like another tool's (its steps hold no `request`
    /// or `include`, or libyaml stops before any `steps:`) gets ``notOursNote`` on its first error.
    ///
    /// With `keepingSteps: false` (`validate`) each top-level step is checked as it is
    /// decoded and dropped, so a large file's model is never held whole (``CheckedSteps``).
    static func load(_ found: WorkflowDiscovery.Found, sources: SourceStore, keepingSteps: Bool = true) -> Loaded {
        var files: [String] = []
        var skipped: [String] = []
        var maybeNotOurs = Set<String>()
        for candidate in found.candidates {
            // A file that is not valid UTF-8 is judged by its repaired text: a latin-1 vars file
            // is still not a workflow, and a workflow is then told it is not UTF-8.
            guard !candidate.named, let source = try? sources.file(candidate.path) else {
                // Named files, and files that cannot be read: loading says what is wrong.
                files.append(candidate.path)
                continue
            }
            switch WorkflowSniffer.verdict(of: source.text) {
            case .notWorkflow:
                skipped.append(candidate.path)
            case .workflow(let looksLikeCourier):
                if !looksLikeCourier { maybeNotOurs.insert(candidate.path) }
                files.append(candidate.path)
            case .unparsable:
                maybeNotOurs.insert(candidate.path)
                files.append(candidate.path)
            }
        }
        var loaded = load(files, sources: sources, keepingSteps: keepingSteps)
        loaded.skipped = skipped
        var noted = Set<String>()
        for index in loaded.diagnostics.indices where loaded.diagnostics[index].severity == .error {
            guard let file = loaded.diagnostics[index].range?.file, maybeNotOurs.contains(file), noted.insert(file).inserted else { continue }
            loaded.diagnostics[index].notes.append(.note(notOursNote, at: nil))
        }
        return loaded
    }

    /// `suite/docker-compose.yml: skipped: not a workflow (no 'steps:')`, one line per file.
    static func skippedLines(_ skipped: [String]) -> String {
        skipped.map { "\($0): skipped: not a workflow (no 'steps:')\n" }.joined()
    }

    static func load(_ files: [String], sources: SourceStore, keepingSteps: Bool = true) -> Loaded {
        var loaded = Loaded(workflows: [], diagnostics: [])
        for file in files {
            let checked = keepingSteps ? nil : CheckedSteps()
            switch loadWorkflow(path: file, sources: sources, stepSink: checked) {
            case .success(let workflow):
                loaded.workflows.append(workflow)
                let names: [DuplicateStepNames.Entry]
                if let checked {
                    var facts = checked.facts
                    facts.recordOutline(of: workflow)
                    loaded.facts.append(facts)
                    names = workflow.setup.compactMap(DuplicateStepNames.entry) + checked.names
                        + workflow.teardown.compactMap(DuplicateStepNames.entry)
                } else {
                    loaded.facts.append(NameFacts(workflow))
                    names = (workflow.setup + workflow.steps + workflow.teardown).compactMap(DuplicateStepNames.entry)
                }
                // Warnings (e.g. ignored keys of an included workflow) come with a success too.
                loaded.diagnostics += workflow.warnings + DuplicateStepNames.check(names)
            case .failure(let list): loaded.diagnostics += list.diagnostics
            }
        }
        // A fragment included by several workflows reports its problems once.
        loaded.diagnostics = DiagnosticList.eachOnce(loaded.diagnostics)
        return loaded
    }

    /// Names in templates that nothing can define (see ``VariableChecker``):
    /// `externalNames` are those of `--var` and `--vars-file`.
    /// `commandLineKnown`: whether `externalNames` are all the names the run
    /// will get (true for `run`; for `validate`, only when given `--var`/`--vars-file`).
    /// `environment`: for `env.NAME` (an unset one is an error in the run's environment, else a warning).
    static func checkNames(_ workflows: [NameFacts], externalNames: Set<String>, commandLineKnown: Bool = true,
                           environment: VariableChecker.Environment? = nil) -> [Diagnostic] {
        DiagnosticList.eachOnce(workflows.flatMap {
            VariableChecker.check($0, externalNames: externalNames, commandLineKnown: commandLineKnown, environment: environment)
        })
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
        Output.err(DiagnosticRenderer(sources: sources, color: color).styled(diagnostics))
    }

    static func registerSecretsOfFiles(named diagnostics: [Diagnostic], sources: SourceStore, in registry: SecretRegistry) {
        var seen = Set<String>()
        for file in diagnostics.compactMap(\.range?.file) where seen.insert(file).inserted {
            guard let source = try? sources.file(file) else { continue }
            for secret in declaredSecretLiterals(in: source.text) { registry.register(secret, name: nil) }
        }
    }
}
