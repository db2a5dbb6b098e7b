import CourierJSON
import Foundation
import Testing

/// The `jwt` predicate against tokens testserver.py signs with Python's hmac (`/jwt/<kind>`):
/// valid HS256/384/512 tokens pass; a tampered payload, a wrong key, an `exp` in the past and
/// a wrong `aud` each fail with their own reason in the console, JUnit and the JSON report;
/// a token checked with a secret key is named, never shown.
@Suite struct JWTTests {
    private static let secret = "courier-jwt-test-secret-0123456789"

    @Test("jwt: valid HS tokens pass; tampered, wrong key, expired and wrong audience fail each with its reason")
    func tokensFromTheServer() async throws {
        let http = try await TransportFixtures.shared.server(.http)
        func step(_ name: String, _ path: String, key: String = "{{ jwt_secret }}", extra: String = "") -> String {
            """
              - name: \(name)
                continue_on_failure: true
                request: { url: "\(http.baseURL)/jwt/\(path)" }
                expect:
                  json:
                    $.access_token:
                      jwt:
                        key: "\(key)"
                        audience: my-api
                        issuer: https://auth.example
                        leeway: 5s
                        claims: { sub: { starts_with: user- }, scope: { contains: read } }\(extra)
            """
        }
        let yaml = """
            name: tokens
            vars: { jwt_secret: \(Self.secret) }
            steps:
            \(step("hs256", "valid?alg=HS256", extra: "\n            algorithms: [HS256]"))
            \(step("hs384", "valid?alg=HS384"))
            \(step("hs512", "valid?alg=HS512"))
            \(step("tampered", "tampered"))
            \(step("wrong key", "valid", key: "not-the-key"))
            \(step("expired", "expired"))
            \(step("wrong audience", "wrong_audience"))
            \(step("not allowed", "valid?alg=HS512", extra: "\n            algorithms: [HS256]"))
            """
        let run = try await TransportRun.run(yaml, arguments: ["--json", "report.json", "--html", "report.html"])
        #expect(run.result.status == 1, run.result.context)
        let out = run.result.stdout
        for name in ["hs256", "hs384", "hs512"] {
            #expect(out.line(containing: "PASS", name) != nil, "\(name)\n\(run.result.context)")
        }
        let reasons = [
            "tampered": "$.access_token: signature does not verify with the key (HS256)",
            "wrong key": "$.access_token: signature does not verify with the key (HS256)",
            "expired": "$.access_token: expired at ",
            "wrong audience": #"$.access_token: audience "other-api" does not contain "my-api""#,
            "not allowed": "$.access_token: algorithm HS512 is not allowed (allowed: HS256)",
        ]
        for (name, reason) in reasons {
            #expect(out.line(containing: "FAIL", name) != nil, "\(name)\n\(run.result.context)")
            #expect(out.contains(reason), "\(reason)\n\(run.result.context)")
            let failure = try #require(run.junit?.testCase(name)?.failure, "\(name)\n\(run.result.context)")
            #expect(failure.text.contains(reason), "\(failure.text)")
            #expect(failure.text.contains("a valid JWT"), "\(failure.text)")
        }
        #expect(out.contains(#/expired at \d{4}-\d\d-\d\dT[0-9:.]+Z \(now \d{4}-\d\d-\d\dT[0-9:.]+Z\) with a leeway of 5s/#), run.result.context)

        let report = try JSONReportFile.load(run.workspace.url.appendingPathComponent("report.json"))
        let text = report.text
        #expect(text.contains("does not contain \\\"my-api\\\""), "\(text.prefix(2000))")
        #expect(text.contains("\"a valid JWT\""), "\(text.prefix(2000))")
        let html = try run.workspace.read("report.html")
        #expect(html.contains("signature does not verify with the key"))
        #expect(html.contains("a valid JWT"))
    }

    @Test("jwt with a secret key: claim values are never shown, only claim names; the token is masked")
    func secretKeyHidesClaims() async throws {
        let http = try await TransportFixtures.shared.server(.http)
        let run = try await TransportRun.run("""
            name: secret tokens
            secrets: { jwt_secret: \(Self.secret) }
            steps:
              - name: claims hidden
                continue_on_failure: true
                request: { url: "\(http.baseURL)/jwt/valid" }
                expect:
                  json:
                    $.access_token:
                      jwt: { key: "{{ jwt_secret }}", claims: { sub: { starts_with: admin- } } }
              - name: audience hidden
                request: { url: "\(http.baseURL)/jwt/wrong_audience" }
                expect:
                  json:
                    $.access_token: { jwt: { key: "{{ jwt_secret }}", audience: my-api } }
            """, arguments: ["--json", "report.json"])
        #expect(run.result.status == 1, run.result.context)
        let out = run.result.stdout
        #expect(out.contains("$.access_token claim 'sub': does not match (the token is a secret: its claim values are not shown)"), run.result.context)
        #expect(out.contains("$.access_token: audience 'aud' does not contain \"my-api\""), run.result.context)
        let everything = out + run.result.stderr + (try run.workspace.read("report.json")) + (try run.workspace.read("junit.xml"))
        for shown in ["user-42", "other-api", "eyJ"] {
            #expect(!everything.contains(shown), "\(shown) is shown\n\(run.result.context)")
        }
    }

    @Test("jwt RS256 and ES256: tokens signed with openssl verify against the server's JWKS (libcrypto); tampered and wrong audience fail")
    func publicKeyTokens() async throws {
        let http = try await TransportFixtures.shared.server(.http)
        func step(_ name: String, _ path: String, _ algorithms: String) -> String {
            """
              - name: \(name)
                continue_on_failure: true
                request: { url: "\(http.baseURL)/jwt/\(path)" }
                expect:
                  json:
                    $.access_token: { jwt: { jwks: "{{ steps.keys.json }}", algorithms: \(algorithms), audience: my-api, claims: { sub: user-42 } } }
            """
        }
        let run = try await TransportRun.run("""
            name: public keys
            steps:
              - name: keys
                id: keys
                request: { url: "\(http.baseURL)/jwks" }
            \(step("rs256", "valid?alg=RS256", "[RS256]"))
            \(step("es256", "valid?alg=ES256", "[ES256]"))
            \(step("rs256 tampered", "tampered?alg=RS256", "[RS256, ES256]"))
            \(step("es256 tampered", "tampered?alg=ES256", "[RS256, ES256]"))
            \(step("es256 audience", "wrong_audience?alg=ES256", "[ES256]"))
            \(step("rs256 not allowed", "valid?alg=RS256", "[ES256]"))
            """)
        #expect(run.result.status == 1, run.result.context)
        let out = run.result.stdout
        for name in ["keys", "rs256", "es256"] {
            #expect(out.line(containing: "PASS", name) != nil, "\(name)\n\(run.result.context)")
        }
        #expect(out.contains("$.access_token: signature does not verify with the key (RS256)"), run.result.context)
        #expect(out.contains("$.access_token: signature does not verify with the key (ES256)"), run.result.context)
        #expect(out.contains(#"$.access_token: audience "other-api" does not contain "my-api""#), run.result.context)
        #expect(out.contains("$.access_token: algorithm RS256 is not allowed (allowed: ES256)"), run.result.context)
    }
}
