import CourierJSON

/// A public key of a JWKS (RFC 7517) as the DER SubjectPublicKeyInfo libcrypto reads
/// (`d2i_PUBKEY`): an RSA key from `n` and `e`, a P-256 key from `x` and `y` (RFC 7518 §6).
/// Built here, in a few lines of DER, rather than through OpenSSL 3's parameter builder: one
/// libcrypto call then reads every key, and what is wrong with a JWK is said in JWK terms.
enum JWKPublicKey {
    /// The DER of `jwk` for `algorithm`, or why it is not a usable key.
    static func spki(_ jwk: JSONObject, for algorithm: JWTAlgorithm) -> Result<[UInt8], JWTProblem> {
        func field(_ name: String) -> Result<[UInt8], JWTProblem> {
            guard case .string(let text)? = jwk[name] else { return .failure(.problem("the JWKS key has no '\(name)' string")) }
            return Base64URL.decode(Substring(text)).mapError { .problem("the JWKS key's '\(name)' is not base64url: \($0.reason)") }
        }
        switch algorithm {
        case .rs256:
            let n: [UInt8], e: [UInt8]
            switch (field("n"), field("e")) {
            case (.success(let a), .success(let b)): (n, e) = (a, b)
            case (.failure(let problem), _), (_, .failure(let problem)): return .failure(problem)
            }
            let rsaKey = DER.sequence(DER.integer(n) + DER.integer(e))
            let algorithmID = DER.sequence([0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00])
            return .success(DER.sequence(algorithmID + DER.bitString(rsaKey)))
        case .es256:
            guard jwk["crv"] == .string("P-256") else {
                return .failure(.problem("ES256 needs a P-256 key, the JWKS key's 'crv' is \(jwk["crv"]?.shortText ?? "missing")"))
            }
            let x: [UInt8], y: [UInt8]
            switch (field("x"), field("y")) {
            case (.success(let a), .success(let b)): (x, y) = (a, b)
            case (.failure(let problem), _), (_, .failure(let problem)): return .failure(problem)
            }
            guard x.count == 32, y.count == 32 else { return .failure(.problem("a P-256 key's 'x' and 'y' are 32 bytes each")) }
            // id-ecPublicKey, prime256v1; the point uncompressed (0x04 || x || y).
            let algorithmID = DER.sequence([0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01,
                                            0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07])
            return .success(DER.sequence(algorithmID + DER.bitString([0x04] + x + y)))
        case .hs256, .hs384, .hs512:
            return .failure(.problem("\(algorithm.name) takes a shared 'key', not a JWKS"))
        }
    }

    /// A JWS ES256 signature (`r || s`, 32 bytes each, RFC 7518 §3.4) as the DER
    /// `ECDSA-Sig-Value` libcrypto verifies; nil when it is not 64 bytes.
    static func ecdsaDER(_ signature: [UInt8]) -> [UInt8]? {
        guard signature.count == 64 else { return nil }
        return DER.sequence(DER.integer(Array(signature[..<32])) + DER.integer(Array(signature[32...])))
    }
}

/// The few DER encodings a public key needs (X.690).
enum DER {
    static func sequence(_ content: [UInt8]) -> [UInt8] { [0x30] + length(content.count) + content }

    /// A non-negative INTEGER from big-endian bytes: leading zeros dropped, one 0x00 kept in
    /// front of a high bit (else it would read as negative).
    static func integer(_ bytes: [UInt8]) -> [UInt8] {
        var value = Array(bytes.drop { $0 == 0 })
        if value.isEmpty || value[0] & 0x80 != 0 { value.insert(0, at: 0) }
        return [0x02] + length(value.count) + value
    }

    static func bitString(_ content: [UInt8]) -> [UInt8] { [0x03] + length(content.count + 1) + [0x00] + content }

    private static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var rest = count
        while rest > 0 { bytes.insert(UInt8(rest & 0xff), at: 0); rest >>= 8 }
        return [0x80 | UInt8(bytes.count)] + bytes
    }
}
