import CourierDiagnostics
import Foundation

extension WorkflowDecoder {
    static let workflowKeys = ["name", "description", "tags", "vars", "secrets", "defaults", "auth", "setup", "steps",
                               "teardown", "continue_on_failure"]

    func workflow(_ root: YAMLNode, file: String) -> Workflow? {
        let directory = FilePaths.directory(of: file)
        guard let f = fields(root, in: "workflow", allowed: Self.workflowKeys, hints: [
            "request": "a workflow lists its requests under 'steps:' (each step has a 'request:')",
        ]) else { return nil }
        let defaultName = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let name = f["name"].flatMap { string($0, for: "name")?.value } ?? defaultName
        let description = f["description"].flatMap { string($0, for: "description")?.value }
        var tags: [Located<String>] = []
        if let t = f["tags"], let items = sequence(t, for: "tags") {
            tags = items.compactMap { string($0, for: "tags") }
        }
        let vars = f["vars"].map { variables($0, for: "vars") } ?? []
        let secrets = f["secrets"].map { variables($0, for: "secrets") } ?? []
        for secret in secrets { checkSecretLength(secret) }
        let defaults = f["defaults"].map(defaults) ?? RequestOptions()
        let auth = f["auth"].flatMap(authFlow)
        let setup = f["setup"].map { self.steps($0, for: "setup") } ?? []
        var steps: [Step] = []
        if let s = f["steps"] {
            if let streamed, streamed.count > 0 {
                steps = streamed.kept
            } else if s.sequence?.isEmpty == true || s.isNull {
                error("'steps' is empty; a workflow needs at least one step", at: s.range)
            } else {
                steps = self.steps(s, for: "steps")
            }
        } else {
            error("missing required key 'steps' in workflow; add a list of steps", at: SourceRange(at: root.range.start))
        }
        let teardown = f["teardown"].map { self.steps($0, for: "teardown") } ?? []
        let continueOnFailure = f["continue_on_failure"].flatMap { bool($0, for: "continue_on_failure") } ?? false
        return Workflow(file: file, directory: directory, name: name, description: description, tags: tags, vars: vars,
                        secrets: secrets, defaults: defaults, auth: auth, setup: setup, steps: steps, teardown: teardown,
                        continueOnFailure: continueOnFailure, range: root.range)
    }

    /// A literal secret (or a literal leaf of a structured one) too short to mask is an
    /// error at its value; templated ones are checked when they are computed.
    private func checkSecretLength(_ definition: VariableDefinition) {
        let short = SecretLength.shortLeaves(of: definition.value, named: definition.name) { value in
            switch value.kind {
            case .null, .bool: .none
            case .number(let written, _): .text(written)
            // A template is checked once computed; only literal text is known now.
            case .string(let template): template.literalText.map { .text($0) } ?? .none
            case .array(let items): .list(items)
            case .object(let pairs): .map(pairs.map { ($0.key, $0.value) })
            }
        }
        for (name, length, value) in short {
            error(SecretLength.tooShortMessage(name: name, length: length), at: value.range)
        }
    }
}

// MARK: - Entry points

/// Loads and decodes the workflow at `path` (read through `sources`, so
/// diagnostics can quote it later).
///
/// Collects every diagnostic it can; the result is a failure when any is an
/// error. Literal includes are loaded (errors in them point into the included
/// file; cycles are errors) and literal file paths are checked, unless
/// `options` turns that off. Relative paths inside stay as written; resolve
/// them against ``Workflow/directory`` (or ``IncludedFile/directory``).
///
/// With `stepSink`, the top-level steps go to it one at a time as they are decoded and the
/// workflow's ``Workflow/steps`` stays empty: a caller that only checks them (`validate`)
/// never holds a large file's model whole.
package func loadWorkflow(path: String, sources: SourceStore, options: LoadOptions = LoadOptions(),
                          stepSink: (any StepSink)? = nil) -> Result<Workflow, DiagnosticList> {
    let loading = options.resolveFiles ? LoadingContext(sources: sources, chain: [FilePaths.normalize(path)]) : nil
    var warnings: [Diagnostic] = []
    let result = loadDocument(path: path, sources: sources, loading: loading, streaming: true, stepSink: stepSink,
                              emptyMessage: "the workflow is empty; it needs at least 'steps:'") { decoder, root in
        defer { warnings = decoder.diagnostics.filter { $0.severity == .warning } }
        return decoder.workflow(root, file: path)
    }
    return result.map { workflow in
        var workflow = workflow
        workflow.warnings = DiagnosticList(warnings).sortedAndLimited
        return workflow
    }
}

