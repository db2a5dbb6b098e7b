@testable import CourierEngine
import CourierHTTP
import CourierJSON
import CourierResults
import Synchronization
import Testing

/// The auth flow of one workflow run: which requests need it, the login, and its failure.
@Suite struct LoginFlowTests {
    let yaml = """
        auth:
          login:
            - { name: log in, request: { method: POST, url: "http://api/login" }, expect: { status: 200 }, capture: { token: $.token } }
          apply: { headers: { Authorization: "Bearer {{ token }}" } }
        steps:
          - { name: me, request: { url: "http://api/me" } }
          - { name: public, request: { url: "http://api/public", auth: none } }
        """

    func login(_ parts: RunParts) throws -> LoginFlow {
        try #require(LoginFlow(flow: #require(parts.workflow.auth), log: parts.runner.log, workflow: parts.workflow))
    }

    @Test func onlyRequestsWithoutAnAuthOfTheirOwnAndOutsideTheLoginNeedIt() throws {
        let parts = try RunParts(yaml)
        let flow = try login(parts)
        guard case .request(let me) = parts.workflow.steps[0].action, case .request(let open) = parts.workflow.steps[1].action else {
            Issue.record("not request steps")
            return
        }
        #expect(flow.need(for: me, context: parts.top, steps: parts.steps) != nil)
        #expect(flow.need(for: open, context: parts.top, steps: parts.steps) == nil)
        var inLogin = parts.top
        inLogin.inLogin = true
        #expect(flow.need(for: me, context: inLogin, steps: parts.steps) == nil)
    }

    @Test func aPassedLoginPutsItsCapturesInTheScopeAndIsItsOwnEntry() async throws {
        let parts = try RunParts(yaml, transport: FakeTransport { _ in .success(jsonResponse(200, #"{"token":"tok-123456"}"#)) })
        let flow = try login(parts)
        #expect(await flow.logIn(steps: parts.steps) == nil)
        #expect(parts.state.scope["token"] == .string("tok-123456"))
        #expect(parts.results.map(\.name) == ["auth › log in"])
        #expect(!flow.hasFailed)
        // A second login is numbered.
        _ = await flow.logIn(steps: parts.steps)
        #expect(parts.results.map(\.name) == ["auth › log in", "auth › log in (2)"])
    }

    @Test func aFailedLoginIsRememberedAndNamesTheEntryThatFailed() async throws {
        let parts = try RunParts(yaml, transport: FakeTransport { _ in .success(jsonResponse(401, "{}")) })
        let flow = try login(parts)
        let error = try #require(await flow.logIn(steps: parts.steps))
        #expect(error.type == "login_failed")
        #expect(error.message.hasPrefix("login failed: 'auth › log in' failed: "))
        #expect(flow.hasFailed)
        guard case .request(let me) = parts.workflow.steps[0].action else { return }
        #expect(flow.need(for: me, context: parts.top, steps: parts.steps)?.failure?.type == "login_failed")
    }

    @Test func theWholeFlowLogsInOnceBeforeTheFirstRequestThatNeedsIt() async throws {
        let transport = FakeTransport { request in
            .success(jsonResponse(200, request.url.hasSuffix("/login") ? #"{"token":"tok-123456"}"# : "{}"))
        }
        let parts = try RunParts(yaml, transport: transport)
        _ = await parts.runSteps()
        #expect(transport.requests.map(\.url) == ["http://api/login", "http://api/me", "http://api/public"])
        #expect(transport.requests[1].headers["Authorization"] == "Bearer tok-123456")
        #expect(transport.requests[2].headers["Authorization"] == nil)
    }
}
