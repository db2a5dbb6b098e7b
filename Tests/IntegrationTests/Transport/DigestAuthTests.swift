import Foundation
import Testing

/// `auth: { digest: … }` (issue 23, item 9) against `testserver.py`'s `/digest/md5` and
/// `/digest/sha256`, which implement the server side of RFC 7616 (`qop=auth`, a fresh nonce per
/// challenge, the response checked): libcurl answers the 401 on the same transfer.
@Suite(.testServer)
struct DigestAuthTests {
    /// What testserver.py accepts (`DIGEST_USER`, `DIGEST_PASSWORD`).
    static let password = "digest-pass-7616"

    /// `w.yaml`: Digest on the request (MD5); `d.yaml`: in `defaults` (SHA-256, a POST with a body).
    static func write(_ workspace: Workspace, password: String = "{{ env.DIGEST_PW }}") throws {
        try workspace.write("w.yaml", """
            name: digest
            secrets:
              pw: "\(password)"
            defaults:
              base_url: "{{ base_url }}"
            steps:
              - name: md5
                request:
                  url: /digest/md5
                  auth: { digest: { username: demo, password: "{{ pw }}" } }
                expect:
                  status: 200
                  json: { $.algorithm: MD5 }
                  redirects: 0
            """)
        try workspace.write("d.yaml", """
            name: digest in defaults
            secrets:
              pw: "\(password)"
            defaults:
              base_url: "{{ base_url }}"
              auth: { digest: { username: demo, password: "{{ pw }}" } }
            steps:
              - name: sha-256
                request: { method: POST, url: "/digest/sha256?n=1", json: { a: 1 } }
                expect: { status: 200, json: { $.algorithm: SHA-256 } }
            """)
    }

    @Test("the right password passes with MD5 and SHA-256; the password and Authorization: Digest never show")
    func rightPassword() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try Self.write(workspace)
        let result = try await Courier.run(files: ["w.yaml", "d.yaml"], workspace: workspace, server: server,
                                           extra: ["-v", "--curl", "--junit", "r.xml", "--json", "r.json", "--html", "r.html"],
                                           environment: ["DIGEST_PW": Self.password])
        #expect(result.status == 0, result.context)
        // libcurl's answer to the challenge, recorded as sent and masked to its scheme.
        #expect(result.stdout.contains("Authorization: Digest ***"), result.context)
        var outputs = [("stdout", result.stdout), ("stderr", result.stderr)]
        for report in ["r.xml", "r.json", "r.html"] { outputs.append((report, try workspace.read(report))) }
        for (name, text) in outputs {
            #expect(!text.contains(Self.password), "\(name) shows the password")
            #expect(!text.contains("response=\""), "\(name) shows the Digest response computed from the password")
        }
    }

    @Test("a wrong password gets the server's 401: the step fails and says so")
    func wrongPassword() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try Self.write(workspace, password: "not-the-password")
        let result = try await Courier.run(files: ["w.yaml", "d.yaml"], workspace: workspace, server: server, extra: ["--curl"])
        #expect(result.status == 1, result.context)
        // `--curl` replays it: curl answers the challenge again (the nonce libcurl answered is spent).
        #expect(result.stdout.contains(#"curl --digest -u "demo:$COURIER_SECRET_PW" -L"#), result.context)
        #expect(result.stdout.contains("FAIL  md5"), result.context)
        #expect(result.stdout.contains("401"), result.context)
        #expect(result.stdout.contains("wrong digest username or password"), result.context)
        #expect(!result.stdout.contains("not-the-password") && !result.stderr.contains("not-the-password"), result.context)
    }

    @Test("--dry-run shows that Digest credentials go (Authorization: Digest ***) and sends nothing")
    func dryRun() async throws {
        let workspace = try Workspace()
        try Self.write(workspace)
        // Port 9 (discard): nothing listens, so a request sent would fail the run.
        let result = try await Courier.run(["run", "w.yaml", "d.yaml", "--dry-run", "--var", "base_url=http://127.0.0.1:9"],
                                           in: workspace.url, environment: ["DIGEST_PW": Self.password])
        #expect(result.status == 0, result.context)
        #expect(result.stdout.contains("> Authorization: Digest ***"), result.context)
        #expect(result.stdout.contains("DRY RUN: 2 requests rendered, 0 sent"), result.context)
        #expect(!result.stdout.contains(Self.password), result.context)
    }

    @Test("with an auth: flow, defaults.auth digest is what the login steps send")
    func loginStepsGetDigestFromDefaults() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("w.yaml", """
            name: digest login
            secrets:
              pw: "{{ env.DIGEST_PW }}"
            defaults:
              base_url: "{{ base_url }}"
              auth: { digest: { username: demo, password: "{{ pw }}" } }
            auth:
              login:
                - name: log in with digest
                  request: { url: /digest/sha256 }
                  expect: { status: 200 }
                  capture: { who: $.user }
              apply:
                headers: { X-User: "{{ who }}" }
            steps:
              - name: applied, not digest
                request: { url: /echo }
                expect: { json: { "$.headers[?@[0] == 'X-User'][1]": [demo], "$.headers[?@[0] == 'Authorization']": [] } }
            """)
        let result = try await Courier.run(files: ["w.yaml"], workspace: workspace, server: server,
                                           environment: ["DIGEST_PW": Self.password])
        #expect(result.status == 0, result.context)
        #expect(result.stdout.contains("PASS  auth › log in with digest"), result.context)
    }
}
