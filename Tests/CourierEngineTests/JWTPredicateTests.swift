@testable import CourierEngine
@testable import CourierHTTP
import CourierJSON
import CourierResults
@testable import CourierWorkflow
import Foundation
import Testing

/// 2026-11-30T12:00:00Z, the clock every check here runs on.
private let now: Int64 = 1_796_040_000
private let pinned = BuiltinFunctions(clock: { Date(timeIntervalSince1970: Double(now)) })

/// A compact JWS signed with `key` (HS256 unless `alg` says otherwise).
func jwt(_ claims: String, key: String = "s3cret-key-123", alg: String = "HS256", header: String? = nil) -> String {
    let head = Base64URL.encode(Array((header ?? "{\"alg\":\"\(alg)\",\"typ\":\"JWT\"}").utf8))
    let body = Base64URL.encode(Array(claims.utf8))
    let hash: HMAC.Hash = alg == "HS384" ? .sha384 : alg == "HS512" ? .sha512 : .sha256
    return head + "." + body + "." + Base64URL.encode(HMAC.code(hash, key: Array(key.utf8), message: Array("\(head).\(body)".utf8)))
}

private let valid = "{\"sub\":\"user-42\",\"aud\":[\"my-api\",\"other\"],\"iss\":\"https://auth.example\",\"scope\":\"read write\",\"exp\":\(now + 600),\"nbf\":\(now - 60)}"

/// Runs one step whose response holds `token` as `$.t`, checked with `predicate`.
private func check(_ token: String, _ predicate: String, secrets: String = "") async throws -> EngineRun {
    let yaml = """
    \(secrets)
    steps:
      - name: s
        request: { url: "http://x/" }
        expect:
          json:
            $.t: { jwt: \(predicate) }
    """
    let body = String(decoding: try JSONSerialization.data(withJSONObject: ["t": token]), as: UTF8.self)
    return try await run(yaml, transport: FakeTransport(always: jsonResponse(200, body)), functions: pinned)
}

@Suite struct JWTPredicateTests {
    @Test(arguments: ["HS256", "HS384", "HS512"])
    func validTokenPasses(alg: String) async throws {
        let run = try await check(jwt(valid, alg: alg), """
            { key: s3cret-key-123, algorithms: [\(alg)], audience: my-api, issuer: "https://auth.example",
              claims: { sub: { starts_with: user- }, scope: { contains: read } } }
            """)
        #expect(run.steps.first?.outcome.isPassed == true, "\(run.failures())")
    }

