import CourierDiagnostics
import CourierHTTP
import CourierJSON
import CourierResults
import CourierWorkflow

/// What the `auth:` flow is to one request step that gets its `apply`.
struct LoginNeed {
    let flow: AuthFlow
    /// An earlier login failed: the step fails with it, without logging in again.
    let failure: StepError?
    let loggedIn: Bool
    /// Runs the login steps; the error for the step that needed them when they failed.
    let logIn: () async -> StepError?
}

/// Runs a request step: attempt → check → commit. Attempts go on while the step's policies
/// say so (retries and polling, ``RetryAttempts``; the auth flow's refresh on a refused
/// status, ``RefreshOnStatus``); the deciding (last) attempt is committed to the scope, and
/// every attempt is kept in the result.
final class AttemptRunner {
    private let state: WorkflowState
    private let log: ResultLog
    private let events: WorkflowEvents
    private let stopping: WorkflowStopping
    private let harvester: CredentialHarvester
    private let placeholders: any PlaceholderPolicy
    private let plan: RunPlan
    private let clock: RunClock
    private let recording: AttemptRecording
    /// `defaults:` over the command line's options, the same for every request.
    private let lowerLayers: RequestOptions.LowerLayers

    init(state: WorkflowState, log: ResultLog, events: WorkflowEvents, stopping: WorkflowStopping,
         harvester: CredentialHarvester, placeholders: any PlaceholderPolicy, plan: RunPlan, clock: RunClock) {
        self.state = state
        self.log = log
        self.events = events
        self.stopping = stopping
        self.harvester = harvester
        self.placeholders = placeholders
        self.plan = plan
        self.clock = clock
        self.recording = AttemptRecording(secrets: plan.secrets, curlCommands: plan.curlCommands, clock: clock)
        self.lowerLayers = RequestOptions.LowerLayers(defaults: state.workflow.defaults, commandLine: plan.requests.commandLine,
                                                       builtIns: .builtIns)
    }

    /// The attempts of one request step so far.
    private struct Attempts {
        /// Named before anything of the step is committed: its own captures do not rename it.
        let stepName: String
        /// How the console names the attempts and retries: an iteration with its `[i]`.
        let displayName: String
        let iteration: Int?
        let phase: StepPhase
        /// Each attempt's record moves here when the attempt is over.
        var records: [Attempt] = []
        var count = 0
        /// Logins are entries of their own, with their own time: not counted twice in the step's.
        var loginMicroseconds = 0
    }

    private enum Decided {
        case attempt(AttemptOutcome)
        case loginFailed(StepError)
    }

    /// Runs a request step; `start` is its start on the run's clock (before any `delay:`).
    func perform(_ request: Request, step: Step, phase: StepPhase, context: StepContext, iteration: Int?, start: Int,
                 login: LoginNeed?) async -> StepResult {
        let stepName = log.fullName(of: step, in: context, iteration: iteration)
        var attempts = Attempts(stepName: stepName, displayName: iteration.map { "\(stepName) [\($0)]" } ?? stepName,
                                iteration: iteration, phase: phase)
        // The auth flow: log in before the first request that needs credentials.
        if let login {
            if let failure = login.failure { return result(.errored(failure), of: attempts, step: step, start: start) }
            if !login.loggedIn, let failure = await timedLogIn(login, &attempts) {
                return result(.errored(failure), of: attempts, step: step, start: start)
            }
        }
        switch await attemptUntilDecided(request, step: step, context: context, login: login, &attempts) {
        case .loginFailed(let failure):
            return result(.errored(failure), of: attempts, step: step, start: start)
        case .attempt(let deciding):
            commit(deciding, step: step)
            // The result shows what the deciding attempt captured, committed or not (a failed step's
            // captures help to see why it failed); the scope has them only when the step succeeded.
            return result(deciding.stepOutcome, captures: deciding.captures, of: attempts, step: step, start: start)
        }
    }

