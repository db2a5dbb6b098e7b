import Courier
import Foundation
import Testing

@Suite struct RedactionTests {
    static let canary = "canary-7f3a9c1e5b"

    @Test func errorsNeverShowTheTokenEvenWhenTheServerEchoesIt() async throws {
        // An echo server puts the request's headers in its error body.
        let mock = MockTransport { request in
            .text("denied: " + request.headers.map { "\($0.name)=\($0.value)" }.joined(separator: ","), status: 403)
        }
        var config = APIClient.Configuration()
        config.authenticator = TokenAuthenticator(token: Self.canary) { "other" }
        config.defaultHeaders = ["Cookie": "session=\(Self.canary)-cookie"]
        let error = await #expect(throws: APIError.self) { try await makeClient(mock, configuration: config).send(Get<String>(path: "/x")) }
        let failure = try #require(error)
        #expect(failure.kind == .forbidden)
        for text in [String(describing: failure), String(reflecting: failure), "\(failure)", failure.bodyExcerpt() ?? ""] {
            #expect(!text.contains(Self.canary), "\(text)")
        }
        #expect(String(describing: failure).contains("<redacted>"))
        // The raw body stays available to code that asks for it.
        #expect(String(decoding: failure.body ?? Data(), as: UTF8.self).contains(Self.canary))
    }

    @Test func recordedRequestsRedactCredentialsAndSensitiveBodies() async throws {
        let mock = MockTransport(fallback: .status(204))
        var config = APIClient.Configuration()
        config.authenticator = TokenAuthenticator(token: Self.canary) { "other" }
        let endpoint = Get<EmptyResponse>(path: "/login", method: .post, headers: ["Cookie": "a=\(Self.canary)", "X-Trace": "42"],
                                          body: .sensitive(.json(["password": Self.canary])))
        _ = try await makeClient(mock, configuration: config).send(endpoint)
        let request = try #require(mock.requests.first)
        let shown = [String(describing: request), String(reflecting: request), "\(mock.requests)"]
        for text in shown { #expect(!text.contains(Self.canary), "\(text)") }
        #expect(shown[0].contains("X-Trace: 42"))
        #expect(shown[0].contains("Authorization: <redacted>"))
        #expect(shown[0].contains("<sensitive body"))
    }

    /// Issue 21: an error body that echoes the token re-encoded (.NET's JSON, werkzeug's URL)
    /// is redacted by the same masking as Courier's own outputs.
    @Test func errorsNeverShowTheTokenEncodedTheWayTheServerEchoesIt() async throws {
        let token = "tok&en+/x=1 abc"
        let mock = MockTransport { _ in
            .text(#"{"auth":"Bearer tok\u0026en\u002B/x=1 abc","url":"/x?t=tok%26en%2B/x%3D1%20abc"}"#, status: 403)
        }
        var config = APIClient.Configuration()
        config.authenticator = TokenAuthenticator(token: token) { "other" }
        let error = await #expect(throws: APIError.self) { try await makeClient(mock, configuration: config).send(Get<String>(path: "/x")) }
        let failure = try #require(error)
        for text in [String(describing: failure), failure.bodyExcerpt() ?? ""] {
            for leaked in ["tok\\u0026en", "tok%26en", "abc"] { #expect(!text.contains(leaked), "\(text)") }
        }
        #expect(failure.bodyExcerpt()?.contains(#""auth":"<redacted>""#) == true, "\(failure.bodyExcerpt() ?? "")")
    }

    @Test func userAndPasswordInTheURLAreRedacted() async throws {
        let mock = MockTransport(fallback: .status(500))
        let error = await #expect(throws: APIError.self) {
            try await makeClient(mock, base: "https://user:\(Self.canary)@api.test").send(Get<String>(path: "/x"))
        }
        let text = String(describing: try #require(error))
        #expect(!text.contains(Self.canary))
        #expect(text.contains("https://<redacted>@api.test/x"))
    }
}

@Suite struct HTTPRequestDescriptionTests {
    @Test func aTransportRequestPrintsWithoutCredentialsOrBody() {
        let canary = RedactionTests.canary
        let request = HTTPRequest(method: "POST", url: "https://me:\(canary)@api.test/login",
                                  headers: ["Authorization": "Bearer \(canary)", "cookie": "s=\(canary)", "X-Trace": "7"],
                                  body: .bytes(Array("password=\(canary)".utf8)))
        var dumped = ""
        dump(request, to: &dumped)
        for text in [String(describing: request), String(reflecting: request), "\(request)", dumped] {
            #expect(!text.contains(canary), "\(text)")
        }
        #expect(String(describing: request) == """
            POST https://<redacted>@api.test/login
            Authorization: <redacted>
            cookie: <redacted>
            X-Trace: 7
            <body, \("password=\(canary)".utf8.count) bytes>
            """)
    }

    @Test func anAuthenticatorSeesARedactedRequestWhenItLogsOne() async throws {
        let logged = Collector<String>()
        struct Logging: Authenticator {
            let logged: Collector<String>
            func authenticate(_ request: HTTPRequest) async throws -> HTTPRequest {
                var request = request
                request.headers.set(name: "Authorization", value: "Bearer \(RedactionTests.canary)")
                logged.append("\(request)")
                return request
            }
            func refresh(after request: HTTPRequest, response: HTTPResponse) async throws -> Bool { false }
        }
        var config = APIClient.Configuration()
        config.authenticator = Logging(logged: logged)
        _ = try await makeClient(MockTransport(fallback: .text("ok")), configuration: config).send(Get<String>(path: "/x"))
        #expect(logged.all.count == 1)
        #expect(logged.all.allSatisfy { !$0.contains(RedactionTests.canary) && $0.contains("Authorization: <redacted>") })
    }
}
