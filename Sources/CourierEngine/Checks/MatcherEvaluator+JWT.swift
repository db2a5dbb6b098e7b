import CourierDiagnostics
import CourierHTTP
import CourierJSON
import CourierResults
import CourierWorkflow
import Foundation

/// The `jwt` predicate's share of the engine: its operand rendered with the engine's clock
/// and the run's secrets, and its `claims:` checked as nested matchers.
extension MatcherEvaluator {
    /// The rendered requirements for `token`. A token checked with a secret key, or one that
    /// holds a secret, is registered as a secret itself: its payload is only base64, so every
    /// output showing it would show its claims (which are then named, never shown).
    func requirements(_ operand: JWTOperand, token: JSONValue?) throws(EvaluationError) -> JWTRequirements {
        let key = try operand.key.map { value throws(EvaluationError) in try renderer.value(value).interpolationText }
        if let key, key.isEmpty, let range = operand.key?.range { throw EvaluationError(.invalid, "'key' of 'jwt' is empty once rendered", at: range) }
        let jwks = try operand.jwks.map { value throws(EvaluationError) in try self.jwks(value) }
        let audience = try operand.audience.map { value throws(EvaluationError) in try renderer.value(value).interpolationText }
        let issuer = try operand.issuer.map { value throws(EvaluationError) in try renderer.value(value).interpolationText }
        var hides = false
        if let secrets {
            let policy = secrets.policy
            let tokenText = token.map(TemplateRenderer.interpolation)
            hides = key.map { policy.mask($0) != $0 } == true || tokenText.map { policy.mask($0) != $0 } == true
            if hides, case .string(let text)? = token { secrets.register(text) }
        }
        let leeway = operand.leeway.components
        let seconds = renderer.functions.now().timeIntervalSince1970
        return JWTRequirements(key: key.map { Array($0.utf8) }, jwks: jwks, verifier: LibCryptoVerifier(), algorithms: operand.algorithms, audience: audience, issuer: issuer,
                               leewayMicroseconds: leeway.seconds * 1_000_000 + leeway.attoseconds / 1_000_000_000_000,
                               now: DateInstant(microseconds: Int64((seconds * 1_000_000).rounded(.down))),
                               hidesClaimValues: hides)
    }

    /// `jwks:` rendered: the JWKS itself, or the JWKS file a text names (relative to the
    /// workflow that names it), read bounded and never from a pipe, as schema files are.
    private func jwks(_ value: TemplateValue) throws(EvaluationError) -> JSONValue {
        let rendered = try renderer.value(value)
        guard case .string(let path) = rendered else { return rendered }
        let resolved = FilePaths.resolve(path, relativeTo: value.range.file)
        let data: [UInt8]
        do throws(FileReadError) {
            if case .success(.fifo) = BoundedFileReader.type(of: resolved) { throw FileReadError(path: resolved, reason: .notAFile(.fifo)) }
            data = try BoundedFileReader.read(resolved, limit: BoundedFileReader.sourceLimit, what: "JWKS files")
        } catch {
            throw EvaluationError(.invalid, "cannot read the JWKS file '\(resolved)': \(error.reasonText)", at: value.range)
        }
        do { return try JSONValue.parse(data) } catch {
            throw EvaluationError(.invalid, "the JWKS file '\(resolved)' is not JSON: \(error.message)", at: value.range)
        }
    }

    /// Each of `claims:` against the verified token's claim of that name, as
    /// "`subject` claim 'sub'". Hiding values, a failure says which claim and what was
    /// expected, never what the claim holds.
    func check(claims operand: JWTOperand, of claims: JSONObject, hidingValues: Bool, subject: String) -> [ExpectationResult] {
        operand.claims.flatMap { claim in
            let claimSubject = "\(subject) claim '\(claim.name)'"
            let failures = check(claim.matcher, actual: claims[claim.name], subject: claimSubject)
            guard hidingValues else { return failures }
            return failures.map { failure in
                var hidden = failure
                if claims[claim.name] != nil {
                    hidden.message = "\(claimSubject): does not match (the token is a secret: its claim values are not shown)"
                    hidden.actual = .words("(hidden: a secret token's claim)")
                }
                return hidden
            }
        }
    }

    /// The operand as a passed record shows it: every requirement but the keys.
    func json(of operand: JWTOperand) -> JSONValue {
        var fields: [(String, JSONValue)] = []
        if !operand.algorithms.isEmpty { fields.append(("algorithms", .array(operand.algorithms.map { .string($0.name) }))) }
        if let audience = operand.audience { fields.append(("audience", (try? renderer.value(audience)) ?? .null)) }
        if let issuer = operand.issuer { fields.append(("issuer", (try? renderer.value(issuer)) ?? .null)) }
        if operand.leeway != .zero { fields.append(("leeway", .string("\(operand.leeway)"))) }
        if !operand.claims.isEmpty {
            fields.append(("claims", .object(JSONObject(operand.claims.map { ($0.name, expected($0.matcher).json ?? .null) }))))
        }
        return .object(JSONObject(fields))
    }
}

/// RS256 and ES256 through libcrypto, loaded when the first such token is checked.
struct LibCryptoVerifier: JWTSignatureVerifier {
    var library = LibCrypto.loaded

    func verify(publicKey: [UInt8], message: [UInt8], signature: [UInt8]) -> Result<Bool, JWTProblem> {
        switch library {
        case .failure(let unavailable):
            return .failure(.problem("RS256 and ES256 need libcrypto: \(unavailable.message)"))
        case .success(let library):
            guard let verified = library.verifySHA256(publicKey: publicKey, message: message, signature: signature) else {
                return .failure(.problem("libcrypto cannot read the JWKS key"))
            }
            return .success(verified)
        }
    }
}