    /// Attempts until the policies stop; the last attempt decides.
    private func attemptUntilDecided(_ request: Request, step: Step, context: StepContext, login: LoginNeed?,
                                     _ attempts: inout Attempts) async -> Decided {
        // `retry:`, else `defaults.retry`, else `--retry N`.
        let retry = step.retry ?? state.workflow.defaults.retry
        var policy: any AttemptPolicy = RetryAttempts(written: retry, commandLineAttempts: plan.retries.commandLineAttempts,
                                                      seed: plan.retries.jitterSeed, clock: plan.retries.clock) ?? SingleAttempt()
        // A refusal in `refresh_on` logs in again and resends once: the resend is another
        // attempt of this step, which the retry policy does not count (a refresh uses up no retry).
        var refresh = login.map { RefreshOnStatus(refreshOn: $0.flow.refreshOn) }
        // Each attempt is made in `deciding` directly (assigning a finished outcome to it copied it).
        var deciding: AttemptOutcome
        while true {
            deciding = await attempt(request, step: step, phase: attempts.phase, context: context, applying: login?.flow,
                                     abortIf: retry?.abortIf)
            switch refresh?.decide(afterStatus: deciding.record?.response?.status) {
            case .logInAgainAndResend?:
                recorded(&deciding, in: &attempts)
                if let login, let failure = await timedLogIn(login, &attempts) { return .loginFailed(failure) }
                continue
            case .refusedAgain(let status)?:
                if let refusal = refresh?.refusal(status: status, at: request.range) {
                    deciding.expectations.insert(refusal, at: 0)
                    deciding.record?.expectations.insert(refusal, at: 0)
                }
            case .keep?, nil:
                break
            }
            let counted = attempts.count + 1 - (refresh?.spent == true ? 1 : 0)
            guard case .again(let next) = policy.decide(after: deciding, number: counted) else {
                // Said with the attempt: otherwise "attempt 4 of 4" reads as a budget run out.
                if deciding.abortMatched && !deciding.succeeded { deciding.record?.stopped = AttemptRetry.abortIfHeld }
                recorded(&deciding, in: &attempts)
                return .attempt(deciding)
            }
            deciding.record?.retry = next
            recorded(&deciding, in: &attempts)
            events.attemptRetried(step: attempts.displayName, next)
            // Ctrl-C (or --fail-fast) during the wait ends the step at once.
            do { try await plan.sleeper.sleep(for: next.wait) } catch {
                deciding.error = StepError(.cancelled, message: "\(stopping.stopReason) while waiting to retry",
                                           location: request.range)
                return .attempt(deciding)
            }
        }
    }

    /// `-v` shows each attempt as it happens, not only when the step finishes.
    private func recorded(_ outcome: inout AttemptOutcome, in attempts: inout Attempts) {
        attempts.count += 1
        guard let record = outcome.record.take() else { return }
        events.attemptFinished(step: attempts.displayName, phase: attempts.phase, number: attempts.count, record)
        attempts.records.append(record)
    }

    private func timedLogIn(_ login: LoginNeed, _ attempts: inout Attempts) async -> StepError? {
        let loginStart = clock.elapsedMicroseconds()
        let failure = await login.logIn()
        attempts.loginMicroseconds += clock.elapsedMicroseconds(since: loginStart)
        return failure
    }

    private func result(_ outcome: StepOutcome, captures: [CapturedValue] = [], of attempts: Attempts, step: Step,
                        start: Int) -> StepResult {
        let outcome = stopping.skippedIfFailFastCancelled(outcome)
        var records = attempts.records
        // `--curl` reproduces failed requests: a step that passed keeps no command.
        if !outcome.isProblem {
            for index in records.indices where records[index].curl != nil { records[index].curl = nil }
        }
        return StepResult(name: attempts.stepName, phase: attempts.phase, location: step.range, iteration: attempts.iteration,
                          outcome: outcome, attempts: records, captures: captures, startedAt: clock.timestamp(at: start),
                          durationMicroseconds: max(0, clock.elapsedMicroseconds(since: start) - attempts.loginMicroseconds))
    }

