import CourierDiagnostics
import CourierJSON
import CourierResults
import CourierWorkflow

/// One workflow run's state of the `auth:` flow (spec section 9): whether its `login`
/// steps have run, how often, and whether they failed. It lives in the `WorkflowRunner`,
/// so workflows run at once (`--jobs`) never share credentials.
struct AuthSession {
    let flow: AuthFlow
    /// Login runs so far: the second is reported `auth › log in (2)`.
    private(set) var runs = 0
    /// The last login passed: its captures are in the workflow's scope.
    private(set) var loggedIn = false
    /// Set once a login failed: every later request that needs credentials fails with it,
    /// without logging in again (wrong credentials stay wrong; a server must not be hammered).
    private(set) var failure: StepError?

    init(flow: AuthFlow) {
        self.flow = flow
    }

    /// Whether a request gets `apply` (and so needs a login first): every request except
    /// those of `login` itself and those with their own `auth:` (`auth: none` included).
    func applies(to request: Request, inLogin: Bool) -> Bool {
        !inLogin && request.auth == nil
    }

    /// Starts a login run; returns the suffix of its entries' names (`""`, ` (2)`, …).
    mutating func beginLogin() -> String {
        runs += 1
        loggedIn = false
        return runs > 1 ? " (\(runs))" : ""
    }

    mutating func loginPassed() {
        loggedIn = true
    }

    mutating func loginFailed(_ error: StepError) {
        failure = error
    }
}

/// The auth flow's say after one attempt of a step that got `apply`: the attempt loop's
/// "log in again, then resend", once per step (spec section 9). Kept apart from the
/// retry policy: a resend uses up no retry attempt, and a retry after it does not refresh.
struct RefreshOnStatus {
    enum Decision: Equatable {
        /// The status is not in `refresh_on`, or the step has no `apply`.
        case keep
        /// Run `login` again, then resend the request as another attempt of the step.
        case logInAgainAndResend
        /// The resend was refused too: the step fails and says so.
        case refusedAgain(status: Int)
    }

    let refreshOn: [Int]
    /// The step's one refresh has happened.
    private(set) var spent = false

    init(refreshOn: [Int]) {
        self.refreshOn = refreshOn
    }

    mutating func decide(afterStatus status: Int?) -> Decision {
        guard let status, refreshOn.contains(status) else { return .keep }
        if spent { return .refusedAgain(status: status) }
        spent = true
        return .logInAgainAndResend
    }

    /// The failure a step gets when its resend is refused too.
    func refusal(status: Int, at location: SourceRange?) -> ExpectationResult {
        ExpectationResult(location: location, subject: "auth",
                          message: "the refreshed credentials were refused too: \(status) again after logging in again",
                          expected: .words("a status not in refresh_on \(refreshOn)"), actual: .value(.number(JSONNumber(status))))
    }
}
