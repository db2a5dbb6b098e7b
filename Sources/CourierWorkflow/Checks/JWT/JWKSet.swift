import CourierJSON

/// Checks RS256 and ES256 signatures; the engine gives one backed by libcrypto.
package protocol JWTSignatureVerifier: Sendable {
    /// Whether `signature` (DER for ECDSA) verifies over `message` with SHA-256 under
    /// `publicKey` (a DER SubjectPublicKeyInfo), or why it cannot be checked at all.
    func verify(publicKey: [UInt8], message: [UInt8], signature: [UInt8]) -> Result<Bool, JWTProblem>
}

/// The keys of a JWKS (RFC 7517 §5) that may have signed a token.
enum JWKSet {
    /// The keys of `jwks` for `algorithm`: the one whose `kid` the token's header names, or
    /// every key of the algorithm's `kty` when the header names none.
    static func candidates(_ jwks: JSONValue, for algorithm: JWTAlgorithm, kid: JSONValue?) -> Result<[JSONObject], JWTProblem> {
        guard case .object(let set) = jwks, case .array(let items)? = set["keys"] else {
            return .failure(.problem("the JWKS is not an object with a 'keys' list"))
        }
        let keys = items.compactMap { item -> JSONObject? in if case .object(let key) = item { key } else { nil } }
        if let kid {
            guard let key = keys.first(where: { $0["kid"] == kid }) else {
                let known = keys.compactMap { $0["kid"]?.shortText }
                return .failure(.problem("no key in the JWKS has the token's kid \(kid.shortText)"
                    + (known.isEmpty ? "" : " (kids: \(known.joined(separator: ", ")))")))
            }
            guard key["kty"] == algorithm.keyType.map(JSONValue.string) else {
                return .failure(.problem("the JWKS key \(kid.shortText) is \(key["kty"]?.shortText ?? "of no kty"), not \(algorithm.keyType ?? "") as \(algorithm.name) needs"))
            }
            return .success([key])
        }
        let matching = keys.filter { $0["kty"] == algorithm.keyType.map(JSONValue.string) }
        guard !matching.isEmpty else {
            return .failure(.problem("the JWKS has no \(algorithm.keyType ?? "") key for \(algorithm.name)"))
        }
        return .success(matching)
    }
}
