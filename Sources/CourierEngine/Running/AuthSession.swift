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
        return StepNaming.numbered("", occurrence: runs)
    }

    mutating func loginPassed() {
        loggedIn = true
    }

    mutating func loginFailed(_ error: StepError) {
        failure = error
    }
}
