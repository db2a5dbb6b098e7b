import CourierDiagnostics

/// What the name check needs of a workflow, in run order: the templates' expressions and the
/// points where names and step ids become defined, without the rest of the model.
///
/// ``VariableChecker`` replays these (`Walker`). Recording them is a walk of the model that
/// needs no state, so a step can be recorded the moment it is decoded and then dropped:
/// `validate` of a 13,000-step file holds these few events a step, not the model.
package struct NameFacts: Sendable {
    /// `vars:`, `secrets:` and `auth:` (its login steps, its `apply`).
    var header: [NameEvent] = []
    /// `defaults:`, rendered for every request: checked with every name defined anywhere.
    var defaults: [NameEvent] = []
    var setup: [NameEvent] = []
    var steps: [NameEvent] = []
    var teardown: [NameEvent] = []

    package init() {}

    /// The facts of a whole workflow.
    package init(_ workflow: Workflow) {
        recordOutline(of: workflow)
        for step in workflow.steps { record(step: step) }
    }

    /// Everything but the top-level `steps:` (which ``record(step:)`` takes one at a time).
    package mutating func recordOutline(of workflow: Workflow) {
        var header = NameRecorder()
        for definition in workflow.vars + workflow.secrets {
            header.visit(definition.value)
            header.events.append(.variable(name: definition.name, range: definition.range))
        }
        if let auth = workflow.auth {
            header.record(auth.login)
            for entry in auth.applyHeaders {
                header.visit(entry.name)
                header.visit(entry.value)
            }
            for (name, values) in auth.applyQuery {
                header.visit(name)
                for v in values { header.visit(v) }
            }
        }
        self.header = header.events
        var defaults = NameRecorder()
        defaults.visit(workflow.defaults)
        self.defaults = defaults.events
        var setup = NameRecorder()
        setup.record(workflow.setup)
        self.setup = setup.events
        var teardown = NameRecorder()
        teardown.record(workflow.teardown)
        self.teardown = teardown.events
    }

    /// The names `vars:` and `secrets:` define.
    var variableNames: Set<String> {
        var names = Set<String>()
        for case .variable(let name, _) in header { names.insert(name) }
        return names
    }

    /// One top-level step, after those recorded before it.
    package mutating func record(step: Step) {
        var recorder = NameRecorder(events: steps)
        steps = []
        recorder.record(step)
        steps = recorder.events
    }

    /// Steps loaded at run time (a templated `include:`).
    static func of(steps: [Step]) -> NameFacts {
        var recorder = NameRecorder()
        recorder.record(steps)
        var facts = NameFacts()
        facts.steps = recorder.events
        return facts
    }
}

/// One thing the name check meets, in run order.
enum NameEvent: Sendable {
    /// A template's expression, checked with the names defined at this point.
    case expression(Expression, place: NamePlace?)
    /// A `vars:` or `secrets:` entry, defined from here on.
    case variable(name: String, range: SourceRange)
    case stepStart
    /// A name defined for the rest of this step only (`item`, `index`, `request`, an include's `vars:`).
    case scoped(String)
    /// A capture: defined from here on, in this step and after it.
    case capture(Located<String>)
    /// A step's id, readable as `steps.<id>` after it.
    case stepID(Located<String>)
    case includeStart(SourceRange)
    /// The included steps end; the including step keeps the names they capture.
    case includeEnd(captured: Set<String>)
    /// An `include:` whose path is known only at run time: what it defines is unknown.
    case runTimeInclude
    case stepEnd
}

/// Where outside the request an expression is, for "'item' is defined only inside a step
/// with 'for_each' (not in the step's own 'if')".
enum NamePlace: Sendable {
    case condition, forEach

    var text: String {
        switch self {
        case .condition: "'if'"
        case .forEach: "'for_each'"
        }
    }
}

/// The model walk: every template a step can hold, and what it defines, as ``NameEvent``s.
struct NameRecorder {
    var events: [NameEvent] = []

    mutating func record(_ steps: [Step]) {
        for step in steps { record(step) }
    }

    /// One step: what it defines for itself (`item`, `index`, an include's `vars:`) is undone
    /// after it; its captures, and those of the steps it includes, stay defined.
    mutating func record(_ step: Step) {
        events.append(.stepStart)
        if let condition = step.condition { events.append(.expression(condition, place: .condition)) }
        switch step.forEach {
        case .list(let items)?: for item in items { visit(item, place: .forEach) }
        case .expression(let e)?: events.append(.expression(e, place: .forEach))
        case nil: break
        }
        if step.forEach != nil {
            events.append(.scoped("item"))
            events.append(.scoped("index"))
        }
        if let name = step.name { visit(name) }
        switch step.action {
        case .request(let request):
            visit(request)
            // The request the step sent, in its captures and expectations (not in the request).
            events.append(.scoped("request"))
            for capture in step.capture {
                switch capture.source {
                case .json(let query), .regex(_, from: .json(let query)): visit(query)
                case .header, .cookie, .regex, .status, .body, .duration, .bytes, .url, .redirects: break
                }
                if let value = capture.defaultValue { visit(value) }
                // Later captures of the same step may use earlier ones.
                events.append(.capture(capture.name))
                // Checked with the value in scope: `expect: { eq: "{{ other }}" }` may name it too.
                if let expect = capture.expect { visit(expect) }
            }
            // The step's expectations are checked after its captures, and may use them.
            visit(step.expect)
            if let abortIf = step.retry?.abortIf { visit(abortIf) }
            if let id = step.id { events.append(.stepID(id)) }
        case .include(let include):
            visit(include.path)
            for v in include.vars {
                visit(v.value)
                events.append(.scoped(v.name))
            }
            if let file = include.resolved {
                events.append(.includeStart(include.path.range))
                record(file.steps)
                events.append(.includeEnd(captured: Self.captures(in: file.steps)))
            } else if include.path.literalText == nil {
                events.append(.runTimeInclude)
            }
        }
        events.append(.stepEnd)
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

    mutating func visit(_ request: Request) {
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
        visit(request.auth)
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

    private mutating func visit(_ auth: RequestAuth?) {
        switch auth {
        case .bearer(let t)?: visit(t)
        case .basic(let u, let p)?, .digest(let u, let p)?: visit(u); visit(p)
        case .header(let n, let v)?: visit(n); visit(v)
        case .none?, nil: break
        }
    }

    mutating func visit(_ options: RequestOptions) {
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
        visit(options.auth)
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

    mutating func visit(_ value: TemplateValue, place: NamePlace? = nil) {
        switch value.kind {
        case .null, .bool, .number: break
        case .string(let t): visit(t, place: place)
        case .array(let items): for item in items { visit(item, place: place) }
        case .object(let pairs): for pair in pairs { visit(pair.value, place: place) }
        }
    }

    mutating func visit(_ template: Template?, place: NamePlace? = nil) {
        guard let template else { return }
        for part in template.parts {
            if case .expression(let e, _) = part { events.append(.expression(e, place: place)) }
        }
    }
}
