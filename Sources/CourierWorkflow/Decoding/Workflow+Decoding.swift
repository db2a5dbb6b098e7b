import CourierDiagnostics
import Foundation

extension WorkflowDecoder {
    static let workflowKeys = ["name", "description", "tags", "vars", "secrets", "defaults", "auth", "setup", "steps",
                               "teardown", "continue_on_failure"]

    func workflow(_ root: YAMLNode, file: String) -> Workflow? {
        let directory = Self.directory(of: file)
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
        let defaults = f["defaults"].map(defaults) ?? RequestOptions()
        let auth = f["auth"].flatMap(authFlow)
        let setup = f["setup"].map { self.steps($0, for: "setup") } ?? []
        var steps: [Step] = []
        if let s = f["steps"] {
            if s.sequence?.isEmpty == true || s.isNull {
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

    static func directory(of file: String) -> String {
        let directory = (file as NSString).deletingLastPathComponent
        return directory.isEmpty ? "." : directory
    }
}

// MARK: - Entry points

/// Loads and decodes the workflow at `path` (read through `sources`, so
/// diagnostics can quote it later).
///
/// Collects every diagnostic it can; the result is a failure when any is an
/// error. Relative paths inside stay as written; resolve them against
/// ``Workflow/directory``.
package func loadWorkflow(path: String, sources: SourceStore) -> Result<Workflow, DiagnosticList> {
    loadDocument(path: path, sources: sources, emptyMessage: "the workflow is empty; it needs at least 'steps:'") { decoder, root in
        decoder.workflow(root, file: path)
    }
}

/// Decodes a workflow from text registered under `path` (for tests, stdin, `validate` of generated files).
package func decodeWorkflow(text: String, path: String, sources: SourceStore) -> Result<Workflow, DiagnosticList> {
    sources.register(path: path, text: text)
    return loadWorkflow(path: path, sources: sources)
}

/// Loads a `--vars-file`: a YAML map of name → value (strings may hold templates).
package func loadVarsFile(path: String, sources: SourceStore) -> Result<[VariableDefinition], DiagnosticList> {
    loadDocument(path: path, sources: sources, emptyMessage: nil) { decoder, root in
        decoder.variables(root, for: "vars file")
    }
}

/// Loads the steps of an `include:` file: a list of steps, or a workflow whose `steps` are taken.
///
/// Step ids are checked for duplicates within the file only; the engine checks
/// include cycles and ids across files.
package func loadIncludedSteps(path: String, sources: SourceStore) -> Result<[Step], DiagnosticList> {
    loadDocument(path: path, sources: sources, emptyMessage: "the included file is empty; it should hold a list of steps") { decoder, root in
        if case .sequence = root.kind { return decoder.steps(root, for: "include") }
        return decoder.workflow(root, file: path)?.steps
    }
}

private func loadDocument<T>(path: String, sources: SourceStore, emptyMessage: String?,
                             _ decode: (WorkflowDecoder, YAMLNode) -> T?) -> Result<T, DiagnosticList> {
    let file: SourceFile
    do {
        file = try sources.file(path)
    } catch {
        let reason = (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
        return .failure(DiagnosticList([.error("cannot read '\(path)': \(reason)", at: nil)]))
    }
    let loaded = YAMLLoader().load(file.text, file: path)
    let decoder = WorkflowDecoder()
    decoder.diagnostics = loaded.diagnostics
    var value: T?
    if let root = loaded.root {
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
    if let value, !list.hasErrors { return .success(value) }
    return .failure(DiagnosticList(list.sorted))
}
