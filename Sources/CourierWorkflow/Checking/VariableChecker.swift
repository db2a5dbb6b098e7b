import CourierDiagnostics

/// Finds names in templates that no run could define, before anything is sent.
///
/// The rule: a name used at some point must be defined *earlier in run order*
/// by one of
/// - `vars:` or `secrets:` (top to bottom: a var may use the ones before it),
/// - a capture of an earlier step (setup → steps → teardown, included steps in
///   place), or of `auth.login`; the step's own captures count in its `expect:` and
///   `retry.abort_if` (checked after capturing) and in its later captures, and so does
///   `request` (the request it sent),
/// - the include's `vars:` (inside the included steps only),
/// - the command line (`--var`, `--vars-file`: passed in as `externalNames`),
/// - `env`, `steps`, and `item`/`index` inside a `for_each` step.
///
/// A capture counts once written, even in a step that may be skipped by `if:`
/// or that a failure skips: those cases stay run-time errors. A name under
/// `default(…)` is never an error (`{{ region | default('eu') }}` is how a
/// workflow takes an optional `--var`). `defaults:` may use any name defined
/// anywhere in the workflow, since it is rendered for each request.
/// `steps.<id>` needs a step with that id earlier in run order.
///
/// `courier run` knows every command-line name, so there any other unknown
/// name is an error. `courier validate` without `--var`/`--vars-file` does not
/// (`commandLineKnown: false`): an unknown name that is close to a defined one
/// (`tokne` for `token`) is still an error, since it is almost surely a typo;
/// one that resembles nothing is a warning saying `run` will need `--var NAME=…`.
///
/// After an `include:` whose path is a template (loaded only at run time),
/// the checker cannot know what it captures, so later unknown names are
/// warnings instead of errors; the engine checks the included steps when it
/// loads them.
///
/// `env.NAME` (or `env['NAME']`) outside `default(…)` needs `NAME` in the
/// environment the run will have, when the caller knows it (`environment`):
/// an error for `run`, a warning for `validate`, which may run elsewhere.
package struct VariableChecker {
    /// The environment the check assumes, for `env.NAME`.
    package struct Environment: Sendable {
        package var variables: [String: String]
        /// An unset one is an error (`run`) rather than a warning (`validate`).
        package var isTheRunsEnvironment: Bool

        package init(_ variables: [String: String], isTheRunsEnvironment: Bool) {
            self.variables = variables
            self.isTheRunsEnvironment = isTheRunsEnvironment
        }
    }

    /// Checks a whole workflow. `externalNames` are the `--var`/`--vars-file`
    /// names; `commandLineKnown` says whether they are all of them (see above).
    /// Without `environment`, `env.NAME` is not checked.
    package static func check(_ workflow: Workflow, externalNames: Set<String>, commandLineKnown: Bool = true,
                              environment: Environment? = nil) -> [Diagnostic] {
        var walker = Walker(defined: externalNames)
        walker.commandLineKnown = commandLineKnown
        walker.environment = environment
        walker.collectDefinitions(workflow)
        walker.checkWorkflow(workflow)
        return walker.result
    }

    /// The variable names a workflow uses: every name read by a template (under
    /// `default(…)` too) in it or in its literal includes, and every name it
    /// defines in `vars:` or `secrets:` (a `--var` may override those).
    /// `runTimeIncludes` says whether an `include:` with a templated path, loaded
    /// only at run time, could use names not listed.
    package static func usedNames(in workflow: Workflow) -> (names: Set<String>, runTimeIncludes: Bool) {
        var walker = Walker(defined: [])
        walker.reportsProblems = false
        walker.collectDefinitions(workflow)
        walker.checkWorkflow(workflow)
        let names = walker.used.union(workflow.vars.map(\.name)).union(workflow.secrets.map(\.name))
        return (names, walker.sawRunTimeInclude)
    }

    /// Checks steps loaded at run time (a templated `include:`), against the
    /// names and step ids that exist at that point of the run.
    package static func check(steps: [Step], definedNames: Set<String>, stepIDs: Set<String>) -> [Diagnostic] {
        var walker = Walker(defined: definedNames)
        walker.defineStepIDs(stepIDs)
        walker.checkSteps(steps)
        return walker.result
    }
}

