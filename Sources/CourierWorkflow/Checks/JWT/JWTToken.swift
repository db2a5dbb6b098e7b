import CourierJSON

/// A JWT in the JWS compact serialization (RFC 7515 §7.1, RFC 7519 §3): its header and claims
/// read, and the bytes its signature covers, before anything is verified.
struct JWTToken {
    let header: JSONObject
    let claims: JSONObject
    /// `header.payload` as written: what the signature signs.
    let signingInput: [UInt8]
    let signature: [UInt8]

    /// Reads `text`, or says why it is not a JWT (the words go after "not a JWT").
    static func parse(_ text: String) -> Result<JWTToken, JWTProblem> {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            let why = parts.count == 5 ? "5 parts separated by '.' is an encrypted JWE, which Courier does not decrypt"
                : "\(parts.count) \(parts.count == 1 ? "part" : "parts") separated by '.', where a signed JWT has 3"
            return .failure(.notJWT(why))
        }
        let header: JSONObject
        let claims: JSONObject
        switch object(parts[0], named: "header") {
        case .success(let object): header = object
        case .failure(let problem): return .failure(problem)
        }
        switch object(parts[1], named: "payload") {
        case .success(let object): claims = object
        case .failure(let problem): return .failure(problem)
        }
        let signature: [UInt8]
        switch Base64URL.decode(parts[2]) {
        case .success(let bytes): signature = bytes
        case .failure(let problem): return .failure(.notJWT("the signature is not base64url: \(problem.reason)"))
        }
        let signingInput = Array(text.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        return .success(JWTToken(header: header, claims: claims, signingInput: signingInput, signature: signature))
    }

    private static func object(_ part: Substring, named name: String) -> Result<JSONObject, JWTProblem> {
        let bytes: [UInt8]
        switch Base64URL.decode(part) {
        case .success(let decoded): bytes = decoded
        case .failure(let problem): return .failure(.notJWT("the \(name) is not base64url: \(problem.reason)"))
        }
        let value: JSONValue
        do { value = try JSONValue.parse(bytes) } catch {
            return .failure(.notJWT("the \(name) is not JSON: \(error.message)"))
        }
        guard case .object(let object) = value else {
            return .failure(.notJWT("the \(name) is \(value.kindDescription), not a JSON object"))
        }
        return .success(object)
    }
}

/// Why a token fails the `jwt` predicate: each its own reason, in the report's words.
package enum JWTProblem: Error, Equatable {
    /// Not a signed JWT at all (the words say why).
    case notJWT(String)
    case problem(String)

    package var reason: String {
        switch self {
        case .notJWT(let why): "not a JWT (\(why))"
        case .problem(let reason): reason
        }
    }
}
