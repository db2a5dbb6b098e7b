import CourierDiagnostics
import CourierHTTP
import CourierJSON
import CourierResults
import CourierSecrets
import CourierWorkflow
import Foundation

/// Where a step runs: the directory its relative paths resolve against, the
/// names of the includes around it, and the files being run (for cycles).
struct StepContext {
    var directory: String
    /// `""`, or `login › ` inside an include (nested includes add more).
    var prefix: String
    var chain: [String]
    /// Inside the `auth:` flow's `login` steps: their requests get no `apply` and log in no one.
    var inLogin = false
    /// `""`, or ` (2)` for the entries of a second login run.
    var suffix = ""

    /// The context of the steps of an include inside this one.
    func entering(directory: String, label: String, file: String) -> StepContext {
        StepContext(directory: directory, prefix: prefix + label + " › ", chain: chain + [file], inLogin: inLogin, suffix: suffix)
    }
}

/// Runs one workflow: variables, setup, steps, teardown.
///
/// Lives inside one task; its mutable state never crosses threads.
final class WorkflowRunner {
    private let workflow: Workflow
    private let engine: Engine
    private let clock: RunClock
    /// Set by the engine when `--fail-fast` cancels running workflows.
    private let stop: RunStop
    /// Where this workflow is in the run's (path) order: the key of its events and snapshots.
    private let index: Int
    private var scope: Scope
    /// The run's secrets: every output masks what is registered here.
    private var registry: SecretRegistry { engine.settings.secrets }
    private var results: [StepResult] = []
    /// How often a capture has defined each name: an include restores its `vars` only where
    /// nothing defined them inside (by definition, never by comparing values).
    private var captureDefinitions: [String: Int] = [:]
    /// `--dry-run`: the names that hold a capture's placeholder (and `steps`, whose
    /// values come from responses), which an `if` or `for_each` may not decide on.
    private var dryRunPlaceholders: Set<String> = ["steps"]
    /// One jar per workflow run, so runs never see each other's sessions.
    private let cookieJar = CookieJar()
    /// `defaults:` over the command line's options, the same for every request.
    private let lowerLayers: RequestOptions.LowerLayers
    /// The `*_proxy` environment variables libcurl reads, those set: their credentials are
    /// registered before each request (looked up once, not six times per request).
    private lazy var environmentProxies: [String] = URLCredentials.proxyEnvironmentVariables.compactMap { engine.settings.environment[$0] }
    /// The `auth:` flow's state: credentials are this workflow's own (spec section 9).
    private var authSession: AuthSession?
    /// Every result's reported name is its own in this workflow (spec section 12).
    private var uniqueNames = UniqueStepNames()
    /// Teardown has started: a login it needs is shielded from an interruption like
    /// teardown's own requests (until the teardown deadline).
    private var teardownRunning = false

    init(workflow: Workflow, index: Int, engine: Engine, clock: RunClock, stop: RunStop) {
        self.workflow = workflow
        self.index = index
        self.engine = engine
        self.clock = clock
        self.stop = stop
        self.scope = Scope(environment: engine.settings.environment)
        self.authSession = workflow.auth.map(AuthSession.init)
        self.lowerLayers = RequestOptions.LowerLayers(defaults: workflow.defaults, commandLine: engine.settings.commandLineOptions,
                                                       builtIns: .builtIns)
    }

    /// Runs the workflow. The engine has announced its start already.
    func run() async -> WorkflowResult {
        let start = clock.elapsedMicroseconds()

        var reason: String? = nil
        if let error = defineVariables() {
            record(StepResult(name: "variables", phase: .setup, location: error.range,
                              outcome: .errored(StepError(type: "template", message: error.message, location: error.range))))
            reason = "the workflow's variables could not be evaluated"
        }
        let top = StepContext(directory: workflow.directory, prefix: "", chain: [FilePaths.normalize(workflow.file)])
        await runPhase(workflow.setup, phase: .setup, context: top, skipReason: &reason)
        await runPhase(workflow.steps, phase: .steps, context: top, skipReason: &reason)

        // Teardown always runs, also after an interruption (its requests are
        // shielded from the run's cancellation, see `send`), until the control's
        // deadline after an interruption.
        engine.control.teardownStarting(index)
        teardownRunning = true
        var noSkip: String? = nil
        await runPhase(workflow.teardown, phase: .teardown, context: top, skipReason: &noSkip)
        return finish(startedAt: clock.timestamp(at: start), durationMicroseconds: clock.elapsedMicroseconds(since: start))
    }

    /// Reports every step skipped (setup, steps, teardown) for a workflow that never started
    /// (the engine has announced it).
    func reportNotRun(reason: String) -> WorkflowResult {
        let top = StepContext(directory: workflow.directory, prefix: "", chain: [FilePaths.normalize(workflow.file)])
        for (steps, phase) in [(workflow.setup, StepPhase.setup), (workflow.steps, .steps), (workflow.teardown, .teardown)] {
            for step in steps { skip(step, phase: phase, context: top, reason: reason) }
        }
        return finish(startedAt: .zero, durationMicroseconds: 0)
    }

