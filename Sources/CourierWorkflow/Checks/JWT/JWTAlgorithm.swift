/// The signature algorithms the `jwt` predicate verifies (RFC 7518 §3.1), as a token's
/// `alg` header and the predicate's `algorithms:` name them.
///
/// `none` is not among them and never will be: an unsigned token proves nothing, and a
/// verifier that accepts it because the token says so is the classic JWT hole.
package enum JWTAlgorithm: String, Sendable, CaseIterable {
    case hs256 = "HS256"
    case hs384 = "HS384"
    case hs512 = "HS512"

    package var name: String { rawValue }

    var hash: HMAC.Hash {
        switch self {
        case .hs256: .sha256
        case .hs384: .sha384
        case .hs512: .sha512
        }
    }

    /// The names of RFC 7518 that Courier knows but does not verify yet, so that a token or an
    /// allow-list naming one is told so rather than "unknown".
    static let unsupported = ["RS256", "RS384", "RS512", "ES256", "ES384", "ES512", "PS256", "PS384", "PS512", "EdDSA"]
}