    @Test(arguments: [
        // Each failure has its own reason.
        (jwt(valid, key: "another-key"), "{ key: s3cret-key-123 }", "json $.t: signature does not verify with the key (HS256)"),
        (jwt(valid).replacingOccurrences(of: ".eyJ", with: ".eyK"), "{ key: s3cret-key-123 }", "json $.t: not a JWT (the payload is not JSON: invalid UTF-8 byte 0xB3)"),
        (tampered(jwt(valid)), "{ key: s3cret-key-123 }", "json $.t: signature does not verify with the key (HS256)"),
        (jwt("{\"exp\":\(now - 10)}"), "{ key: s3cret-key-123 }",
         "json $.t: expired at 2026-11-30T11:59:50.000000Z (now 2026-11-30T12:00:00.000000Z)"),
        (jwt("{\"exp\":\(now - 40)}"), "{ key: s3cret-key-123, leeway: 30s }",
         "json $.t: expired at 2026-11-30T11:59:20.000000Z (now 2026-11-30T12:00:00.000000Z) with a leeway of 30s"),
        (jwt("{\"nbf\":\(now + 100)}"), "{ key: s3cret-key-123 }",
         "json $.t: not valid before 2026-11-30T12:01:40.000000Z (now 2026-11-30T12:00:00.000000Z)"),
        (jwt("{\"aud\":\"web\"}"), "{ key: s3cret-key-123, audience: my-api }", "json $.t: audience \"web\" does not contain \"my-api\""),
        (jwt("{}"), "{ key: s3cret-key-123, audience: my-api }", "json $.t: has no 'aud' claim, so its audience does not contain \"my-api\""),
        (jwt("{\"iss\":\"evil\"}"), "{ key: s3cret-key-123, issuer: good }", "json $.t: issuer \"evil\" is not \"good\""),
        (jwt(valid, alg: "HS512"), "{ key: s3cret-key-123, algorithms: [HS256] }", "json $.t: algorithm HS512 is not allowed (allowed: HS256)"),
        (jwt("{}", header: "{\"alg\":\"none\"}"), "{ key: s3cret-key-123 }", "json $.t: algorithm none is never accepted: an unsigned token proves nothing"),
        (jwt("{}", header: "{\"alg\":\"RS256\"}"), "{ key: s3cret-key-123 }", "json $.t: algorithm RS256 needs public keys in 'jwks', and this check gives only a shared 'key'"),
        (jwt("{}", header: "{\"alg\":\"PS256\"}"), "{ key: s3cret-key-123 }", "json $.t: algorithm PS256 is not supported yet (Courier verifies HS256, HS384, HS512, RS256, ES256)"),
        // The algorithm-confusion attack: an HS256 token "signed" with the public key is never checked against the JWKS.
        (jwt("{}"), "{ jwks: { keys: [{ kty: RSA, n: AQAB, e: AQAB }] } }", "json $.t: algorithm HS256 needs a shared 'key', and this check gives only 'jwks'"),
        (jwt("{}", header: "{\"typ\":\"JWT\"}"), "{ key: s3cret-key-123 }", "json $.t: not a JWT (the header has no 'alg')"),
        ("abc.def", "{ key: s3cret-key-123 }", "json $.t: not a JWT (2 parts separated by '.', where a signed JWT has 3)"),
        ("e30.e30.a+b", "{ key: s3cret-key-123 }", "json $.t: not a JWT (the signature is not base64url: '+' at character 2 is not base64url)"),
        ("WzFd.e30.", "{ key: s3cret-key-123 }", "json $.t: not a JWT (the header is an array, not a JSON object)"),
        (jwt("{\"sub\":\"admin\"}"), "{ key: s3cret-key-123, claims: { sub: { starts_with: user- } } }",
         "json $.t claim 'sub': expected to start with \"user-\""),
        (jwt("{}"), "{ key: s3cret-key-123, claims: { sub: user-1 } }", "json $.t claim 'sub': expected \"user-1\", but there is no value"),
    ])
    func eachFailureHasItsReason(token: String, predicate: String, message: String) async throws {
        let run = try await check(token, predicate)
        let messages = run.failures().map(\.message)
        #expect(messages.count == 1 && messages[0].hasPrefix(message), "\(messages)")
    }

    /// A token checked with a secret key: claims are named, their values never shown, and the
    /// token itself becomes a secret of the run (its payload is only base64).
    @Test func secretKeyHidesClaimValues() async throws {
        let token = jwt("{\"sub\":\"admin-7\",\"aud\":\"web\"}")
        let secrets = "secrets: { jwt_secret: s3cret-key-123 }"
        let claim = try await check(token, "{ key: \"{{ jwt_secret }}\", claims: { sub: { starts_with: user- } } }", secrets: secrets)
        let failure = try #require(claim.failures().first)
        #expect(failure.message == "json $.t claim 'sub': does not match (the token is a secret: its claim values are not shown)")
        #expect(!failure.message.contains("admin-7") && failure.actual?.rendered.contains("admin-7") == false)
        #expect(claim.secrets.contains(token))
        let audience = try await check(token, "{ key: \"{{ jwt_secret }}\", audience: my-api }", secrets: secrets)
        #expect(audience.failures().map(\.message) == ["json $.t: audience 'aud' does not contain \"my-api\""])
    }

