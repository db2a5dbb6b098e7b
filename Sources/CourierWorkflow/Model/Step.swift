import CourierDiagnostics

/// One step of `setup`, `steps`, `teardown` or `auth.login` (spec section 4).
package struct Step: Sendable {
    /// The fields live in one immutable object: a step is over 1.5 kB inline,
    /// and decoding moved steps through optionals, enums and arrays, copying
    /// all of it each time. A setter replaces the object (steps are rarely changed).
    private final class Storage: Sendable {
        let name: Template?
        let id: Located<String>?
        let action: StepAction
        let expect: Expectations
        let capture: [Capture]
        /// Boxed: most steps have none, and inline it took 296 bytes of every step.
        private let setRetry: Boxed<StepRetry>?
        let condition: Expression?
        let forEach: ForEach?
        let delay: Duration?
        let continueOnFailure: Bool?
        let range: SourceRange
        let readsRawBytes: Bool

        var retry: StepRetry? { setRetry?.value }

        init(name: Template?, id: Located<String>?, action: StepAction, expect: Expectations, capture: [Capture], retry: StepRetry?, condition: Expression?, forEach: ForEach?, delay: Duration?, continueOnFailure: Bool?, range: SourceRange) {
            self.name = name
            self.id = id
            self.action = action
            self.expect = expect
            self.capture = capture
            self.setRetry = retry.map(Boxed.init)
            self.condition = condition
            self.forEach = forEach
            self.delay = delay
            self.continueOnFailure = continueOnFailure
            self.range = range
            self.readsRawBytes = Self.asksForRawBytes(expect, capture, retry?.abortIf)
        }

        private static func asksForRawBytes(_ expect: Expectations, _ capture: [Capture], _ abortIf: Expectations?) -> Bool {
            expect.readsRawBytes || abortIf?.readsRawBytes == true
                || capture.contains { if case .bytes(_, .raw) = $0.source { true } else { false } }
        }
    }

    private var storage: Storage

    /// Nil: the engine shows `METHOD url`.
    package var name: Template? { storage.name }

    package var id: Located<String>? { storage.id }

    package var action: StepAction { storage.action }

    package var expect: Expectations { storage.expect }

    package var capture: [Capture] { storage.capture }

    /// Overrides `defaults.retry` as a whole.
    package var retry: StepRetry? { storage.retry }

    /// `if:`; the step runs only when it is true.
    package var condition: Expression? { storage.condition }

    package var forEach: ForEach? { storage.forEach }

    /// Wait before the step.
    package var delay: Duration? { storage.delay }

    /// Nil: the workflow's `continue_on_failure`.
    package var continueOnFailure: Bool? { storage.continueOnFailure }

    package var range: SourceRange { storage.range }

    /// Whether a check or capture reads the body as received (`raw: true`): the request then
    /// keeps the encoded body and Courier undoes its Content-Encoding. Found once, at decode.
    package var readsRawBytes: Bool { storage.readsRawBytes }

    package init(name: Template?, id: Located<String>?, action: StepAction, expect: Expectations, capture: [Capture],
                 retry: StepRetry?, condition: Expression?, forEach: ForEach?, delay: Duration?,
                 continueOnFailure: Bool?, range: SourceRange) {
        storage = Storage(name: name, id: id, action: action, expect: expect, capture: capture, retry: retry, condition: condition, forEach: forEach, delay: delay, continueOnFailure: continueOnFailure, range: range)
    }

    /// The request, when this step sends one.
    package var request: Request? {
        if case .request(let r) = action { return r }
        return nil
    }
}

/// A step sends a request or includes other steps: exactly one.
package enum StepAction: Sendable {
    case request(Request)
    case include(Include)
}

/// `for_each:` — a literal list, or an expression that evaluates to one.
package enum ForEach: Sendable {
    case list([TemplateValue])
    case expression(Expression)
}

/// `include: path` (with optional `vars:`), or `include: { path: …, vars: … }`.
///
/// The path is relative to the directory of the file that names it. A literal
/// path is loaded with the workflow (``resolved`` is set, cycles and errors in
/// the included file are reported before anything is sent); a templated one is
/// loaded by the engine when the step runs, with ``loadIncludedFile(path:sources:chain:)``.
package struct Include: Sendable {
    package var path: Template
    /// Evaluated in the including scope; visible inside the included steps only.
    package var vars: [VariableDefinition]
    package var range: SourceRange
    /// The included file, when ``path`` is literal and the file could be loaded.
    package var resolved: IncludedFile?

    package init(path: Template, vars: [VariableDefinition], range: SourceRange, resolved: IncludedFile? = nil) {
        self.path = path
        self.vars = vars
        self.range = range
        self.resolved = resolved
    }
}

/// The steps of an included file, decoded in that file's context.
package struct IncludedFile: Sendable {
    /// The file's path: the including file's directory joined with the path as written, normalised.
    package var path: String
    /// What relative paths inside the included steps resolve against.
    package var directory: String
    package var steps: [Step]

    package init(path: String, steps: [Step]) {
        self.path = path
        self.directory = FilePaths.directory(of: path)
        self.steps = steps
    }

    /// The name reports put before the included steps' names when the include
    /// step has no `name:`: the file name without extension and without the
    /// leading `_` that marks fragments (`_login.yaml` → `login`).
    package var displayName: String {
        let base = FilePaths.baseName(of: path)
        let trimmed = base.drop { $0 == "_" }
        return trimmed.isEmpty ? base : String(trimmed)
    }
}
