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