    private func finish(startedAt: Timestamp, durationMicroseconds: Int) -> WorkflowResult {
        let result = WorkflowResult(
            file: workflow.file, name: workflow.name, description: workflow.description,
            tags: workflow.tags.map(\.value), steps: results, startedAt: startedAt,
            durationMicroseconds: durationMicroseconds)
        engine.control.workflowFinished(index, result)
        engine.onEvent(.workflowFinished(result))
        return result
    }

    /// Runs steps in order; returns whether any failed. Once `skipReason` is
    /// set the rest are reported skipped, except in teardown, where every step runs.
    @discardableResult
    private func runPhase(_ steps: [Step], phase: StepPhase, context: StepContext, skipReason: inout String?) async -> Bool {
        var anyFailed = false
        for step in steps {
            if !isCleaningUp(phase) {
                if skipReason == nil && Task.isCancelled { skipReason = stopReason }
                if let reason = skipReason {
                    skip(step, phase: phase, context: context, reason: reason)
                    continue
                }
            } else if engine.control.teardownDeadlinePassed {
                skip(step, phase: phase, context: context, reason: teardownDeadlineReason)
                continue
            }
            let loginFailedBefore = authSession?.failure != nil
            let failed = await runStep(step, phase: phase, context: context)
            anyFailed = anyFailed || failed
            // A failed login stops the workflow whatever `continue_on_failure` says: every
            // request after it would fail the same way (teardown still runs).
            let loginFailed = !loginFailedBefore && authSession?.failure != nil && !context.inLogin
            let goOn = phase == .steps && (step.continueOnFailure ?? workflow.continueOnFailure) && !loginFailed
            if failed && !goOn && phase != .teardown {
                skipReason = Task.isCancelled ? stopReason
                    : loginFailed ? "login failed"
                    : (phase == .setup ? "setup failed" : "an earlier step failed")
            }
        }
        return anyFailed
    }

    /// Teardown, or a login that teardown needs: run after an interruption, until its deadline.
    private func isCleaningUp(_ phase: StepPhase) -> Bool {
        phase == .teardown || (phase == .auth && teardownRunning)
    }

    /// `interrupted by SIGTERM` (or `interrupted` when the task was cancelled without a reason).
    private var interruptedReason: String {
        (engine.control.interruption ?? .cancelled).description
    }

    /// A step `--fail-fast` cancelled in flight (or in its retry wait, or waiting for a login)
    /// did not fail: it is skipped, `cancelled: --fail-fast`, not errored, so CI shows no red
    /// test that never failed. A signal's cancellation stays an error (the run was stopped).
    private func skippedIfFailFastCancelled(_ outcome: StepOutcome) -> StepOutcome {
        guard case .errored(let error) = outcome, error.type == "cancelled", engine.control.interruption == nil,
              stop.isFailFast else { return outcome }
        return .skipped(reason: RunStop.cancelledReason)
    }

    /// Why this workflow's task was cancelled: a signal (or the caller), else `--fail-fast`.
    /// A signal wins: the user asked to stop, whatever else was going on.
    private var stopReason: String {
        if engine.control.interruption == nil && stop.isFailFast { return RunStop.cancelledReason }
        return interruptedReason
    }

    private var teardownDeadlineReason: String {
        let (seconds, attoseconds) = engine.control.teardownGrace.components
        let grace = attoseconds == 0 ? "\(seconds) s" : "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
        return "\(interruptedReason); teardown stopped at its \(grace) deadline"
    }

    // MARK: - Variables

    /// `vars` then `secrets`, top to bottom, each able to use the ones before;
    /// `--var` and `--vars-file` values win over what the file says.
    private func defineVariables() -> EvaluationError? {
        for (name, value) in engine.settings.fileVariables { scope[name] = value }
        for (name, value) in engine.settings.commandLineVariables { scope[name] = value }
        for (definitions, areSecret) in [(workflow.vars, false), (workflow.secrets, true)] {
            for definition in definitions {
                let value: JSONValue
                if let override = engine.settings.override(for: definition.name) {
                    value = override
                } else {
                    if areSecret {
                        // Text quoted inside a secret's expressions is what it is computed from.
                        for text in TemplateLiterals.quotedStrings(in: definition.value) where !SecretLength.isTooShort(text) {
                            addSecretText(text)
                        }
                    }
                    // A secret's error message must not quote the value it was computing.
                    var renderer = self.renderer
                    renderer.redactingValues = areSecret
                    do { value = try renderer.value(definition.value) } catch { return error }
                }
                scope[definition.name] = value
                guard areSecret else { continue }
                // The name first, for output that names a secret rather than hides it.
                if case .string(let text) = value { registry.register(text, name: definition.name) }
                addSecret(value)
                // Literal ones were refused at load; this catches templates and --var values.
                if let (name, length) = SecretLength.firstShortLeaf(of: value, named: definition.name) {
                    return EvaluationError(.invalid, SecretLength.tooShortMessage(name: name, length: length),
                                           at: definition.value.range)
                }
            }
        }
        return nil
    }

