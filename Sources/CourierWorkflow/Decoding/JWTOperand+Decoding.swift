import CourierDiagnostics

extension WorkflowDecoder {
    private static let jwtKeys = ["key", "jwks", "algorithms", "audience", "issuer", "leeway", "claims"]

    /// The `jwt` predicate's mapping (``JWTOperand``), every problem at its own place.
    func jwtOperand(_ node: YAMLNode, _ context: MatcherContext) -> JWTOperand? {
        guard let found = fields(node, in: "'jwt'", allowed: Self.jwtKeys) else { return nil }
        var fits = true
        guard found.has("key") || found.has("jwks") else {
            error("'jwt' needs 'key' (the shared secret of HS256/384/512, e.g. key: \"{{ jwt_secret }}\") or 'jwks' (a JWKS file for RS256/ES256)", at: node.range)
            return nil
        }
        let key = found["key"].map(templateValue)
        if let keyNode = found["key"], keyNode.scalar.map({ $0.value != .null && !$0.text.isEmpty }) != true {
            error("'key' of 'jwt' needs the shared secret as text, found \(keyNode.scalar?.text.isEmpty == true ? "an empty string" : keyNode.kindDescription)", at: keyNode.range)
            fits = false
        }
        let jwks = found["jwks"].map(templateValue)
        if let jwksNode = found["jwks"], jwksNode.scalar.map({ $0.value != .null && !$0.text.isEmpty }) != true, jwksNode.mapping == nil {
            error("'jwks' of 'jwt' needs a JWKS file's path or the JWKS itself, found \(jwksNode.kindDescription)", at: jwksNode.range)
            fits = false
        }
        let algorithms = found["algorithms"].map { jwtAlgorithms($0) } ?? []
        if found.has("algorithms"), algorithms.isEmpty { fits = false }
        let audience = found["audience"].map(textOperand)
        let issuer = found["issuer"].map(textOperand)
        var leeway = Duration.zero
        if let leewayNode = found["leeway"] {
            if let value = duration(leewayNode, for: "leeway") { leeway = value } else { fits = false }
        }
        var claims: [JWTOperand.Claim] = []
        if let claimsNode = found["claims"] {
            if let entries = namedEntries(claimsNode, for: "'claims' of 'jwt'") {
                if entries.isEmpty { error("'claims' of 'jwt' is empty; name claims like { sub: user-1 }", at: claimsNode.range) }
                for entry in entries {
                    // A claim's mapping is an object to compare unless it names predicates, as under `json:`.
                    if let matcher = matcher(entry.value, MatcherContext(allowsObjectEquality: true)) {
                        claims.append(JWTOperand.Claim(name: entry.name, matcher: matcher))
                    } else { fits = false }
                }
            } else { fits = false }
        }
        guard fits else { return nil }
        return JWTOperand(key: key, jwks: jwks, algorithms: algorithms, audience: audience, issuer: issuer, leeway: leeway,
                          claims: claims, range: node.range)
    }

    /// `algorithms: [HS256, HS512]`: names of RFC 7518; `none` and unknown names are errors.
    private func jwtAlgorithms(_ node: YAMLNode) -> [JWTAlgorithm] {
        let items: [YAMLNode]
        switch node.kind {
        case .sequence(let list): items = list
        case .scalar: items = [node]
        default:
            error("expected a list of algorithms for 'algorithms', like [HS256], found \(node.kindDescription)", at: node.range)
            return []
        }
        guard !items.isEmpty else {
            error("'algorithms' needs at least one algorithm, like [HS256]", at: node.range)
            return []
        }
        var algorithms: [JWTAlgorithm] = []
        for item in items {
            guard let name = string(item, for: "algorithms")?.value else { return [] }
            if let algorithm = JWTAlgorithm(rawValue: name) ?? JWTAlgorithm(rawValue: name.uppercased()) {
                algorithms.append(algorithm)
            } else if name.lowercased() == "none" {
                error("algorithm 'none' is never allowed: an unsigned token proves nothing", at: item.range)
                return []
            } else {
                let known = JWTAlgorithm.allCases.map(\.name)
                let hint = JWTAlgorithm.unsupported.contains(name.uppercased()) ? "; \(name) is not supported yet, Courier verifies \(known.joined(separator: ", "))"
                    : suggestion(for: name, among: known).map { "; did you mean '\($0)'?" } ?? "; Courier verifies \(known.joined(separator: ", "))"
                error("unknown algorithm '\(name)'\(hint)", at: item.range)
                return []
            }
        }
        return algorithms
    }

    /// `audience`/`issuer`: text, or a template that gives it.
    private func textOperand(_ node: YAMLNode) -> TemplateValue {
        templateValue(node)
    }
}
