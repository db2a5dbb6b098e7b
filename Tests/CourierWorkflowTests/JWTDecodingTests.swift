import CourierDiagnostics
@testable import CourierWorkflow
import Testing

/// `jwt`'s operand is checked when the file loads, each problem at its file:line:col.
@Suite struct JWTDecodingTests {
    private func decoded(_ predicate: String) -> Result<Workflow, DiagnosticList> {
        let yaml = "steps:\n  - request: { url: http://h/ }\n    expect:\n      json:\n        $.a: \(predicate)\n"
        return decodeWorkflow(text: yaml, path: "t.yaml", sources: SourceStore())
    }

    private func problems(_ predicate: String) -> [String] {
        switch decoded(predicate) {
        case .success: return []
        case .failure(let list): return list.diagnostics.map(\.description)
        }
    }

    @Test func wellFormedOperandsDecode() throws {
        #expect(problems("{ jwt: { key: k } }") == [])
        #expect(problems("{ jwt: { jwks: keys.json, algorithms: [RS256, ES256] } }") == [])
        #expect(problems("{ jwt: { jwks: { keys: [] } } }") == [])
        #expect(problems("{ jwt: { key: \"{{ x }}\", algorithms: [HS256, HS512], audience: a, issuer: \"{{ x }}\", leeway: 30s } }") == [])
        #expect(problems("{ jwt: { key: k, algorithms: HS384, claims: { sub: { starts_with: u- }, n: 3, o: { a: 1 } } } }") == [])
        let workflow = try decoded("{ jwt: { key: k, algorithms: [hs256], leeway: 1.5s, claims: { sub: user-1, n: { gt: 2 } } } }").get()
        guard case .matcher(.predicates(let predicates, _)) = workflow.steps[0].expect.items[0].check,
              case .jwt(let jwt) = predicates[0].operand else { Issue.record("not a jwt predicate"); return }
        #expect(jwt.algorithms == [.hs256])
        #expect(jwt.leeway == .milliseconds(1500))
        #expect(jwt.claims.map(\.name) == ["sub", "n"])
        if case .equals = jwt.claims[0].matcher {} else { Issue.record("sub is a plain value") }
        if case .predicates = jwt.claims[1].matcher {} else { Issue.record("n is a predicate map") }
    }

    @Test(arguments: [
        ("{ jwt: { audience: a } }", "t.yaml:5:21: error: 'jwt' needs 'key' (the shared secret of HS256/384/512, e.g. key: \"{{ jwt_secret }}\") or 'jwks' (a JWKS file for RS256/ES256)"),
        ("{ jwt: { key: k, audiance: a } }", "t.yaml:5:31: error: unknown key 'audiance' in 'jwt'; did you mean 'audience'?"),
        ("{ jwt: { key: k, algorithms: [HS265] } }", "t.yaml:5:44: error: unknown algorithm 'HS265'; did you mean 'HS256'?"),
        ("{ jwt: { key: k, algorithms: [none] } }", "t.yaml:5:44: error: algorithm 'none' is never allowed: an unsigned token proves nothing"),
        ("{ jwt: { key: k, algorithms: [PS256] } }", "t.yaml:5:44: error: unknown algorithm 'PS256'; PS256 is not supported yet, Courier verifies HS256, HS384, HS512, RS256, ES256"),
        ("{ jwt: { jwks: [k] } }", "t.yaml:5:29: error: 'jwks' of 'jwt' needs a JWKS file's path or the JWKS itself, found a sequence"),
        ("{ jwt: { key: k, algorithms: [] } }", "t.yaml:5:43: error: 'algorithms' needs at least one algorithm, like [HS256]"),
        ("{ jwt: { key: k, leeway: soon } }", "t.yaml:5:39: error: invalid duration 'soon' for 'leeway'; write e.g. 250ms, 2s, 1.5s, 1m or a number of seconds"),
        ("{ jwt: { key: k, claims: [sub] } }", "t.yaml:5:39: error: expected a mapping for 'claims' of 'jwt', found a sequence"),
        ("{ jwt: { key: k, claims: { sub: { startswith: u } } } }", "t.yaml:5:48: error: unknown predicate 'startswith'; did you mean 'starts_with'?"),
        ("{ jwt: { key: [k] } }", "t.yaml:5:28: error: 'key' of 'jwt' needs the shared secret as text, found a sequence"),
        ("{ jwt: { key: '' } }", "t.yaml:5:28: error: 'key' of 'jwt' needs the shared secret as text, found an empty string"),
        ("{ jwt: secret }", "t.yaml:5:21: error: expected a mapping for 'jwt', found a string"),
        ("{ jtw: { key: k } }", "t.yaml:5:16: error: unknown predicate 'jtw'; did you mean 'jwt'?"),
    ])
    func badOperandsAreLoadErrors(predicate: String, message: String) {
        #expect(problems(predicate) == [message])
    }

    /// A template in the key, the audience or a claim is name-checked like any other.
    @Test func templatesAreNameChecked() throws {
        let yaml = "secrets: { jwt_secret: k-secret }\nvars: { user: u }\nsteps:\n  - request: { url: http://h/ }\n    expect:\n      json:\n"
            + "        $.a: { jwt: { key: \"{{ jwt_secert }}\", audience: \"{{ audiense }}\", claims: { sub: \"{{ usr }}\" } } }\n"
        let workflow = try decodeWorkflow(text: yaml, path: "t.yaml", sources: SourceStore()).get()
        let found = VariableChecker.check(workflow, externalNames: [], commandLineKnown: true).map(\.description)
        #expect(found.contains { $0.contains("unknown variable 'jwt_secert'; did you mean 'jwt_secret'?") }, "\(found)")
        #expect(found.contains { $0.contains("unknown variable 'usr'; did you mean 'user'?") }, "\(found)")
        #expect(found.contains { $0.contains("'audiense'") }, "\(found)")
    }

    /// An expected object with a `jwt` key is a predicate map now; `eq` still compares it.
    @Test func jwtIsAReservedName() {
        #expect(problems("{ jwt: { key: k } }") == [])
        #expect(problems("{ eq: { jwt: { key: k } } }") == [])
    }
}
