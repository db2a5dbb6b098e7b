import CourierDiagnostics

/// The operand of the `jwt` predicate as decoded: how a token's signature is verified and
/// what its claims must say.
///
///     jwt:
///       key: "{{ jwt_secret }}"
///       algorithms: [HS256]
///       audience: my-api
///       leeway: 30s
///       claims: { sub: { starts_with: user- } }
package struct JWTOperand: Sendable {
    /// The HS256/384/512 shared secret (a template, often of a secret).
    package let key: TemplateValue?
    /// The RS256/ES256 public keys: a JWKS file's path (relative to the workflow), or the
    /// JWKS itself (inline, or a template like `"{{ steps.keys.json }}"`).
    package let jwks: TemplateValue?
    /// `algorithms:`; empty allows every supported algorithm (never `none`).
    package let algorithms: [JWTAlgorithm]
    package let audience: TemplateValue?
    package let issuer: TemplateValue?
    /// The clock skew allowed on `exp` and `nbf`; zero when not written.
    package let leeway: Duration
    /// `claims:`, in the order written: each claim a plain value or a predicate map.
    package let claims: [Claim]
    package let range: SourceRange

    package struct Claim: Sendable {
        package let name: String
        package let matcher: Matcher
    }

    package init(key: TemplateValue?, jwks: TemplateValue?, algorithms: [JWTAlgorithm], audience: TemplateValue?, issuer: TemplateValue?,
                 leeway: Duration, claims: [Claim], range: SourceRange) {
        self.key = key
        self.jwks = jwks
        self.algorithms = algorithms
        self.audience = audience
        self.issuer = issuer
        self.leeway = leeway
        self.claims = claims
        self.range = range
    }
}