    /// A `secret: true` capture checked with `jwt`: the token is a secret, so its claims are named only.
    @Test func secretCaptureHidesClaimValues() async throws {
        let token = jwt("{\"sub\":\"admin-7\"}")
        let yaml = """
        steps:
          - name: s
            request: { url: "http://x/" }
            capture:
              token: { json: $.t, secret: true, expect: { jwt: { key: s3cret-key-123, claims: { sub: { starts_with: user- } } } } }
        """
        let body = String(decoding: try JSONSerialization.data(withJSONObject: ["t": token]), as: UTF8.self)
        let run = try await CourierEngineTests.run(yaml, transport: FakeTransport(always: jsonResponse(200, body)), functions: pinned)
        #expect(run.failures().map(\.message) == ["capture token claim 'sub': does not match (the token is a secret: its claim values are not shown)"])
    }

    @Test func notAString() async throws {
        let yaml = """
        steps:
          - name: s
            request: { url: "http://x/" }
            expect: { json: { $.t: { jwt: { key: k } } } }
        """
        let run = try await CourierEngineTests.run(yaml, transport: FakeTransport(always: jsonResponse(200, "{\"t\": 5}")), functions: pinned)
        #expect(run.failures().map(\.message) == ["json $.t: 'jwt' needs a string (a JWT), but the value is a number"])
    }
}

/// The token with its payload's `sub` changed and the signature kept: what an attacker sends.
private func tampered(_ token: String) -> String {
    let parts = token.split(separator: ".").map(String.init)
    let forged = Base64URL.encode(Array("{\"sub\":\"admin\",\"exp\":\(now + 600)}".utf8))
    return parts[0] + "." + forged + "." + parts[2]
}

// MARK: - RS256 and ES256

/// Public keys and tokens made once with the openssl CLI (`genrsa 2048`, `ecparam prime256v1`,
/// `dgst -sha256 -sign`); the private keys were not kept. Claims: sub user-7 / user-8, aud my-api.
private let jwks = #"{"keys": [{"kty": "RSA", "kid": "rsa-1", "alg": "RS256", "use": "sig", "n": "2AhRccTbBO5uiB4lrVJNcmGjAaIYNKeREgfH0jNDdi_KUA_A2DGpTL_JoXBHTtUE_pDU2rJf7uxpHzocTwG5R7wAaHmB7bpmMhA87HQyxXjSU8xdEzUUfuR9_KatHVPpjdRwyJ827WUcx1Th3kWIFDdjIUqHoX0wzjspp3E0l7wnq0mTL7u2r-7_4llAkyare8FgBL1OfeVOgEmt7YQh72IBzaFsXonAEVFQ9s5yZo4GjljcWu5HO6PcAUQ1B1UgI7xaIzHBVuoKtCVCyzeXqCQSDk3GvDgmqp2DbWCo7MJA-zJe-v457_-mWtzCbtkzBSTPsZs6Jx_stphb59-UAQ", "e": "AQAB"}, {"kty": "EC", "kid": "ec-1", "crv": "P-256", "x": "YVnTDtT0GEKuEVcfLSfa4eowSY2DIO55QlNjlfkcNAA", "y": "9vV4ye_warUmEvz77V61BdWOFzP1_6KYaCyAVgI4NS0"}]}"#
private let rs256 = "eyJhbGciOiJSUzI1NiIsImtpZCI6InJzYS0xIn0.eyJzdWIiOiJ1c2VyLTciLCJhdWQiOiJteS1hcGkifQ.limUK-s3UHcglqug6vKkqv6X_S5j4n4VwNKnif3QGMETiCPZAp4M1IhC4-d8vnfzWoQ6fZ5Z_0AU28NeGHi3jzX5tCUdlbBlCmiCSme5MCWvX00OiAuq2I_lueDK8ryJJRHHPiHS3rLCM-ZQZC0pkP6GBZdBx_veieNUAH9JNkHnogLZ9lyEBDNO8iqvVbI203R4bMwAw-eybUI_R1DCfbsUGaOLmR9YXYuMN3cLR8VfkGboscqx23vw-zkChBur9cCQuuGfagqK6TJEi40LeplJmmHN93GJJePZe73HZ_8nYxmW8HN29PVBy7I8DqumlbwmCZQJ0DOxY1cF342swQ"
private let es256 = "eyJhbGciOiJFUzI1NiIsImtpZCI6ImVjLTEifQ.eyJzdWIiOiJ1c2VyLTgiLCJhdWQiOiJteS1hcGkifQ.rgmXQvBFU5ixzaLAXVw7dOVy71pPGCZx29dSB3QhVOTlQv99Pd7rQtE_LgLiUFVdhp-ora1GbhhegrJCUxQQ3A"