extension VariableChecker {
    /// How a template names the environment variable: `env.NAME` when the name reads back
    /// as one member (letters, digits, `_`, and `-` before a letter), else `env['NAME']`
    /// (`env.1385F1EB-DC5C-4A…` would not parse: a `-` before a digit is a minus).
    package static func environmentReference(_ name: String) -> String {
        let bytes = Array(name.utf8)
        func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") || c == UInt8(ascii: "_") }
        func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
        let member = !bytes.isEmpty && bytes.indices.allSatisfy { i in
            let c = bytes[i]
            if isLetter(c) || isDigit(c) { return true }
            return c == UInt8(ascii: "-") && i > 0 && i + 1 < bytes.count && isLetter(bytes[i + 1])
        }
        if member { return "env.\(name)" }
        let quote = name.contains("'") ? "\"" : "'"
        return "env[\(quote)\(name)\(quote)]"
    }
}

private struct Walker {
    /// Names defined at the current point.
    private(set) var defined: Set<String>
    /// Step ids whose step ran before the current point.
    private(set) var ids: Set<String> = []
    /// Did-you-mean for unknown names and step ids: every name and id defined
    /// anywhere in the walk is offered, and only those defined at the point of a
    /// use are suggested there.
    private var nameSuggestions = GrowingSuggestions()
    private var idSuggestions = GrowingSuggestions()
    /// Every definition anywhere in the workflow, for "defined later" messages.
    var everywhere: [String: SourceRange] = [:]
    var idsEverywhere: [String: SourceRange] = [:]
    /// A templated include was passed: its captures are unknown.
    var open = false
    /// False for `validate` without `--var`: unknown names may come from the command line.
    var commandLineKnown = true
    /// The `include:` keys leading to the steps being checked, innermost last.
    var includeSites: [SourceRange] = []
    var diagnostics: [Diagnostic] = []
    /// For `env.NAME`; nil: not checked.
    var environment: VariableChecker.Environment?
    /// Every variable name a template reads, defined or not.
    var used: Set<String> = []
    /// An `include:` with a templated path was met anywhere.
    var sawRunTimeInclude = false
    /// False when only `used` is wanted: no diagnostic is made.
    var reportsProblems = true

    init(defined: Set<String>) {
        self.defined = defined
        for name in defined { nameSuggestions.offer(name) }
        nameSuggestions.offer("env")
        nameSuggestions.offer("steps")
    }

    /// Defines `name` from here on; returns whether it is new at this point.
    @discardableResult
    private mutating func define(_ name: String) -> Bool {
        nameSuggestions.offer(name)
        return defined.insert(name).inserted
    }

    /// Makes step ids known from here on (a run-time include's caller knows them).
    mutating func defineStepIDs(_ stepIDs: Set<String>) {
        for id in stepIDs { defineStepID(id) }
    }

    private mutating func defineStepID(_ id: String) {
        idSuggestions.offer(id)
        ids.insert(id)
    }

    /// Diagnostics in order, each once (a file included twice is checked twice).
    var result: [Diagnostic] {
        var seen = Set<Diagnostic>()
        return diagnostics.filter { seen.insert($0).inserted }
    }

    // MARK: - Definitions anywhere

    mutating func collectDefinitions(_ workflow: Workflow) {
        for v in workflow.vars + workflow.secrets where everywhere[v.name] == nil { everywhere[v.name] = v.range }
        collect(workflow.auth?.login ?? [])
        collect(workflow.setup)
        collect(workflow.steps)
        collect(workflow.teardown)
    }

    private mutating func collect(_ steps: [Step]) {
        for step in steps {
            if let id = step.id, idsEverywhere[id.value] == nil { idsEverywhere[id.value] = id.range }
            for capture in step.capture where everywhere[capture.name.value] == nil {
                everywhere[capture.name.value] = capture.name.range
            }
            if case .include(let include) = step.action, let file = include.resolved { collect(file.steps) }
        }
    }

    // MARK: - Workflow

    mutating func checkWorkflow(_ workflow: Workflow) {
        for definition in workflow.vars + workflow.secrets {
            visit(definition.value)
            define(definition.name)
        }
        if let auth = workflow.auth {
            checkSteps(auth.login)
            for header in auth.applyHeaders {
                visit(header.name)
                visit(header.value)
            }
            for (name, values) in auth.applyQuery {
                visit(name)
                for v in values { visit(v) }
            }
        }
        // `defaults:` is rendered for every request: a name captured by any
        // step may be meant for the requests after it.
        let saved = (defined, ids)
        // Sorted: the order names are offered in breaks did-you-mean ties, and must not be a hash's.
        for name in everywhere.keys.sorted() { define(name) }
        for id in idsEverywhere.keys.sorted() { defineStepID(id) }
        visit(workflow.defaults)
        (defined, ids) = saved

        checkSteps(workflow.setup)
        checkSteps(workflow.steps)
        checkSteps(workflow.teardown)
    }

