@testable import CourierEngine
import CourierHTTP
import CourierJSON
import CourierWorkflow
import Foundation
import Testing

/// Every secret value the engine must know to mask (issue 9): leaves of structured
/// secrets and captures, what libcurl really sent, URL credentials, cookies set.
@Suite struct SecretSourcesTests {
    @Test func everyLeafOfAStructuredSecretIsASecret() async throws {
        let outcome = try await run("""
            secrets:
              creds: { key: "k3y-value-0001", nested: { deep: [ "d33p-value-0002", 12345 ] } }
              toks: [ "t0ken-one-0003", "t0ken-two-0004" ]
            steps:
              - request: { url: "http://h/x?k={{ creds.key }}&t={{ toks[0] }}" }
            """)
        let secrets = Set(outcome.secrets)
        for leaf in ["k3y-value-0001", "d33p-value-0002", "12345", "t0ken-one-0003", "t0ken-two-0004"] {
            #expect(secrets.contains(leaf), "leaf '\(leaf)' is not a secret")
        }
        #expect(secrets.contains(#"["t0ken-one-0003","t0ken-two-0004"]"#))
        #expect(secrets.contains(JSONValue.array([.string("t0ken-one-0003"), .string("t0ken-two-0004")]).serialized(pretty: true)))
    }

    @Test func forEachItemsOfASecretListAreSecrets() async throws {
        let outcome = try await run("""
            secrets:
              toks: [ "each-item-0001", "each-item-0002" ]
            steps:
              - for_each: "{{ toks }}"
                request: { url: "http://h/x?t={{ item }}" }
            """)
        #expect(outcome.requests.map(\.url) == ["http://h/x?t=each-item-0001", "http://h/x?t=each-item-0002"])
        #expect(Set(outcome.secrets).isSuperset(of: ["each-item-0001", "each-item-0002"]))
    }

    @Test func aSecretCaptureOfSeveralNodesMakesEveryItemASecret() async throws {
        let body = #"{"items":[{"t":"cap-tok-0001"},{"t":"cap-tok-0002"}],"meta":{"k":"cap-obj-0003"}}"#
        let outcome = try await runStep("""
            steps:
              - request: { url: http://h/x }
                capture:
                  toks: { json: "$.items[*].t", secret: true }
                  meta: { json: "$.meta", secret: true }
            """, response: jsonResponse(200, body))
        #expect(outcome.steps.first?.outcome.isPassed == true)
        #expect(Set(outcome.secrets).isSuperset(of: ["cap-tok-0001", "cap-tok-0002", "cap-obj-0003"]))
    }

    @Test func headersLibcurlSentAndCookiesSetOnEveryHopAreSecrets() async throws {
        var response = jsonResponse(200, "{}", headers: ["Set-Cookie": "final=set-final-0001; Path=/"])
        response.redirects = [HTTPRedirectHop(url: "http://h/a", status: 302,
                                              headers: ["Location": "/b", "Set-Cookie": "hop=set-hop-0002; HttpOnly"])]
        response.sentRequests = [
            HTTPSentRequest(requestLine: "CONNECT h:443 HTTP/1.1",
                            headers: ["Proxy-Authorization": "Basic " + Data("pu:proxy-pw-0003".utf8).base64EncodedString()]),
            HTTPSentRequest(requestLine: "GET /a HTTP/1.1",
                            headers: ["Authorization": "Basic " + Data("bob:basic-pw-0004".utf8).base64EncodedString(),
                                      "Cookie": "jar=jar-cookie-0005; other=jar-cookie-0006"]),
        ]
        let outcome = try await runStep("steps:\n  - request: { url: http://h/a }\n", response: response)
        let secrets = Set(outcome.secrets)
        for value in ["set-final-0001", "final=set-final-0001", "set-hop-0002", "hop=set-hop-0002", "proxy-pw-0003",
                      "pu:proxy-pw-0003", "basic-pw-0004", "bob:basic-pw-0004", "jar-cookie-0005", "jar-cookie-0006"] {
            #expect(secrets.contains(value), "'\(value)' is not a secret")
        }
    }

    @Test func aFailedTransferStillRecordsWhatWasSent() async throws {
        let sent = HTTPSentRequest(requestLine: "GET / HTTP/1.1", headers: ["Cookie": "s=failed-cookie-0001"])
        let transport = FakeTransport { _ in .failure(HTTPError(kind: .timeout, message: "timed out", sentRequests: [sent])) }
        let outcome = try await run("steps:\n  - request: { url: http://h/a }\n", transport: transport)
        #expect(outcome.secrets.contains("failed-cookie-0001"))
    }