/// Decodes a workflow from text registered under `path` (for tests, stdin, `validate` of generated files).
package func decodeWorkflow(text: String, path: String, sources: SourceStore, options: LoadOptions = LoadOptions()) -> Result<Workflow, DiagnosticList> {
    sources.register(path: path, text: text)
    return loadWorkflow(path: path, sources: sources, options: options)
}

/// Loads a `--vars-file`: a YAML map of name → value (strings may hold templates).
package func loadVarsFile(path: String, sources: SourceStore) -> Result<[VariableDefinition], DiagnosticList> {
    loadDocument(path: path, sources: sources, loading: nil, streaming: false, emptyMessage: nil) { decoder, root in
        decoder.variables(root, for: "vars file")
    }
}

/// Loads an included file at run time (for an `include:` whose path is a template).
///
/// `path` is already resolved against the including file's directory;
/// `chain` lists the files being run, outermost first, so a cycle through
/// this file is an error (`a.yaml → b.yaml → a.yaml`). Literal includes inside
/// are loaded too.
package func loadIncludedFile(path: String, sources: SourceStore, chain: [String]) -> Result<IncludedFile, DiagnosticList> {
    let normalized = FilePaths.normalize(path)
    if let cycle = IncludeCycle.message(including: normalized, from: chain) {
        return .failure(DiagnosticList([.error(cycle, at: nil)]))
    }
    guard sources.exists(normalized) else {
        return .failure(DiagnosticList([.error("included file '\(normalized)' does not exist", at: nil)]))
    }
    let loading = LoadingContext(sources: sources, chain: chain + [normalized])
    let decoded = decodeIncludedFile(path: normalized, loading: loading)
    let list = DiagnosticList(decoded.diagnostics)
    if let steps = decoded.steps, !list.hasErrors { return .success(IncludedFile(path: normalized, steps: steps)) }
    return .failure(DiagnosticList(list.sortedAndLimited))
}

private func loadDocument<T>(path: String, sources: SourceStore, loading: LoadingContext?, streaming: Bool,
                             stepSink: (any StepSink)? = nil, emptyMessage: String?,
                             _ decode: (WorkflowDecoder, YAMLNode) -> T?) -> Result<T, DiagnosticList> {
    let file: SourceFile
    do {
        file = try sources.file(path)
    } catch {
        let reason = (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
        return .failure(DiagnosticList([.error("cannot read '\(path)': \(reason)", at: nil)]))
    }
    if let offset = file.firstInvalidByte {
        // The text was repaired on reading; say where the first bad byte was instead.
        let at = SourceRange(at: YAMLLoader.location(ofByte: offset, in: file.text, file: path))
        return .failure(DiagnosticList([.error("invalid YAML input: the file is not valid UTF-8 (byte \(offset)); save it as UTF-8", at: at)]))
    }
    let directory = FilePaths.directory(of: path)
    let stream = streaming ? StreamedSteps(sink: stepSink) { WorkflowDecoder(directory: directory, loading: loading) } : nil
    var loaded = YAMLLoader().load(file.text, file: path, steps: stream)
    let root = loaded.root
    loaded.root = nil
    let decoder = stream?.decoder ?? WorkflowDecoder(directory: directory, loading: loading)
    decoder.streamed = stream?.taken
    // A file that is not valid YAML reports only that: steps streamed before the error are
    // not judged (as they were not when the tree was decoded after reading).
    decoder.diagnostics = root == nil ? loaded.diagnostics : loaded.diagnostics + decoder.diagnostics
    var value: T?
    if let root {
        value = decode(decoder, root)
    } else if loaded.diagnostics.isEmpty {
        if let emptyMessage {
            decoder.diagnostics.append(.error(emptyMessage, at: SourceRange(at: SourceLocation(file: path, line: 1, column: 1))))
        } else {
            // An empty vars file defines nothing: not an error.
            let empty = YAMLNode(kind: .mapping([]), range: SourceRange(at: SourceLocation(file: path, line: 1, column: 1)))
            value = decode(decoder, empty)
        }
    }
    let list = DiagnosticList(decoder.diagnostics)
    if let root, file.text.utf8.count >= backgroundFreeSize { freeInBackground(root) }
    if let value, !list.hasErrors { return .success(value) }
    return .failure(DiagnosticList(list.sortedAndLimited))
}

/// From this size on a file's YAML tree is freed on a thread of its own (tens of thousands of
/// nodes: a tenth of a 2,000-step file's load), while the caller goes on with the model.
private let backgroundFreeSize = 64 * 1024

/// Drops what is likely the last reference to `root` on a thread of its own, so its nodes
/// are deallocated there (the decoder's own references to a few of them go with it).
private func freeInBackground(_ root: consuming YAMLNode) {
    let tree = root
    Thread.detachNewThread { withExtendedLifetime(tree) {} }
}
