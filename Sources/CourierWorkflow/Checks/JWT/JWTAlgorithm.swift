/// The signature algorithms the `jwt` predicate verifies (RFC 7518 §3.1), as a token's
/// `alg` header and the predicate's `algorithms:` name them.
///
/// `none` is not among them and never will be: an unsigned token proves nothing, and a
/// verifier that accepts it because the token says so is the classic JWT hole.
package enum JWTAlgorithm: String, Sendable, CaseIterable {
    case hs256 = "HS256"
    case hs384 = "HS384"
    case hs512 = "HS512"
    /// RSASSA-PKCS1-v1_5 with SHA-256, a key from a JWKS, verified by libcrypto.
    case rs256 = "RS256"
    /// ECDSA P-256 with SHA-256, a key from a JWKS, verified by libcrypto.
    case es256 = "ES256"

    package var name: String { rawValue }

    /// The HMAC hash of HS256/384/512; nil for the public-key algorithms.
    var hash: HMAC.Hash? {
        switch self {
        case .hs256: .sha256
        case .hs384: .sha384
        case .hs512: .sha512
        case .rs256, .es256: nil
        }
    }

    /// The JWK `kty` of the public-key algorithms.
    var keyType: String? {
        switch self {
        case .rs256: "RSA"
        case .es256: "EC"
        case .hs256, .hs384, .hs512: nil
        }
    }

    /// The names of RFC 7518 that Courier knows but does not verify yet, so that a token or an
    /// allow-list naming one is told so rather than "unknown".
    static let unsupported = ["RS384", "RS512", "ES384", "ES512", "PS256", "PS384", "PS512", "EdDSA"]
}
