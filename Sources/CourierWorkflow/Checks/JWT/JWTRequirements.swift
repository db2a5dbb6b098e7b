import CourierJSON

/// What the `jwt` predicate requires of a token, with its templates rendered and the moment
/// it is checked at: the resolved operand its evaluation sees (``ResolvedOperand/jwt(_:)``).
package struct JWTRequirements {
    /// The shared secret of HS256/384/512, as bytes (the key's UTF-8 text).
    package var key: [UInt8]?
    /// The JWKS (`{"keys": [...]}`) of RS256 and ES256, read.
    package var jwks: JSONValue?
    /// Checks RS256 and ES256 signatures (libcrypto, given by the engine).
    package var verifier: (any JWTSignatureVerifier)?
    /// The algorithms a token may name; every supported one when empty.
    package var algorithms: [JWTAlgorithm]
    package var audience: String?
    package var issuer: String?
    /// The clock skew allowed on `exp` and `nbf`, in microseconds.
    package var leewayMicroseconds: Int64
    /// The engine's clock, read once for the check (never the machine's directly, so tests pin it).
    package var now: DateInstant
    /// The token or the key is a secret of the run: messages name claims, never show their values.
    package var hidesClaimValues: Bool

    package init(key: [UInt8]?, jwks: JSONValue? = nil, verifier: (any JWTSignatureVerifier)? = nil, algorithms: [JWTAlgorithm], audience: String?, issuer: String?,
                 leewayMicroseconds: Int64, now: DateInstant, hidesClaimValues: Bool) {
        self.key = key
        self.jwks = jwks
        self.verifier = verifier
        self.algorithms = algorithms
        self.audience = audience
        self.issuer = issuer
        self.leewayMicroseconds = leewayMicroseconds
        self.now = now
        self.hidesClaimValues = hidesClaimValues
    }

    /// The token's claims when it is signed with the key by an allowed algorithm and its
    /// registered claims (`exp`, `nbf`, `aud`, `iss`) hold; otherwise the first reason it fails.
    /// The signature is checked before any claim: the claims of a forged token mean nothing.
    package func verify(_ text: String) -> Result<JSONObject, JWTProblem> {
        let token: JWTToken
        switch JWTToken.parse(text) {
        case .success(let parsed): token = parsed
        case .failure(let problem): return .failure(problem)
        }
        guard case .string(let name)? = token.header["alg"] else {
            return .failure(.notJWT(token.header["alg"] == nil ? "the header has no 'alg'" : "the header's 'alg' is not a string"))
        }
        guard name.lowercased() != "none" else {
            return .failure(.problem("algorithm none is never accepted: an unsigned token proves nothing"))
        }
        guard let algorithm = JWTAlgorithm(rawValue: name) else {
            let known = JWTAlgorithm.unsupported.contains(name) ? "is not supported yet" : "is unknown"
            return .failure(.problem("algorithm \(name) \(known) (Courier verifies \(JWTAlgorithm.allCases.map(\.name).joined(separator: ", ")))"))
        }
        if !algorithms.isEmpty, !algorithms.contains(algorithm) {
            return .failure(.problem("algorithm \(name) is not allowed (allowed: \(algorithms.map(\.name).joined(separator: ", ")))"))
        }
        if let problem = signatureProblem(token, algorithm) { return .failure(problem) }
        if let problem = registeredClaimProblem(token.claims) { return .failure(.problem(problem)) }
        return .success(token.claims)
    }

    // MARK: - Signatures

    /// Nil when the signature verifies. The key kind must match the algorithm: a public key
    /// used as an HMAC secret is the algorithm-confusion attack, so HS* never reads the JWKS.
    private func signatureProblem(_ token: JWTToken, _ algorithm: JWTAlgorithm) -> JWTProblem? {
        let name = algorithm.name
        if let hash = algorithm.hash {
            guard let key else { return .problem("algorithm \(name) needs a shared 'key', and this check gives only 'jwks'") }
            let expected = HMAC.code(hash, key: key, message: token.signingInput)
            return HMAC.equal(expected, token.signature) ? nil : .problem("signature does not verify with the key (\(name))")
        }
        guard let jwks else { return .problem("algorithm \(name) needs public keys in 'jwks', and this check gives only a shared 'key'") }
        guard let verifier else { return .problem("algorithm \(name) cannot be verified here") }
        let candidates: [JSONObject]
        switch JWKSet.candidates(jwks, for: algorithm, kid: token.header["kid"]) {
        case .success(let keys): candidates = keys
        case .failure(let problem): return problem
        }
        let signature: [UInt8]
        if algorithm == .es256 {
            guard let der = JWKPublicKey.ecdsaDER(token.signature) else {
                return .problem("signature does not verify with the key (ES256 signatures are 64 bytes, this one is \(token.signature.count))")
            }
            signature = der
        } else {
            signature = token.signature
        }
        var lastProblem: JWTProblem?
        for jwk in candidates {
            let spki: [UInt8]
            switch JWKPublicKey.spki(jwk, for: algorithm) {
            case .success(let der): spki = der
            case .failure(let problem): lastProblem = problem; continue
            }
            switch verifier.verify(publicKey: spki, message: token.signingInput, signature: signature) {
            case .success(true): return nil
            case .success(false): continue
            case .failure(let problem): return problem
            }
        }
        return lastProblem ?? .problem("signature does not verify with the key (\(name))")
    }

    // MARK: - Registered claims (RFC 7519 §4.1)

    private func registeredClaimProblem(_ claims: JSONObject) -> String? {
        if let value = claims["exp"] {
            guard let exp = instant(value) else { return "claim 'exp' is not a number of seconds\(shown(value))" }
            if now.microseconds > exp.microseconds + leewayMicroseconds {
                return hidesClaimValues ? "expired: 'exp' is before now (\(now.rfc3339))\(leewayText)"
                    : "expired at \(exp.rfc3339) (now \(now.rfc3339))\(leewayText)"
            }
        }
        if let value = claims["nbf"] {
            guard let nbf = instant(value) else { return "claim 'nbf' is not a number of seconds\(shown(value))" }
            if now.microseconds + leewayMicroseconds < nbf.microseconds {
                return hidesClaimValues ? "not valid yet: 'nbf' is after now (\(now.rfc3339))\(leewayText)"
                    : "not valid before \(nbf.rfc3339) (now \(now.rfc3339))\(leewayText)"
            }
        }
        if let audience {
            // `aud` is one string or an array of them (RFC 7519 §4.1.3).
            guard let value = claims["aud"] else { return "has no 'aud' claim, so its audience does not contain \(JSONValue.string(audience).shortText)" }
            let found: [JSONValue]
            if case .array(let items) = value { found = items } else { found = [value] }
            if !found.contains(.string(audience)) {
                return hidesClaimValues ? "audience 'aud' does not contain \(JSONValue.string(audience).shortText)"
                    : "audience \(value.shortText) does not contain \(JSONValue.string(audience).shortText)"
            }
        }
        if let issuer {
            guard let value = claims["iss"] else { return "has no 'iss' claim, expected issuer \(JSONValue.string(issuer).shortText)" }
            if value != .string(issuer) {
                return hidesClaimValues ? "issuer 'iss' is not \(JSONValue.string(issuer).shortText)"
                    : "issuer \(value.shortText) is not \(JSONValue.string(issuer).shortText)"
            }
        }
        return nil
    }

    private var leewayText: String {
        leewayMicroseconds == 0 ? "" : " with a leeway of \(DurationText.text(microseconds: leewayMicroseconds))"
    }

    private func shown(_ value: JSONValue) -> String { hidesClaimValues ? "" : ", found \(value.shortText)" }

    /// A NumericDate: seconds since 1970, a fraction allowed (RFC 7519 §2).
    private func instant(_ value: JSONValue) -> DateInstant? {
        guard case .number(let number) = value else { return nil }
        let seconds = number.doubleValue
        guard seconds.isFinite, abs(seconds) < 253_402_300_800 else { return nil }
        let whole = seconds.rounded(.down)
        return DateInstant(seconds: Int64(whole), microsecond: Int(((seconds - whole) * 1_000_000).rounded(.down)))
    }
}

/// A leeway as a reader wrote it: `30s`, `1.5s`, `250ms`.
enum DurationText {
    static func text(microseconds: Int64) -> String {
        if microseconds % 1_000_000 == 0 { return "\(microseconds / 1_000_000)s" }
        if microseconds % 1000 == 0 { return "\(microseconds / 1000)ms" }
        return "\(Double(microseconds) / 1_000_000)s"
    }
}
