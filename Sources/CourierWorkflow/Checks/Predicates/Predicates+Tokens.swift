import CourierJSON

/// Tokens: `jwt`, listed among the formats of ``structure`` (before the combinators, which
/// suggestions list last); in a file of its own for its size.
extension PredicateDefinition {
    /// A signed JWT (RFC 7519): signature first, then `exp`/`nbf` against the engine's clock,
    /// `aud` and `iss`, then each of `claims:` (which the engine checks as nested matchers).
    static let jwt = PredicateDefinition(
        CheckShape(key: "jwt", operand: .jwt,
                   description: "A JWT signed with `key` (HS256/384/512; `none` is never accepted), not expired, "
                       + "with the `audience` and `issuer` given and each of `claims` matching.",
                   example: "jwt: { key: \"{{ jwt_secret }}\", algorithms: [HS256], audience: my-api, claims: { sub: { starts_with: user- } } }"),
        checksOneValue: { _ in true }
    ) { operand, input in
        guard case .jwt(let requirements) = operand, let actual = input.value else { return .holds }
        guard case .string(let token) = actual else { return .needs("jwt", "a string (a JWT)", actual) }
        switch requirements.verify(token) {
        case .success(let claims): return .claims(claims, hidingValues: requirements.hidesClaimValues)
        case .failure(let problem): return .fails(problem.reason, expected: .words("a valid JWT"))
        }
    }
}