    /// Registers a secret value: every string and number leaf of a list or map on its
    /// own (`{{ creds.key }}`, `{{ toks[0] }}` and `for_each` items print leaves), and
    /// the whole as compact and as pretty JSON (`{{ creds }}`, `| json`, reports).
    private func addSecret(_ value: JSONValue) {
        // A stack, not recursion: values may be nested 512 deep.
        var pending = [value]
        while let next = pending.popLast() {
            switch next {
            case .string(let s): addSecretText(s)
            case .number(let n): addSecretText(n.text)
            case .null, .bool: break
            case .array(let items): pending += items
            case .object(let object): pending += object.values
            }
        }
        switch value {
        case .array, .object:
            addSecretText(value.serialized())
            addSecretText(value.serialized(pretty: true))
        default:
            break
        }
    }

    private func addSecretText(_ text: String) {
        registry.register(text, name: nil)
    }

    /// A value taken from a credential header or a URL's userinfo. Unlike a declared or
    /// captured secret, a short one is left alone: `Cookie: lang=en` must not mask every
    /// `en` of the output, and a credential that short protects nothing.
    private func addCredentialText(_ text: String) {
        guard !SecretLength.isTooShort(text) else { return }
        registry.register(text, name: nil)
    }

    /// The password (and `user:password`) of a URL's userinfo, raw and decoded: libcurl
    /// turns it into Basic credentials that no header of ours shows.
    private func addURLCredentials(of url: String) {
        guard let credentials = URLCredentials(url: url) else { return }
        for text in credentials.sensitiveTexts { addCredentialText(text) }
    }

