import CourierResults
import CourierWorkflow

/// The `auth:` flow of one workflow run (spec section 9), around its ``AuthSession``: which
/// requests need a login, and the login itself, its `login` steps reported as entries of
/// their own (`auth › log in`, `auth › log in (2)` the second time) whose captures go to the
/// workflow's scope.
final class LoginFlow {
    private var session: AuthSession
    private let log: ResultLog
    private let directory: String
    private let file: String

    init(flow: AuthFlow, log: ResultLog, workflow: Workflow) {
        self.session = AuthSession(flow: flow)
        self.log = log
        self.directory = workflow.directory
        self.file = FilePaths.normalize(workflow.file)
    }

    /// A login failed: every later request that needs credentials fails with it.
    var hasFailed: Bool { session.failure != nil }

    /// What the flow is to `request` (which gets `apply`, and so a login first), or nil for
    /// one that gets none (the login's own requests, and those with an `auth:` of their own).
    func need(for request: Request, context: StepContext, steps: StepRunner) -> LoginNeed? {
        guard session.applies(to: request, inLogin: context.inLogin) else { return nil }
        return LoginNeed(flow: session.flow, failure: session.failure, loggedIn: session.loggedIn,
                         logIn: { [unowned self] in await self.logIn(steps: steps) })
    }

    /// Runs the `login` steps; returns the error for the step that needed them when they failed.
    func logIn(steps: StepRunner) async -> StepError? {
        let suffix = session.beginLogin()
        let context = StepContext(directory: directory, prefix: "auth › ", chain: [file], inLogin: true, suffix: suffix)
        let before = log.results.count
        var reason: SkipReason? = nil
        let failed = await steps.runPhase(session.flow.login, phase: .auth, context: context, skipReason: &reason)
        let failedEntry = log.results[before...].first { $0.outcome.isProblem }
        // Interrupted or cancelled (--fail-fast) before the login was done: not a failed
        // login, and no credentials either; the next step that needs them logs in again.
        if case .errored(let error)? = failedEntry?.outcome, error.kind == .cancelled {
            return StepError(.cancelled, message: error.message, location: error.location)
        }
        if !failed, let reason {
            return StepError(.cancelled, message: reason.description, location: session.flow.range)
        }
        guard failed else {
            session.loginPassed()
            return nil
        }
        let error = StepError(.loginFailed, message: Self.failureMessage(failedEntry),
                              location: failedEntry?.location ?? session.flow.range)
        session.loginFailed(error)
        return error
    }

    /// The login's own entry carries its diagnostics (request, response); the step that
    /// needed it names it and says what went wrong first.
    static func failureMessage(_ entry: StepResult?) -> String {
        var message = "login failed"
        guard let entry else { return message }
        message += ": '\(entry.displayName)' "
        switch entry.outcome {
        case .failed(let failures): message += failures.first.map { "failed: \($0.message)" } ?? "failed"
        case .errored(let error): message += "could not be carried out: \(error.message)"
        case .passed, .skipped: break
        }
        return message
    }
}
