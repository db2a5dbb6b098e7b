import CourierDiagnostics

/// The workflow-wide `auth:` flow (spec section 9): run `login` before the
/// first request that needs auth, add `apply` to requests, and on a status in
/// `refreshOn` log in again and resend once.
package struct AuthFlow: Sendable {
    package var login: [Step]
    /// Headers added to every request except those of `login` and of steps with their own
    /// `auth:` (`auth: none` included).
    package var applyHeaders: [HeaderEntry]
    /// Query parameters added to the same requests (`apply: { query: { access_token: … } }`),
    /// for APIs that take the token in the URL.
    package var applyQuery: [(name: Template, values: [TemplateValue])]
    /// Default [401].
    package var refreshOn: [Int]
    package var range: SourceRange

    package init(login: [Step], applyHeaders: [HeaderEntry], applyQuery: [(name: Template, values: [TemplateValue])] = [],
                 refreshOn: [Int], range: SourceRange) {
        self.login = login
        self.applyHeaders = applyHeaders
        self.applyQuery = applyQuery
        self.refreshOn = refreshOn
        self.range = range
    }
}
