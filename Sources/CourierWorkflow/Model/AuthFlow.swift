import CourierDiagnostics

/// The workflow-wide `auth:` flow (spec section 9): run `login` before the
/// first request that needs auth, add `apply` to requests, and on a status in
/// `refreshOn` log in again and resend once.
package struct AuthFlow: Sendable {
    package var login: [Step]
    /// Headers added to every request except those of `login` and `auth: none` steps.
    package var applyHeaders: [HeaderEntry]
    /// Default [401].
    package var refreshOn: [Int]
    package var range: SourceRange

    package init(login: [Step], applyHeaders: [HeaderEntry], refreshOn: [Int], range: SourceRange) {
        self.login = login
        self.applyHeaders = applyHeaders
        self.refreshOn = refreshOn
        self.range = range
    }
}