    /// Credential header values (``CredentialHeaderNames``) are secrets whatever the workflow says:
    /// a server may echo them back in a body, where no header name marks them.
    private func recordCredentials(in headers: HTTPHeaders) {
        // Most blocks hold no credential: asked of each name in place (by index: `contains`
        // handed every field over as a copy).
        guard headers.fields.indices.contains(where: { CredentialHeaders.isCredential(headers.fields[$0].name) }) else { return }
        for index in headers.indices {
            // By index, not `for field in`: most fields are not credentials, and the
            // loop then copies no field (two strings to retain and release each).
            guard CredentialHeaders.isCredential(headers[index].name) else { continue }
            let field = headers[index]
            switch field.name.lowercased() {
            case "authorization", "proxy-authorization":
                addCredentialText(field.value)
                let parts = field.value.split(separator: " ", maxSplits: 1)
                guard parts.count == 2 else { continue }
                let credential = String(parts[1]).trimmingCharacters(in: .whitespaces)
                addCredentialText(credential)
                // Basic credentials: the password alone may show up too.
                if parts[0].lowercased() == "basic", let data = Data(base64Encoded: credential),
                   let decoded = String(data: data, encoding: .utf8) {
                    addCredentialText(decoded)
                    if let colon = decoded.firstIndex(of: ":") { addCredentialText(String(decoded[decoded.index(after: colon)...])) }
                }
            case "cookie":
                addCredentialText(field.value)
                for pair in field.value.split(separator: ";") {
                    if let equals = pair.firstIndex(of: "=") {
                        addCredentialText(pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces))
                    }
                }
            case "set-cookie":
                // The jar sends it back as `Cookie:` on its own: the pair and its value are secrets (spec §12).
                let pair = field.value.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
                guard let equals = pair.firstIndex(of: "=") else { continue }
                let value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                guard !value.isEmpty else { continue }
                addCredentialText(pair)
                addCredentialText(value)
            default:
                // `X-Api-Key`, `Api-Key`: the whole value is the key.
                addCredentialText(field.value)
            }
        }
    }

    private var renderer: TemplateRenderer { TemplateRenderer(scope: scope, functions: engine.functions) }

    // MARK: - Steps

    /// Runs a step (every item of a `for_each`); returns whether it failed.
    private func runStep(_ step: Step, phase: StepPhase, context: StepContext) async -> Bool {
        if engine.settings.dryRun {
            var reason = step.condition.flatMap { DryRun.notRenderedReason("if", $0, captures: dryRunPlaceholders) }
            if reason == nil, case .expression(let expression)? = step.forEach {
                reason = DryRun.notRenderedReason("for_each", expression, captures: dryRunPlaceholders)
            }
            if reason == nil, case .include(let include) = step.action {
                reason = DryRun.notRenderedReason(include, captures: dryRunPlaceholders)
            }
            if let reason {
                skip(step, phase: phase, context: context, reason: reason)
                return false
            }
        }
        if let condition = step.condition {
            do {
                guard try renderer.condition(condition) else {
                    skip(step, phase: phase, context: context, reason: "condition is false")
                    return false
                }
            } catch {
                record(errored(step, phase: phase, context: context, error))
                return true
            }
        }

        guard let forEach = step.forEach else {
            return await runOnce(step, phase: phase, context: context, iteration: nil)
        }
        var items: [JSONValue] = []
        do throws(EvaluationError) {
            switch forEach {
            case .list(let values):
                for value in values { items.append(try renderer.value(value)) }
            case .expression(let expression):
                let value = try renderer.evaluate(expression)
                guard case .array(let list) = value else {
                    throw EvaluationError(.type, "for_each needs a list, found \(ExpressionEvaluator.describe(value))", at: expression.range)
                }
                items = list
            }
        } catch {
            record(errored(step, phase: phase, context: context, error))
            return true
        }
        var failed = false
        let saved = (scope["item"], scope["index"])
        for (index, item) in items.enumerated() {
            if Task.isCancelled && !isCleaningUp(phase) { break }
            if isCleaningUp(phase) && engine.control.teardownDeadlinePassed { break }
            scope["item"] = item
            scope["index"] = .number(JSONNumber(index))
            if await runOnce(step, phase: phase, context: context, iteration: index + 1) { failed = true }
        }
        scope["item"] = saved.0
        scope["index"] = saved.1
        return failed
    }

    private func runOnce(_ step: Step, phase: StepPhase, context: StepContext, iteration: Int?) async -> Bool {
        let start = clock.elapsedMicroseconds()
        if let delay = step.delay {
            // Through the engine's sleeper: tests run a `delay: 10s` without waiting.
            do {
                try await engine.sleeper.sleep(for: delay)
            } catch {
                // Stopped while waiting out `delay:`: nothing was sent, so no request is shown;
                // the step is skipped, as the ones after it are.
                let reason = isCleaningUp(phase) && engine.control.teardownDeadlinePassed ? teardownDeadlineReason : stopReason
                record(StepResult(name: fullName(of: step, in: context, iteration: iteration), phase: phase, location: step.range,
                                  iteration: iteration, outcome: .skipped(reason: reason)))
                return false
            }
        }
        switch step.action {
        case .include(let include):
            return await runInclude(include, step: step, phase: phase, context: context, iteration: iteration, start: start)
        case .request(let request):
            let result = await perform(request, step: step, phase: phase, context: context, iteration: iteration, start: start)
            let failed = result.outcome.isProblem
            record(result)
            return failed
        }
    }

    // MARK: - Includes

    /// Runs the steps of an included file as steps of this workflow: each is
    /// its own result, named `<include> › <step>`. The include's `vars` are
    /// visible inside only; captures stay visible afterwards.
    private func runInclude(_ include: Include, step: Step, phase: StepPhase, context: StepContext,
                            iteration: Int?, start: Int) async -> Bool {
        func fail(_ type: String, _ message: String, at location: SourceRange?) -> Bool {
            record(StepResult(name: fullName(of: step, in: context, iteration: iteration), phase: phase, location: step.range, iteration: iteration,
                              outcome: .errored(StepError(type: type, message: message, location: location ?? include.range)),
                              startedAt: clock.timestamp(at: start), durationMicroseconds: clock.elapsedMicroseconds(since: start)))
            return true
        }

        // The include's vars, evaluated in the including scope, in order.
        var values: [(String, JSONValue)] = []
        var inner = renderer
        for definition in include.vars {
            do {
                let value = try inner.value(definition.value)
                values.append((definition.name, value))
                inner.scope[definition.name] = value
            } catch {
                return fail("template", error.message, at: error.range)
            }
        }

        let file: IncludedFile
        if let resolved = include.resolved {
            file = resolved
        } else {
            // A templated path: loaded now, with the checks `validate` makes for literal ones.
            let written: String
            do { written = try renderer.string(include.path) } catch { return fail("template", error.message, at: error.range) }
            let path = FilePaths.resolve(written, against: context.directory)
            switch loadIncludedFile(path: path, sources: engine.sources, chain: context.chain) {
            case .failure(let list):
                let first = list.diagnostics.first { $0.severity == .error }
                let more = list.diagnostics.filter { $0.severity == .error }.count - 1
                return fail("include", "include '\(written)': \(first?.message ?? "cannot be loaded")" + (more > 0 ? " (and \(more) more)" : ""),
                            at: first?.range ?? include.path.range)
            case .success(let loaded):
                let names = Set(scope.variables.keys).union(values.map(\.0))
                let problems = VariableChecker.check(steps: loaded.steps, definedNames: names, stepIDs: Set(scope.steps.keys))
                    .filter { $0.severity == .error }
                if let first = problems.first {
                    let more = problems.count > 1 ? " (and \(problems.count - 1) more)" : ""
                    return fail("template", "include '\(written)': \(first.message)\(more)", at: first.range)
                }
                file = loaded
            }
        }

        // Include vars shadow outer names for the included steps only.
        let shadowed = values.map { (name: $0.0, previous: scope[$0.0], captures: captureDefinitions[$0.0, default: 0]) }
        for (name, value) in values { scope[name] = value }
        let label = step.name.flatMap { try? renderer.string($0) } ?? file.displayName
        let numbered = iteration.map { "\(label) [\($0)]" } ?? label
        let innerContext = context.entering(directory: file.directory, label: numbered, file: file.path)
        var reason: String? = nil
        let failed = await runPhase(file.steps, phase: phase, context: innerContext, skipReason: &reason)
        for (name, previous, captures) in shadowed where captureDefinitions[name, default: 0] == captures {
            // No capture inside defined it again: the include's value goes, what was there comes back.
            // A capture that happens to hold the include's own value stays (contract §4).
            scope[name] = previous
        }
        return failed
    }

    // MARK: - Attempts

    /// Runs a request step: attempts until the policy stops, then commits the deciding
    /// (last) attempt to the scope. Every attempt is kept in the result.
    private func perform(_ request: Request, step: Step, phase: StepPhase, context: StepContext, iteration: Int?, start: Int) async -> StepResult {
        // Named before anything of it is committed: its own captures do not rename it.
        let stepName = fullName(of: step, in: context, iteration: iteration)
        // How the console names this step's attempts and retries: an iteration with its `[i]`.
        let displayName = iteration.map { "\(stepName) [\($0)]" } ?? stepName
        // Retries and polling plug in here as policies (`retry:`, else `defaults.retry`, else `--retry N`).
        let retry = step.retry ?? workflow.defaults.retry
        var policy: any AttemptPolicy = RetryAttempts(written: retry, commandLineAttempts: engine.settings.retryAttempts,
                                                      seed: engine.settings.retryJitterSeed, clock: engine.clock) ?? SingleAttempt()
        // Each attempt's record moves here when the attempt is over (the outcome keeps the
        // rest): records are large values, and copying one retains every string inside.
        var records: [Attempt] = []
        var attemptCount = 0
        var waitCancelled = false
        // Logins are entries of their own, with their own time: not counted twice in the step's.
        var loginMicroseconds = 0
        func result(_ outcome: StepOutcome, captures: [CapturedValue] = []) -> StepResult {
            let outcome = skippedIfFailFastCancelled(outcome)
            // `--curl` reproduces failed requests: a step that passed keeps no command.
            if !outcome.isProblem {
                for index in records.indices where records[index].curl != nil { records[index].curl = nil }
            }
            return StepResult(name: stepName, phase: phase, location: step.range, iteration: iteration,
                       outcome: outcome, attempts: records, captures: captures,
                       startedAt: clock.timestamp(at: start),
                       durationMicroseconds: max(0, clock.elapsedMicroseconds(since: start) - loginMicroseconds))
        }
        // `-v` shows each attempt as it happens, not only when the step finishes.
        func attemptRecorded(_ outcome: inout AttemptOutcome) {
            attemptCount += 1
            guard let record = outcome.record.take() else { return }
            engine.onEvent(.attemptFinished(file: workflow.file, step: displayName, phase: phase, number: attemptCount, record))
            records.append(record)
        }
        func timedLogIn() async -> StepError? {
            let loginStart = clock.elapsedMicroseconds()
            defer { loginMicroseconds += clock.elapsedMicroseconds(since: loginStart) }
            return await logIn()
        }

        // The auth flow: log in before the first request that needs credentials.
        let flow = authSession.flatMap { $0.applies(to: request, inLogin: context.inLogin) ? $0.flow : nil }
        if flow != nil, let session = authSession {
            if let failure = session.failure { return result(.errored(failure)) }
            if !session.loggedIn, let failure = await timedLogIn() { return result(.errored(failure)) }
        }
        // A refusal in `refresh_on` logs in again and resends once: the resend is another
        // attempt of this step, which the retry policy does not count (a refresh uses up no retry).
        var refresh = flow.map { RefreshOnStatus(refreshOn: $0.refreshOn) }
        // The last attempt: the deciding one once the loop ends (its record moved to `records`).
        // Each attempt is made in it directly (assigning a finished outcome to it copied it).
        var deciding: AttemptOutcome
        while true {
            deciding = await attempt(request, step: step, phase: phase, context: context, applying: flow, abortIf: retry?.abortIf)
            switch refresh?.decide(afterStatus: deciding.record?.response?.status) {
            case .logInAgainAndResend?:
                attemptRecorded(&deciding)
                if let failure = await timedLogIn() { return result(.errored(failure)) }
                continue
            case .refusedAgain(let status)?:
                if let refusal = refresh?.refusal(status: status, at: request.range) {
                    deciding.expectations.insert(refusal, at: 0)
                    deciding.record?.expectations.insert(refusal, at: 0)
                }
            case .keep?, nil:
                break
            }
            let counted = attemptCount + 1 - (refresh?.spent == true ? 1 : 0)
            guard case .again(let next) = policy.decide(after: deciding, number: counted) else {
                // Said with the attempt: otherwise "attempt 4 of 4" reads as a budget run out.
                if deciding.abortMatched && !deciding.succeeded { deciding.record?.stopped = AttemptRetry.abortIfHeld }
                attemptRecorded(&deciding)
                break
            }
            deciding.record?.retry = next
            attemptRecorded(&deciding)
            engine.onEvent(.attemptRetried(file: workflow.file, step: displayName, next))
            // Ctrl-C (or --fail-fast) during the wait ends the step at once.
            do { try await engine.sleeper.sleep(for: next.wait) } catch {
                waitCancelled = true
                break
            }
        }
        if waitCancelled {
            deciding.error = StepError(type: "cancelled", message: "\(stopReason) while waiting to retry", location: request.range)
        }
        commit(deciding, step: step)
        // The result shows what the deciding attempt captured, committed or not (a failed step's
        // captures help to see why it failed); the scope has them only when the step succeeded.
        return result(deciding.stepOutcome, captures: deciding.captures)
    }

    /// Runs the `auth:` flow's `login` steps, reported as their own entries (`auth › log in`,
    /// `auth › log in (2)` the second time); their captures go to the workflow's scope.
    /// Returns the error for the step that needed the login when it failed.
    private func logIn() async -> StepError? {
        guard var session = authSession else { return nil }
        let suffix = session.beginLogin()
        authSession = session
        let context = StepContext(directory: workflow.directory, prefix: "auth › ", chain: [FilePaths.normalize(workflow.file)],
                                  inLogin: true, suffix: suffix)
        let before = results.count
        var reason: String? = nil
        let failed = await runPhase(session.flow.login, phase: .auth, context: context, skipReason: &reason)
        let failedEntry = results[before...].first { $0.outcome.isProblem }
        // Interrupted or cancelled (--fail-fast) before the login was done: not a failed
        // login, and no credentials either; the next step that needs them logs in again.
        if case .errored(let error)? = failedEntry?.outcome, error.type == "cancelled" {
            return StepError(type: "cancelled", message: error.message, location: error.location)
        }
        if !failed, let reason {
            return StepError(type: "cancelled", message: reason, location: session.flow.range)
        }
        guard failed else {
            authSession?.loginPassed()
            return nil
        }
        // The login's own entry carries its diagnostics (request, response); the step that
        // needed it names it and says what went wrong first.
        var message = "login failed"
        if let entry = failedEntry {
            message += ": '\(entry.displayName)' "
            switch entry.outcome {
            case .failed(let failures): message += failures.first.map { "failed: \($0.message)" } ?? "failed"
            case .errored(let error): message += "could not be carried out: \(error.message)"
            case .passed, .skipped: break
            }
        }
        let error = StepError(type: "login_failed", message: message, location: failedEntry?.location ?? session.flow.range)
        authSession?.loginFailed(error)
        return error
    }

    /// One attempt: builds and sends the request, checks the expectations and evaluates
    /// the captures against a copy of the scope. Changes no variable of the workflow.
    private func attempt(_ request: Request, step: Step, phase: StepPhase, context: StepContext,
                         applying flow: AuthFlow?, abortIf: Expectations?) async -> AttemptOutcome {
        let builder = RequestBuilder(renderer: renderer, maxResponseBytes: engine.settings.maxResponseBytes,
                                     directory: context.directory, cookieJar: cookieJar)
        var httpRequest: HTTPRequest
        do {
            // Taken apart, so the request moves out of the tuple rather than being copied.
            let (built, applied) = try builder.build(request, defaults: workflow.defaults, layers: lowerLayers, applying: flow)
            httpRequest = built
            // What `apply` adds is a credential, whatever its header's (or parameter's) name.
            for value in applied { addCredentialText(value) }
            // Results record the headers libcurl really sent (Host, User-Agent, Cookie…) when
            // asked to: reading them back needs libcurl's verbose mode, which costs about a
            // seventh of a small request's time (libcurl turns it on by itself where it may
            // add credentials, see CurlTransfer).
            httpRequest.options.recordSentRequests = engine.settings.recordSentRequests
        } catch {
            return AttemptOutcome(error: StepError(type: "template", message: error.message, location: error.range))
        }

        recordCredentials(in: httpRequest.headers)
        // The spec counts `tls.password` among the secrets, whoever wrote it where.
        if let password = httpRequest.options.nonDefaultTLS?.password, !password.isEmpty { addSecretText(password) }
        addURLCredentials(of: httpRequest.url)
        // The proxy: the step's or --proxy, else the environment's, as libcurl picks it.
        if let proxy = httpRequest.options.proxy { addURLCredentials(of: proxy) }
        for proxy in environmentProxies { addURLCredentials(of: proxy) }
        if engine.settings.dryRun { return dryRunOutcome(httpRequest, step: step) }
        let attemptStart = clock.elapsedMicroseconds()
        let response: HTTPResponse
        do {
            response = try await send(httpRequest, phase: phase)
        } catch {
            recordSentCredentials(error.sentRequests, hops: [])
            let attempt = recordedAttempt(httpRequest, .failure(error), expectations: [], start: attemptStart)
            let text = TransportErrorText.describe(error)
            var message = text.message
            if error.kind == .cancelled {
                // Say why: the signal, the teardown deadline that followed it, or --fail-fast.
                if isCleaningUp(phase) && engine.control.teardownDeadlinePassed {
                    message = teardownDeadlineReason
                } else if Task.isCancelled || engine.control.interruption != nil {
                    message = stopReason
                }
            }
            var outcome = AttemptOutcome(record: attempt, error: StepError(type: error.kind.description, message: message,
                                                                           hint: text.hint, location: request.range))
            outcome.method = httpRequest.method
            outcome.transportError = error.kind
            return outcome
        }

        recordSentCredentials(response)
        // On the thread that drives transfers, a large body is checked elsewhere: decoding,
        // parsing and matching it may take long, and that thread must keep pumping.
        if let elsewhere = engine.heavyWorkExecutor, response.body.count > Engine.heavyBodyBytes {
            return await withTaskExecutorPreference(elsewhere) {
                check(response, sent: httpRequest, step: step, abortIf: abortIf, start: attemptStart)
            }
        }
        return check(response, sent: httpRequest, step: step, abortIf: abortIf, start: attemptStart)
    }

    /// Expectations and captures of one response, into the attempt's own outcome (no scope changes).
    private func check(_ response: HTTPResponse, sent httpRequest: HTTPRequest, step: Step, abortIf: Expectations?,
                       start attemptStart: Int) -> AttemptOutcome {
        let view = ResponseView(response)
        var expectations = ExpectationChecker(renderer: renderer).check(step.expect, response: view, stepRange: step.range)
        var abortMatched = false
        if let abortIf {
            abortMatched = !ExpectationChecker(renderer: renderer).check(abortIf, response: view, stepRange: step.range)
                .contains { $0.outcome == .failed }
        }

        // Captures: the step's own later captures may use earlier ones, so each one is
        // read with the attempt's copy of the scope as it is after the one before.
        var captures: [CapturedValue] = []
        var warnings: [String] = []
        var attemptScope = scope
        for capture in step.capture {
            var captureRenderer = TemplateRenderer(scope: attemptScope, functions: engine.functions)
            captureRenderer.redactingValues = capture.secret
            switch CaptureEvaluator(renderer: captureRenderer).capture(capture, from: view) {
            case .success(let value):
                attemptScope[capture.name.value] = value
                if capture.secret {
                    // Registered now, committed or not: this attempt's transcript shows it.
                    addSecret(value)
                    if SecretLength.firstShortLeaf(of: value, named: capture.name.value) != nil {
                        warnings.append(SecretLength.shortCaptureWarning(name: capture.name.value))
                    }
                }
                captures.append(CapturedValue(name: capture.name.value, value: value, secret: capture.secret))
                expectations.append(.passed(location: capture.range, subject: "capture \(capture.name.value)", expected: nil,
                                            actual: capture.secret ? .words(MaskingPolicy.mask) : .value(value)))
            case .failure(let failure):
                expectations.append(failure)
            }
        }
        let record = recordedAttempt(httpRequest, .success(response), expectations: expectations, start: attemptStart)
        // Made whole at the end, not filled in field by field: that built the outcome in a
        // temporary and copied it out (a retain and a release of everything it holds).
        return AttemptOutcome(record: record, expectations: expectations, captures: captures,
                              stepValue: step.id != nil ? view.stepValue() : nil, warnings: warnings, abortMatched: abortMatched,
                              method: httpRequest.method, status: response.status, retryAfter: response.headers["Retry-After"])
    }

    /// Makes the deciding attempt visible to the steps after it: `steps.<id>` when a
    /// response came back, and its captures only when the step succeeded (a failed step
    /// under `continue_on_failure` leaves the variables as they were).
    private func commit(_ outcome: AttemptOutcome, step: Step) {
        if let id = step.id?.value, let value = outcome.stepValue {
            scope.steps[id] = value
        }
        // A short secret is hard to mask whether or not the step went on to fail.
        for warning in outcome.warnings {
            engine.onEvent(.warning(file: workflow.file, message: warning))
        }
        guard outcome.succeeded else { return }
        for capture in outcome.captures {
            scope[capture.name] = capture.value
            captureDefinitions[capture.name, default: 0] += 1
        }
    }

    /// Credentials in what libcurl really sent (its jar's `Cookie`, Basic credentials built
    /// from a URL's userinfo, `Proxy-Authorization`, also on a proxy's `CONNECT`) and the
    /// cookies every hop's response set.
    private func recordSentCredentials(_ sent: [HTTPSentRequest], hops: [HTTPHeaders]) {
        for request in sent { recordCredentials(in: request.headers) }
        for headers in hops { recordCredentials(in: headers) }
    }

    /// ``recordSentCredentials(_:hops:)`` for a response: every redirect hop's headers, then the final ones.
    private func recordSentCredentials(_ response: HTTPResponse) {
        for request in response.sentRequests { recordCredentials(in: request.headers) }
        for hop in response.redirects { recordCredentials(in: hop.headers) }
        recordCredentials(in: response.headers)
    }

    /// Sends a request. Teardown requests run in a task of their own, which an
    /// interrupted (cancelled) run does not cancel: cleaning up must still happen,
    /// but only until the control's deadline after an interruption (then the
    /// task is cancelled, so a hanging teardown cannot outlive `docker stop`).
    private func send(_ request: HTTPRequest, phase: StepPhase) async throws(HTTPError) -> HTTPResponse {
        guard isCleaningUp(phase) else { return try await engine.transport.send(request) }
        let transport = engine.transport
        let task = Task { () -> Result<HTTPResponse, HTTPError> in
            do throws(HTTPError) { return .success(try await transport.send(request)) } catch { return .failure(error) }
        }
        let token = engine.control.onTeardownDeadline { task.cancel() }
        if token == nil { task.cancel() }
        let result = await task.value
        if let token { engine.control.removeDeadlineHandler(token) }
        return try result.get()
    }

    /// `--dry-run`: the request as built, not sent; each capture holds its placeholder.
    private func dryRunOutcome(_ request: HTTPRequest, step: Step) -> AttemptOutcome {
        let policy = registry.policy
        var record = Attempt(startedAt: clock.timestamp(at: clock.elapsedMicroseconds()),
                             request: AttemptRecorder(policy: policy).request(request, sent: []))
        if engine.settings.curlCommands { record.curl = CurlCommand(policy: policy).render(request) }
        var outcome = AttemptOutcome(record: record)
        outcome.method = request.method
        for capture in step.capture {
            dryRunPlaceholders.insert(capture.name.value)
            outcome.captures.append(CapturedValue(name: capture.name.value, value: DryRun.placeholder(forCapture: capture.name.value),
                                                  secret: false))
        }
        return outcome
    }

    // MARK: - Recording

    /// The attempt as a plain record, masked with the registry as it is now (this
    /// attempt's secret captures included) and with its bodies cut.
    private func recordedAttempt(_ request: HTTPRequest, _ outcome: Result<HTTPResponse, HTTPError>,
                                 expectations: [ExpectationResult], start: Int) -> Attempt {
        let policy = registry.policy
        let startedAt = clock.timestamp(at: start), duration = clock.elapsedMicroseconds(since: start)
        var curl: String? = nil
        if engine.settings.curlCommands {
            // The block libcurl sent holds the jar's `Cookie` (recorded whenever the jar may hold one).
            let sent = switch outcome {
            case .success(let response): response.sentRequests
            case .failure(let error): error.sentRequests
            }
            curl = CurlCommand(policy: policy).render(request, sent: sent)
        }
        // The command goes in as the record is made: setting it afterwards copied the record.
        return AttemptRecorder(policy: policy).attempt(
            request, outcome: outcome, expectations: expectations, startedAt: startedAt,
            startMicroseconds: start, durationMicroseconds: duration, curl: curl)
    }

    private func record(_ result: consuming StepResult) {
        engine.control.stepFinished(index, result)
        engine.onEvent(.stepFinished(file: workflow.file, result))
        // Last: the result moves into the list (a copy retains every string of every attempt).
        results.append(result)
    }

    /// Reports a step skipped; an include's steps are reported one by one
    /// when its file is known, so a report lists the same testcases every run.
    private func skip(_ step: Step, phase: StepPhase, context: StepContext, reason: String) {
        if case .include(let include) = step.action, let file = include.resolved, !file.steps.isEmpty {
            let label = step.name.map { TemplateSource.text(of: $0) } ?? file.displayName
            let inner = context.entering(directory: file.directory, label: label, file: file.path)
            for included in file.steps { skip(included, phase: phase, context: inner, reason: reason) }
            return
        }
        record(StepResult(name: fullName(of: step, in: context), phase: phase, location: step.range, outcome: .skipped(reason: reason)))
    }

    private func errored(_ step: Step, phase: StepPhase, context: StepContext, _ error: EvaluationError) -> StepResult {
        StepResult(name: fullName(of: step, in: context), phase: phase, location: step.range,
                   outcome: .errored(StepError(type: "template", message: error.message, location: error.range)))
    }

    /// `login › log in`, `auth › log in (2)`: the name reports show, with its include and login
    /// prefixes, numbered when an earlier result of this workflow has it (`GET /health (2)`).
    /// Called once per result: each call claims the name it returns.
    private func fullName(of step: Step, in context: StepContext, iteration: Int? = nil) -> String {
        // Most steps are neither included nor a login's: their name as it is, not concatenated.
        let full = context.prefix.isEmpty && context.suffix.isEmpty ? name(of: step) : context.prefix + name(of: step) + context.suffix
        return uniqueNames.claim(full, iteration: iteration)
    }

    /// The step's `name` rendered when its variables exist, else as written.
    private func name(of step: Step) -> String {
        if let name = step.name, let rendered = try? renderer.string(name) { return rendered }
        return StepNaming.name(of: step)
    }
}