@Suite(.serialized) struct JWTPublicKeyTests {
    /// The JWKS as a file beside the test workflow (`jwks: keys.json` resolves against it).
    private func writeKeys() throws {
        let directory = URL(fileURLWithPath: testWorkflowPath).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(jwks.utf8).write(to: directory.appendingPathComponent("keys.json"))
    }

    @Test func rs256AndES256VerifyFromAFileAndInline() async throws {
        try writeKeys()
        for token in [rs256, es256] {
            let fromFile = try await check(token, "{ jwks: keys.json, algorithms: [RS256, ES256], audience: my-api, claims: { sub: { starts_with: user- } } }")
            #expect(fromFile.steps.first?.outcome.isPassed == true, "\(fromFile.failures())")
            let inline = try await check(token, "{ jwks: \(jwks), audience: my-api }")
            #expect(inline.steps.first?.outcome.isPassed == true, "\(inline.failures())")
        }
    }

    @Test(arguments: [
        (tamperedPublic(rs256), "{ jwks: keys.json }", "json $.t: signature does not verify with the key (RS256)"),
        (tamperedPublic(es256), "{ jwks: keys.json }", "json $.t: signature does not verify with the key (ES256)"),
        (rs256.replacingOccurrences(of: "InJzYS0xIn0", with: "InJzYS05In0"), "{ jwks: keys.json }",
         "json $.t: no key in the JWKS has the token's kid \"rsa-9\" (kids: \"rsa-1\", \"ec-1\")"),
        (es256, "{ jwks: keys.json, audience: web }", "json $.t: audience \"my-api\" does not contain \"web\""),
        (rs256, "{ jwks: missing.json }", "json $.t: cannot read the JWKS file '/tmp/courier-etests/flows/missing.json'"),
        (rs256, "{ jwks: { keys: 3 } }", "json $.t: the JWKS is not an object with a 'keys' list"),
    ])
    func publicKeyFailures(token: String, predicate: String, message: String) async throws {
        try writeKeys()
        let run = try await check(token, predicate)
        let messages = run.failures().map(\.message)
        #expect(messages.count == 1 && messages[0].hasPrefix(message), "\(messages)")
    }

    /// A machine without libcrypto: the check fails naming the package, it does not crash.
    @Test func missingLibcryptoNamesItsPackage() {
        let verifier = LibCryptoVerifier(library: LibCrypto.load("libcrypto.so.999"))
        guard case .failure(let problem) = verifier.verify(publicKey: [], message: [], signature: []) else {
            Issue.record("expected a failure"); return
        }
        #expect(problem.reason.hasPrefix("RS256 and ES256 need libcrypto: cannot load libcrypto.so.999 ("), "\(problem.reason)")
        #expect(problem.reason.hasSuffix("install it, e.g. 'apt-get install libssl3'"), "\(problem.reason)")
        // And the real one is there, and refuses a key it cannot read rather than crashing.
        #expect(LibCryptoVerifier().verify(publicKey: [0x30, 0x00], message: [], signature: []) == .failure(.problem("libcrypto cannot read the JWKS key")))
    }

    @Test func derEncodings() {
        #expect(DER.integer([0x00, 0x00, 0x7f]) == [0x02, 0x01, 0x7f])
        #expect(DER.integer([0x80]) == [0x02, 0x02, 0x00, 0x80])
        #expect(DER.sequence([UInt8](repeating: 1, count: 200)).prefix(3) == [0x30, 0x81, 200])
        #expect(JWKPublicKey.ecdsaDER([UInt8](repeating: 1, count: 63)) == nil)
    }
}

/// The token with its claims swapped and its signature kept.
private func tamperedPublic(_ token: String) -> String {
    let parts = token.split(separator: ".").map(String.init)
    return parts[0] + "." + Base64URL.encode(Array("{\"sub\":\"admin\",\"aud\":\"my-api\"}".utf8)) + "." + parts[2]
}