    mutating func checkSteps(_ steps: [Step]) {
        for step in steps { checkStep(step) }
    }

    /// Checks one step. What it defines for itself (`item`, `index`, an include's
    /// `vars:`) is undone after it; its captures, and those of the steps it
    /// includes, stay defined for the steps after it. The undo touches only the
    /// names the step added: copying the whole scope per step made a long
    /// workflow's check grow with the square of its length.
    private mutating func checkStep(_ step: Step) {
        if let condition = step.condition { visit(condition, context: "'if'") }
        switch step.forEach {
        case .list(let items)?: for item in items { visit(item, context: "'for_each'") }
        case .expression(let e)?: visit(e, context: "'for_each'")
        case nil: break
        }
        // Names this step made defined that were not before it.
        var introduced: [String] = []
        if step.forEach != nil {
            for name in ["item", "index"] where define(name) { introduced.append(name) }
        }
        if let name = step.name { visit(name) }
        var kept: Set<String> = []
        switch step.action {
        case .request(let request):
            visit(request)
            // The request the step sent, in its captures and expectations (not in the request).
            if define("request") { introduced.append("request") }
            for capture in step.capture {
                switch capture.source {
                case .json(let query), .regex(_, from: .json(let query)): visit(query)
                case .header, .cookie, .regex, .status, .body, .duration, .bytes, .url, .redirects: break
                }
                if let value = capture.defaultValue { visit(value) }
                // Later captures of the same step may use earlier ones.
                if define(capture.name.value) { introduced.append(capture.name.value) }
                kept.insert(capture.name.value)
                // Checked with the value in scope: `expect: { eq: "{{ other }}" }` may name it too.
                if let expect = capture.expect { visit(expect) }
            }
            // The step's expectations are checked after its captures, and may use them.
            visit(step.expect)
            if let abortIf = step.retry?.abortIf { visit(abortIf) }
            if let id = step.id { defineStepID(id.value) }
        case .include(let include):
            visit(include.path)
            for v in include.vars {
                visit(v.value)
                if define(v.name) { introduced.append(v.name) }
            }
            if let file = include.resolved {
                includeSites.append(include.path.range)
                checkSteps(file.steps)
                includeSites.removeLast()
                kept = Self.captures(in: file.steps)
            } else if include.path.literalText == nil {
                open = true
                sawRunTimeInclude = true
            }
        }
        for name in introduced where !kept.contains(name) { defined.remove(name) }
    }

    /// Names captured by steps (and their includes), recursively.
    private static func captures(in steps: [Step]) -> Set<String> {
        var names: Set<String> = []
        for step in steps {
            names.formUnion(step.capture.map(\.name.value))
            if case .include(let include) = step.action, let file = include.resolved {
                names.formUnion(captures(in: file.steps))
            }
        }
        return names
    }

    // MARK: - Model walk

    private mutating func visit(_ request: Request) {
        visit(request.method)
        visit(request.url)
        for (name, values) in request.query {
            visit(name)
            for v in values { visit(v) }
        }
        for cookie in request.cookie {
            visit(cookie.name)
            visit(cookie.value)
        }
        switch request.auth {
        case .bearer(let t)?: visit(t)
        case .basic(let u, let p)?, .digest(let u, let p)?: visit(u); visit(p)
        case .header(let n, let v)?: visit(n); visit(v)
        case .none?, nil: break
        }
        switch request.body {
        case .json(let v)?: visit(v)
        case .form(let pairs)?:
            for pair in pairs {
                visit(pair.name)
                visit(pair.value)
            }
        case .multipart(let parts)?:
            for part in parts {
                visit(part.name)
                switch part.content {
                case .value(let t), .file(let t): visit(t)
                }
                if let t = part.filename { visit(t) }
                if let t = part.contentType { visit(t) }
            }
        case .text(let t, let ct)?, .file(let t, let ct)?:
            visit(t)
            if let ct { visit(ct) }
        case nil: break
        }
        visit(request.options)
    }

