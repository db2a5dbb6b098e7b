import CourierDiagnostics

/// How a workflow is loaded.
package struct LoadOptions: Sendable {
    /// Load literal `include:` paths and check that literal file paths
    /// (multipart `file`, `body_file`, `tls.ca/cert/key`, `schema` files)
    /// exist. Default true; tests of the model's shape turn it off.
    package var resolveFiles = true

    package init(resolveFiles: Bool = true) {
        self.resolveFiles = resolveFiles
    }
}

/// What the decoders of one workflow and of the files it includes share.
final class LoadingContext {
    let sources: SourceStore
    /// The files being decoded, outermost first (normalised paths), to find cycles.
    var chain: [String]
    /// Files already included once in this load: a fragment included twice is
    /// decoded (and its problems reported) once.
    var loaded: [String: IncludedFile] = [:]

    init(sources: SourceStore, chain: [String]) {
        self.sources = sources
        self.chain = chain
    }
}

extension WorkflowDecoder {
    /// Keys whose file is read by Courier into the request (a pipe, or `-` for standard
    /// input, is read whole within the step's timeout); every other file (`tls.*`, `schema`)
    /// must be a regular file.
    static let keysTakingPipes: Set<String> = ["body_file", "file"]

    /// Reports a literal path that names no file, or names something that is not a file
    /// (a directory, a device, a socket), at the key's value.
    @discardableResult
    func checkFile(_ path: Template, for key: String) -> Template {
        guard let loading, let text = path.literalText, !text.isEmpty else { return path }
        let takesPipes = Self.keysTakingPipes.contains(key)
        if text == FilePaths.standardInput {
            if !takesPipes { error("'-' (standard input) cannot be used for '\(key)'; name a file", at: path.range) }
            return path
        }
        let resolved = FilePaths.resolve(text, against: directory)
        guard let problem = loading.sources.problem(with: resolved) else {
            if !takesPipes, case .success(.fifo) = BoundedFileReader.type(of: resolved) {
                error("'\(text)' for '\(key)' is a pipe (FIFO), not a file; only 'body_file' and multipart 'file' read pipes",
                      at: path.range)
            }
            return path
        }
        if problem.reason == .missing {
            error("no such file '\(text)' for '\(key)'\(Self.lookedFor(resolved, text))", at: path.range)
        } else {
            error("cannot use '\(text)' for '\(key)': \(problem.reasonText)\(Self.lookedFor(resolved, text))", at: path.range)
        }
        return path
    }

    static func lookedFor(_ resolved: String, _ written: String) -> String {
        resolved == written ? "" : " (looked for '\(resolved)': relative paths start at the directory of the file that names them)"
    }

    /// Loads the file a literal `include:` names, in the context of this file.
    func resolveInclude(_ path: Template) -> IncludedFile? {
        guard let loading, let text = path.literalText else { return nil }
        guard !text.isEmpty else {
            error("'include' needs a file path", at: path.range)
            return nil
        }
        let resolved = FilePaths.resolve(text, against: directory)
        if let cycle = IncludeCycle.message(including: resolved, from: loading.chain) {
            error(cycle, at: path.range)
            return nil
        }
        if let done = loading.loaded[resolved] { return done }
        if let problem = loading.sources.problem(with: resolved) {
            if problem.reason == .missing {
                error("no such file '\(text)' for 'include'\(Self.lookedFor(resolved, text))", at: path.range)
            } else {
                error("cannot include '\(text)': \(problem.reasonText)\(Self.lookedFor(resolved, text))", at: path.range)
            }
            return nil
        }
        loading.chain.append(resolved)
        defer { loading.chain.removeLast() }
        let decoded = decodeIncludedFile(path: resolved, loading: loading)
        let note = Diagnostic.note("included from here", at: path.range)
        for diagnostic in decoded.diagnostics {
            var d = diagnostic
            if d.severity != .note, d.range?.file == resolved { d.notes.append(note) }
            // The file could not be read at all (a pipe that never ended): point at the include.
            if d.range == nil { d.range = path.range }
            diagnostics.append(d)
        }
        guard let steps = decoded.steps else { return nil }
        let file = IncludedFile(path: resolved, steps: steps)
        loading.loaded[resolved] = file
        return file
    }
}

/// Decodes an included file: a list of steps, or a workflow whose `steps` are taken.
func decodeIncludedFile(path: String, loading: LoadingContext) -> (steps: [Step]?, diagnostics: [Diagnostic]) {
    let file: SourceFile
    do {
        file = try loading.sources.file(path)
    } catch {
        return (nil, [.error("cannot read included file '\(path)': \(error.reasonText)", at: nil)])
    }
    let loaded = YAMLLoader().load(file.text, file: path)
    let decoder = WorkflowDecoder(directory: FilePaths.directory(of: path), loading: loading)
    decoder.diagnostics = loaded.diagnostics
    guard let root = loaded.root else {
        if loaded.diagnostics.isEmpty {
            decoder.error("the included file is empty; it should hold a list of steps (or a workflow with 'steps:')",
                          at: SourceRange(at: SourceLocation(file: path, line: 1, column: 1)))
        }
        return (nil, decoder.diagnostics)
    }
    var steps: [Step]?
    switch root.kind {
    case .sequence(let items):
        if items.isEmpty {
            decoder.error("the included file has no steps", at: root.range)
        }
        steps = decoder.steps(root, for: "include")
    case .mapping(let pairs):
        // Only the steps of an included workflow run; say so about the rest
        // rather than silently dropping a `vars:` someone relies on.
        for pair in pairs {
            guard let key = pair.key.scalar?.text else { continue }
            if ["vars", "secrets", "defaults", "auth", "setup", "teardown", "continue_on_failure"].contains(key) {
                decoder.diagnostics.append(.warning(
                    "'\(key)' of an included workflow is not used: only its 'steps' run (give values with the include's 'vars:')",
                    at: pair.key.range))
            }
        }
        steps = decoder.workflow(root, file: path)?.steps
    case .scalar:
        decoder.error("expected a list of steps (or a workflow with 'steps:') in an included file, found \(root.kindDescription)", at: root.range)
    }
    return (steps, decoder.diagnostics)
}
