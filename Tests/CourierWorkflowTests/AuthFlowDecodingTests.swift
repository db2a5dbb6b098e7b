@testable import CourierWorkflow
import Testing

/// The `auth:` block's `apply` (headers and query) and `defaults.auth` as decoded (spec section 9).
@Suite struct AuthFlowDecodingTests {
    @Test("apply takes headers and query; refresh_on defaults to [401]")
    func applyHeadersAndQuery() throws {
        let workflow = try decode("""
            auth:
              login:
                - request: { method: POST, url: "http://h/token" }
                  capture: { t: $.t }
              apply:
                headers: { Authorization: "Bearer {{ t }}" }
                query: { access_token: "{{ t }}" }
            steps:
              - request: { url: "http://h/x" }
            """).get()
        let flow = try #require(workflow.auth)
        #expect(flow.applyHeaders.map(\.literalName) == ["Authorization"])
        #expect(flow.applyQuery.map { $0.name.literalText } == ["access_token"])
        #expect(flow.refreshOn == [401])
    }

    @Test("apply with neither headers nor query is an error that says what it needs; unknown keys are errors")
    func applyNeedsSomething() {
        let empty = messages("""
            auth:
              login: [{ request: { url: "http://h/token" } }]
              apply: {}
            steps: [{ request: { url: "http://h/x" } }]
            """)
        #expect(empty.contains { $0.contains("'auth.apply' needs 'headers' or 'query'") }, "\(empty)")
        let unknown = messages("""
            auth:
              login: [{ request: { url: "http://h/token" } }]
              apply: { header: { A: b } }
            steps: [{ request: { url: "http://h/x" } }]
            """)
        #expect(unknown.contains { $0.contains("'header'") && $0.contains("did you mean 'headers'") }, "\(unknown)")
    }

    @Test("digest takes a username and a password, in a request and in defaults")
    func digestAuth() throws {
        let workflow = try decode("""
            defaults: { auth: { digest: { username: "{{ user }}", password: "{{ pw }}" } } }
            steps: [{ request: { url: "http://h/x", auth: { digest: { username: ada, password: s3cret } } } }]
            """).get()
        guard case .digest(let user, let password)? = workflow.defaults.auth,
              case .digest(let own, let ownPassword)? = workflow.steps.first?.request?.auth else {
            Issue.record("digest not decoded: \(String(describing: workflow.defaults.auth))")
            return
        }
        #expect(user.literalText == nil && password.literalText == nil)
        #expect(own.literalText == "ada" && ownPassword.literalText == "s3cret")
    }

    @Test("digest errors: a missing password, an unknown key with a suggestion, a second scheme, at file:line:col")
    func digestAuthErrors() {
        func errors(_ auth: String) -> [String] {
            guard case .failure(let list) = decode("steps:\n  - request:\n      url: http://h/x\n      auth: \(auth)\n") else { return [] }
            return list.diagnostics.map(\.description)
        }
        let missing = errors("{ digest: { username: ada } }")
        #expect(missing.contains { $0.hasPrefix("t.yaml:4:23: error: missing required key 'password' in digest auth") }, "\(missing)")
        let misspelt = errors("{ digest: { username: ada, pasword: x } }")
        #expect(misspelt.contains { $0.hasPrefix("t.yaml:4:40:") && $0.contains("'pasword'") && $0.contains("did you mean 'password'") },
                "\(misspelt)")
        let scheme = errors("{ digets: { username: ada, password: x } }")
        #expect(scheme.contains { $0.contains("'digets'") && $0.contains("did you mean 'digest'") }, "\(scheme)")
        let two = errors("{ basic: { username: a, password: b }, digest: { username: a, password: b } }")
        #expect(two.contains { $0.hasPrefix("t.yaml:4:52:") && $0.contains("'auth' takes one scheme; 'digest' conflicts with 'basic'") },
                "\(two)")
    }

    @Test("defaults takes auth like a request: basic, bearer, header, none")
    func defaultsAuth() throws {
        let basic = try decode("""
            defaults: { auth: { basic: { username: u, password: p } } }
            steps: [{ request: { url: "http://h/x" } }]
            """).get()
        guard case .basic(let user, let password)? = basic.defaults.auth else {
            Issue.record("defaults.auth not decoded: \(String(describing: basic.defaults.auth))")
            return
        }
        #expect(user.literalText == "u" && password.literalText == "p")
        let none = try decode("""
            defaults: { auth: none }
            steps: [{ request: { url: "http://h/x" } }]
            """).get()
        guard case .none? = none.defaults.auth else {
            Issue.record("defaults.auth: none not decoded")
            return
        }
    }
}