    private mutating func visit(_ options: RequestOptions) {
        if let t = options.baseURL { visit(t) }
        for header in options.headers {
            visit(header.name)
            visit(header.value)
        }
        if let t = options.proxy { visit(t) }
        if let tls = options.tls {
            for t in [tls.ca, tls.cert, tls.key, tls.password, tls.pinnedKey] { visit(t) }
        }
        if let abortIf = options.retry?.abortIf { visit(abortIf) }
        switch options.auth {
        case .bearer(let t)?: visit(t)
        case .basic(let u, let p)?, .digest(let u, let p)?: visit(u); visit(p)
        case .header(let n, let v)?: visit(n); visit(v)
        case .none?, nil: break
        }
    }

    /// Walks targets and checks, not kinds: a new expectation kind cannot hide a template.
    private mutating func visit(_ expect: Expectations) {
        for item in expect.items {
            switch item.target {
            case .header(let name), .cookie(let name), .cookieAttribute(let name, _), .redirect(_, .query(let name)): visit(name)
            case .json(let query): visit(query)
            case .status, .body, .document, .durationMilliseconds, .bytes, .httpVersion, .url, .redirectCount, .redirect: break
            }
            switch item.check {
            case .matcher(let m): visit(m)
            case .statusCodes(let patterns):
                for case .template(let t) in patterns { visit(t) }
            case .schema(let s): visit(s)
            case .equalsFile(let file): visit(file.path)
            }
        }
    }

    /// The templates in a JSONPath key or `json:` capture.
    private mutating func visit(_ query: JSONQuery) {
        for template in query.templates { visit(template) }
    }

    private mutating func visit(_ schema: SchemaSource) {
        switch schema {
        case .compiled: break
        case .inline(let v): visit(v)
        case .file(let t): visit(t)
        }
    }

    private mutating func visit(_ matcher: Matcher) {
        switch matcher {
        case .equals(let v): visit(v)
        case .predicates(let predicates, _):
            for p in predicates { visit(p.operand) }
        }
    }

    /// Every operand shape that can hold a template is walked: a predicate cannot hide one.
    private mutating func visit(_ operand: PredicateOperand) {
        switch operand {
        case .value(let v, _), .regex(let v, _): visit(v)
        case .matcher(let m): visit(m)
        case .matchers(let list): for m in list { visit(m) }
        case .schema(let s): visit(s)
        case .jwt(let jwt):
            if let key = jwt.key { visit(key) }
            if let jwks = jwt.jwks { visit(jwks) }
            if let audience = jwt.audience { visit(audience) }
            if let issuer = jwt.issuer { visit(issuer) }
            for claim in jwt.claims { visit(claim.matcher) }
        case .flag, .choice: break
        }
    }

    private mutating func visit(_ value: TemplateValue, context: String? = nil) {
        switch value.kind {
        case .null, .bool, .number: break
        case .string(let t): visit(t, context: context)
        case .array(let items): for item in items { visit(item, context: context) }
        case .object(let pairs): for pair in pairs { visit(pair.value, context: context) }
        }
    }

    private mutating func visit(_ template: Template?, context: String? = nil) {
        guard let template else { return }
        for part in template.parts {
            if case .expression(let e, _) = part { visit(e, context: context) }
        }
    }

    // MARK: - Expressions

    private mutating func visit(_ expression: Expression, context: String? = nil) {
        switch expression.kind {
        case .variable(let name):
            used.insert(name)
            checkName(name, at: expression.range, context: context)
        case .member(let base, let name):
            if case .variable(let root) = base.kind, !defined.contains(root) {
                if root == "env" { return checkEnvironment(name, at: expression.range) }
                if root == "steps" { return checkStepID(name, at: expression.range) }
            }
            visit(base, context: context)
        case .index(let base, let index):
            if case .variable("steps") = base.kind, !defined.contains("steps"), case .string(let id) = index.kind {
                return checkStepID(id, at: expression.range)
            }
            if case .variable("env") = base.kind, !defined.contains("env"), case .string(let name) = index.kind {
                return checkEnvironment(name, at: expression.range)
            }
            visit(base, context: context)
            visit(index, context: context)
        case .string, .number, .bool, .null:
            break
        case .call(_, let arguments):
            for a in arguments { visit(a, context: context) }
        case .filter(let base, let name, let arguments):
            // `x | default(v)` is how a template says "x may be missing": not checked, but used.
            if name != "default" { visit(base, context: context) } else { recordUses(in: base) }
            for a in arguments { visit(a, context: context) }
        case .binary(_, let lhs, let rhs):
            visit(lhs, context: context)
            visit(rhs, context: context)
        case .not(let operand):
            visit(operand, context: context)
        }
    }