    /// One attempt: builds and delivers the request, then checks what came back.
    private func attempt(_ request: Request, step: Step, phase: StepPhase, context: StepContext,
                         applying flow: AuthFlow?, abortIf: Expectations?) async -> AttemptOutcome {
        let builder = RequestBuilder(renderer: state.renderer, maxResponseBytes: plan.requests.maxResponseBytes,
                                     directory: context.directory, cookieJar: state.cookieJar)
        var httpRequest: HTTPRequest
        do {
            // Taken apart, so the request moves out of the tuple rather than being copied.
            let (built, applied) = try builder.build(request, defaults: state.workflow.defaults, layers: lowerLayers, applying: flow)
            httpRequest = built
            // Reading the sent headers back needs libcurl's verbose mode, which costs about a
            // seventh of a small request's time (libcurl turns it on by itself where it may
            // add credentials, see CurlTransfer).
            httpRequest.options.recordSentRequests = plan.requests.recordSentRequests
            // Only a step that reads raw bytes pays for decoding in Courier (and two copies).
            // (`abort_if` may come from `defaults.retry`, not the step.)
            if step.readsRawBytes || abortIf?.readsRawBytes == true { httpRequest.options.keepsEncodedBody = true }
            harvester.built(httpRequest, applied: applied)
        } catch {
            return AttemptOutcome(error: StepError(.template, message: error.message, location: error.range))
        }
        let start = clock.elapsedMicroseconds()
        switch await plan.delivery.deliver(httpRequest, shielded: stopping.isCleaningUp(phase)) {
        case .notSent:
            var outcome = AttemptOutcome(record: recording.unsent(httpRequest))
            outcome.method = httpRequest.method
            outcome.captures = placeholders.values(standingInFor: step.capture)
            return outcome
        case .failure(let error):
            return failed(httpRequest, error, phase: phase, at: request.range, start: start)
        case .response(let response):
            harvester.sent(response)
            let checker = AttemptChecker(state: state, harvester: harvester, recording: recording)
            // Off the thread that drives transfers, a large body is checked elsewhere: decoding,
            // parsing and matching it may take long, and that thread must keep pumping.
            if let elsewhere = plan.offDriver, response.body.count > Engine.heavyBodyBytes {
                return await withTaskExecutorPreference(elsewhere) {
                    checker.check(response, sent: httpRequest, step: step, abortIf: abortIf, start: start)
                }
            }
            return checker.check(response, sent: httpRequest, step: step, abortIf: abortIf, start: start)
        }
    }

    /// A transfer that failed: the error in the engine's words, with why it was cancelled.
    private func failed(_ request: HTTPRequest, _ error: HTTPError, phase: StepPhase, at location: SourceRange?,
                        start: Int) -> AttemptOutcome {
        harvester.sent(error.sentRequests)
        let attempt = recording.attempt(request, .failure(error), expectations: [], start: start)
        let text = TransportErrorText.describe(error)
        var message = text.message
        if error.kind == .cancelled, let reason = stopping.cancelledTransferReason(in: phase) { message = reason }
        var outcome = AttemptOutcome(record: attempt, error: StepError(StepError.Kind(error.kind), message: message,
                                                                       hint: text.hint, location: location))
        outcome.method = request.method
        outcome.transportError = error.kind
        return outcome
    }

    /// Makes the deciding attempt visible to the steps after it: `steps.<id>` when a
    /// response came back, and its captures only when the step succeeded (a failed step
    /// under `continue_on_failure` leaves the variables as they were).
    private func commit(_ outcome: AttemptOutcome, step: Step) {
        if let id = step.id?.value, let value = outcome.stepValue {
            state.scope.steps[id] = value
        }
        // A short secret is hard to mask whether or not the step went on to fail.
        for warning in outcome.warnings { events.warning(warning) }
        guard outcome.succeeded else { return }
        for capture in outcome.captures { state.define(capture: capture.name, capture.value) }
    }
}