    @Test func passwordsInRequestAndProxyURLsAreSecrets() async throws {
        let outcome = try await run("""
            steps:
              - request: { url: "http://bob:url-pw%21-0001@h/x", proxy: "http://px:proxy-url-pw-0002@proxy:3128" }
            """)
        let secrets = Set(outcome.secrets)
        for value in ["url-pw%21-0001", "url-pw!-0001", "bob:url-pw!-0001", "proxy-url-pw-0002", "px:proxy-url-pw-0002"] {
            #expect(secrets.contains(value), "'\(value)' is not a secret")
        }
        #expect(!secrets.contains("bob"), "a user name alone is not a secret")
    }

    @Test func aFilterErrorWhileComputingASecretDoesNotQuoteIt() async throws {
        let outcome = try await run("""
            vars:
              plain: "{{ 'not-a-number' | int }}"
            steps:
              - request: { url: http://h/x }
            """)
        #expect(outcome.steps.first?.outcome.error?.message == "filter 'int': 'not-a-number' is not a number")

        for (expression, message) in [("'n0tANumb3rS3cret' | int", "filter 'int': the value is not a number"),
                                      ("'n0tANumb3rS3cret' | float", "filter 'float': the value is not a number"),
                                      ("'n0t base64!' | base64_decode", "filter 'base64_decode': the value is not base64 of UTF-8 text")] {
            let secret = try await run("""
                secrets:
                  pin: "{{ \(expression) }}"
                steps:
                  - request: { url: http://h/x }
                """)
            let error = try #require(secret.steps.first?.outcome.error)
            #expect(error.message == message)
            // The quoted text the secret is computed from is registered too.
            #expect(secret.secrets.contains(where: { $0.hasPrefix("n0t") }))
            #expect(secret.requests.isEmpty)
        }
    }

    @Test func aSecretCaptureDefaultIsComputedWithoutQuotingValues() async throws {
        let outcome = try await runStep("""
            steps:
              - request: { url: http://h/x }
                capture:
                  pin: { json: $.missing, default: "{{ 'n0tANumb3r-0001' | int }}", secret: true }
            """, response: jsonResponse(200, "{}"))
        let message = outcome.steps.first?.outcome.failures.first?.message ?? ""
        #expect(message == "capture 'pin': filter 'int': the value is not a number")
    }

    @Test func aTemplatedSecretShorterThan4CharactersFailsBeforeAnythingIsSent() async throws {
        let outcome = try await run("""
            secrets:
              pin: "{{ 'abc' | upper }}"
            steps:
              - request: { url: http://h/x }
            """)
        #expect(outcome.steps.first?.outcome.error?.message == "secret 'pin' is too short to mask safely (3 characters; at least 4)")
        #expect(outcome.requests.isEmpty)

        var settings = RunSettings()
        settings.commandLineVariables = [("pin", .string("12"))]
        let overridden = try await run("""
            secrets:
              pin: "long-enough-0001"
            steps:
              - request: { url: http://h/x }
            """, settings: settings)
        #expect(overridden.steps.first?.outcome.error?.message == "secret 'pin' is too short to mask safely (2 characters; at least 4)")
        #expect(overridden.requests.isEmpty)
    }

    @Test func aShortSecretCaptureIsMaskedWithAWarning() async throws {
        let outcome = try await runStep("""
            steps:
              - request: { url: http://h/x }
                capture:
                  code: { json: $.code, secret: true }
                  long: { json: $.long, secret: true }
            """, response: jsonResponse(200, #"{"code":"ab","long":"long-enough"}"#))
        #expect(outcome.secrets.contains("ab"))
        let warnings = outcome.events.compactMap { event -> String? in
            if case .warning(_, let message) = event { message } else { nil }
        }
        #expect(warnings == ["captured secret 'code' is shorter than 4 characters: it is masked, but short values may mask unrelated text"])
    }
}

/// The HTTP layer's reading of `user:password@` (engine tests link CourierHTTP).
@Suite struct URLCredentialsTests {
    @Test(arguments: [
        ("http://bob:pw-1234@h:80/x?q=1", "bob", "pw-1234", "http://bob:***@h:80/x?q=1"),
        ("bob:p%40ss@proxy:3128", "bob", "p%40ss", "bob:***@proxy:3128"),
        ("http://user@h/", "user", nil, "http://user@h/"),
        ("http://h/path@not-userinfo", nil, nil, "http://h/path@not-userinfo"),
        ("https://a:b:c@h/", "a", "b:c", "https://a:***@h/"),
    ] as [(String, String?, String?, String)])
    func userinfo(url: String, user: String?, password: String?, redacted: String) {
        let credentials = URLCredentials(url: url)
        #expect(credentials?.user == user)
        #expect(credentials?.password == password)
        #expect(URLCredentials.redacting(url) == redacted)
    }

    @Test func sensitiveTextsIncludeTheDecodedForms() {
        let texts = URLCredentials(url: "http://b%6Fb:p%40ss-word@h/")?.sensitiveTexts ?? []
        #expect(texts == ["p%40ss-word", "b%6Fb:p%40ss-word", "p@ss-word", "bob:p@ss-word"])
    }
}
