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
        check(NameFacts(workflow), externalNames: externalNames, commandLineKnown: commandLineKnown, environment: environment)
    }

    /// Checks a workflow from its recorded facts (`validate` records each step as it is
    /// decoded and keeps only these).
    package static func check(_ facts: NameFacts, externalNames: Set<String>, commandLineKnown: Bool = true,
                              environment: Environment? = nil) -> [Diagnostic] {
        var walker = Walker(defined: externalNames)
        walker.commandLineKnown = commandLineKnown
        walker.environment = environment
        walker.checkWorkflow(facts)
        return walker.result
    }

    /// The variable names a workflow uses: every name read by a template (under
    /// `default(…)` too) in it or in its literal includes, and every name it
    /// defines in `vars:` or `secrets:` (a `--var` may override those).
    /// `runTimeIncludes` says whether an `include:` with a templated path, loaded
    /// only at run time, could use names not listed.
    package static func usedNames(in workflow: Workflow) -> (names: Set<String>, runTimeIncludes: Bool) {
        usedNames(in: NameFacts(workflow))
    }

    package static func usedNames(in facts: NameFacts) -> (names: Set<String>, runTimeIncludes: Bool) {
        var walker = Walker(defined: [])
        walker.reportsProblems = false
        walker.checkWorkflow(facts)
        return (walker.used.union(facts.variableNames), walker.sawRunTimeInclude)
    }

    /// Checks steps loaded at run time (a templated `include:`), against the
    /// names and step ids that exist at that point of the run.
    package static func check(steps: [Step], definedNames: Set<String>, stepIDs: Set<String>) -> [Diagnostic] {
        var walker = Walker(defined: definedNames)
        walker.defineStepIDs(stepIDs)
        walker.replay(NameFacts.of(steps: steps).steps)
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
    private var notDefinedMessages: [String: String] = [:]

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
        DiagnosticList.eachOnce(diagnostics)
    }

    // MARK: - Definitions anywhere

    /// Every capture and step id anywhere, for "defined later" messages (the first of each).
    private mutating func collectDefinitions(_ events: [NameEvent]) {
        for event in events {
            switch event {
            case .variable(let name, let range):
                if everywhere[name] == nil { everywhere[name] = range }
            case .capture(let name):
                if everywhere[name.value] == nil { everywhere[name.value] = name.range }
            case .stepID(let id):
                if idsEverywhere[id.value] == nil { idsEverywhere[id.value] = id.range }
            default: break
            }
        }
    }

    // MARK: - Workflow

    mutating func checkWorkflow(_ facts: NameFacts) {
        for segment in [facts.header, facts.setup, facts.steps, facts.teardown] { collectDefinitions(segment) }
        replay(facts.header)
        // `defaults:` is rendered for every request: a name captured by any
        // step may be meant for the requests after it.
        let saved = (defined, ids)
        // Sorted: the order names are offered in breaks did-you-mean ties, and must not be a hash's.
        for name in everywhere.keys.sorted() { define(name) }
        for id in idsEverywhere.keys.sorted() { defineStepID(id) }
        replay(facts.defaults)
        (defined, ids) = saved
        replay(facts.setup)
        replay(facts.steps)
        replay(facts.teardown)
    }

    /// What one open step made defined: names it added that were not defined before it
    /// (undone after it unless kept), and the names it keeps (its captures, or those of the
    /// steps it includes). Undoing only what a step added keeps a long workflow's check
    /// linear: copying the whole scope per step made it grow with the square of its length.
    private struct OpenStep {
        var introduced: [String] = []
        var kept: Set<String> = []
    }

    mutating func replay(_ events: [NameEvent]) {
        var openSteps: [OpenStep] = []
        for event in events {
            switch event {
            case .expression(let e, let place): visit(e, context: place?.text)
            case .variable(let name, _): define(name)
            case .stepStart: openSteps.append(OpenStep())
            case .scoped(let name):
                if define(name) { openSteps[openSteps.count - 1].introduced.append(name) }
            case .capture(let name):
                if define(name.value) { openSteps[openSteps.count - 1].introduced.append(name.value) }
                openSteps[openSteps.count - 1].kept.insert(name.value)
            case .stepID(let id): defineStepID(id.value)
            case .includeStart(let site): includeSites.append(site)
            case .includeEnd(let captured):
                includeSites.removeLast()
                openSteps[openSteps.count - 1].kept = captured
            case .runTimeInclude:
                self.open = true
                sawRunTimeInclude = true
            case .stepEnd:
                let step = openSteps.removeLast()
                for name in step.introduced where !step.kept.contains(name) { defined.remove(name) }
            }
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
            diagnostics.append(.warning(notDefinedMessage(name), at: range, notes: notes))
            return
        } else {
            message += "; define it in 'vars:', capture it in an earlier step, or pass --var \(name)=VALUE"
        }
        report(message, at: range)
    }

    /// The warning for a name `validate` leaves to the command line, made once per name: a
    /// generated file repeats one such name thousands of times, and its warnings then share
    /// one message instead of holding a copy each.
    private mutating func notDefinedMessage(_ name: String) -> String {
        if let known = notDefinedMessages[name] { return known }
        let message = "variable '\(name)' is not defined in the workflow; 'courier run' will need --var \(name)=VALUE "
            + "(give 'courier validate' the same --var or --vars-file to check it)"
        notDefinedMessages[name] = message
        return message
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