    /// Records the variables an expression reads, without checking them.
    private mutating func recordUses(in expression: Expression) {
        switch expression.kind {
        case .variable(let name): used.insert(name)
        case .member(let base, _): recordUses(in: base)
        case .index(let base, let index): recordUses(in: base); recordUses(in: index)
        case .string, .number, .bool, .null: break
        case .call(_, let arguments): for a in arguments { recordUses(in: a) }
        case .filter(let base, _, let arguments): recordUses(in: base); for a in arguments { recordUses(in: a) }
        case .binary(_, let lhs, let rhs): recordUses(in: lhs); recordUses(in: rhs)
        case .not(let operand): recordUses(in: operand)
        }
    }

    /// `env.NAME` outside `default(…)`: the environment must set it.
    private mutating func checkEnvironment(_ name: String, at range: SourceRange) {
        guard let environment, environment.variables[name] == nil else { return }
        let message = "environment variable '\(name)' is not set; set it, pass --env-file, or write \(VariableChecker.environmentReference(name)) | default(…)"
        var notes: [Diagnostic] = []
        if let site = includeSites.last { notes.append(.note("included from here", at: site)) }
        if environment.isTheRunsEnvironment {
            diagnostics.append(.error(message, at: range, notes: notes))
        } else {
            diagnostics.append(.warning(message + " ('courier run' will need it)", at: range, notes: notes))
        }
    }

    private mutating func checkName(_ name: String, at range: SourceRange, context: String?) {
        if !reportsProblems || defined.contains(name) || name == "env" || name == "steps" { return }
        if name == "item" || name == "index" {
            let place = context.map { " (not in the step's own \($0))" } ?? ""
            report("'\(name)' is defined only inside a step with 'for_each'\(place)", at: range)
            return
        }
        if let later = everywhere[name] {
            report("variable '\(name)' is not defined yet here: it is first set at \(later.start), which runs later", at: range,
                   notes: [.note("'\(name)' is set here", at: later)])
            return
        }
        var message = "unknown variable '\(name)'"
        let defined = defined
        if let close = nameSuggestions.closest(to: name, where: { defined.contains($0) || $0 == "env" || $0 == "steps" }) {
            message += "; did you mean '\(close)'?"
        } else if !commandLineKnown {
            var notes: [Diagnostic] = []
            if let site = includeSites.last { notes.append(.note("included from here", at: site)) }
            diagnostics.append(.warning("variable '\(name)' is not defined in the workflow; 'courier run' will need --var \(name)=VALUE "
                                        + "(give 'courier validate' the same --var or --vars-file to check it)", at: range, notes: notes))
            return
        } else {
            message += "; define it in 'vars:', capture it in an earlier step, or pass --var \(name)=VALUE"
        }
        report(message, at: range)
    }

    private mutating func checkStepID(_ id: String, at range: SourceRange) {
        if !reportsProblems || ids.contains(id) { return }
        if let later = idsEverywhere[id] {
            report("'steps.\(id)' is read before step '\(id)' runs (it is at \(later.start))", at: range,
                   notes: [.note("step '\(id)' is here", at: later)])
            return
        }
        var message = "unknown step id '\(id)' in 'steps.\(id)'"
        let ids = ids
        if let close = idSuggestions.closest(to: id, where: { ids.contains($0) }) {
            message += "; did you mean '\(close)'?"
        } else if ids.isEmpty {
            message += "; give an earlier step 'id: \(id)'"
        } else if ids.count <= Self.idsListed {
            message += "; earlier steps have ids " + ids.sorted().map { "'\($0)'" }.joined(separator: ", ")
        } else {
            message += "; no earlier step of the \(ids.count) with an id has it"
        }
        report(message, at: range)
    }

    /// Up to this many earlier step ids are listed when an unknown one resembles none.
    private static let idsListed = 12

    private mutating func report(_ message: String, at range: SourceRange, notes: [Diagnostic] = []) {
        var notes = notes
        if let site = includeSites.last { notes.append(.note("included from here", at: site)) }
        if open {
            diagnostics.append(.warning(message + " (it may come from an include whose path is known only at run time)",
                                        at: range, notes: notes))
        } else {
            diagnostics.append(.error(message, at: range, notes: notes))
        }
    }
}
