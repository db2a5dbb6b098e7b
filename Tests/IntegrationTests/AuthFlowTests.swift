import Foundation
import Testing

/// The workflow `auth:` flow (spec section 9): `login` runs lazily before the first request
/// that needs credentials, `apply` adds them, a status in `refresh_on` logs in again and
/// resends once, a failed login stops the workflow. Logins are counted by the test server
/// (`/flow/token`, `/flow/protected`, `/flow/stats`), per key, so tests running at once never
/// see each other's. Goldens: Tests/Goldens/auth/<name>.txt, re-recorded with
/// `COURIER_RECORD=1` (review the diff).
@Suite(.testServer, .inBothThreadingModes)
struct AuthFlowTests {
    static let goldens = Paths.packageRoot.appendingPathComponent("Tests/Goldens/auth")

    /// A key of our own for the server's counters.
    private static func key() -> String { "auth-\(UUID().uuidString.prefix(8))" }

    /// Durations, dates and the server's port vary from run to run.
    private static func normalised(_ text: String, key: String, server: TestServer) -> String {
        text.replacingOccurrences(of: #"\d+ ms|\d+\.\d\d s|\d+\.\d/s"#, with: "<time>", options: .regularExpression)
            .replacingOccurrences(of: key, with: "<key>")
            .replacingOccurrences(of: server.baseURL, with: "<base_url>")
            .replacingOccurrences(of: #"Date: [^\n]*GMT"#, with: "Date: <date>", options: .regularExpression)
    }

    private static func matchGolden(_ name: String, _ text: String, _ comment: Comment) throws {
        let golden = goldens.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["COURIER_RECORD"] == "1" {
            try FileManager.default.createDirectory(at: goldens, withIntermediateDirectories: true)
            try text.write(to: golden, atomically: true, encoding: .utf8)
        } else {
            let expected = try String(contentsOf: golden, encoding: .utf8)
            #expect(text == expected, comment)
        }
    }

    /// The `auth:` block used below: a form login whose token `/flow/protected` accepts `uses` times.
    private static func authBlock(key: String, uses: Int = 1000, password: String = "secret", extra: String = "") -> String {
        """
        auth:
          login:
            - name: log in
              request:
                method: POST
                url: /flow/token?key=\(key)&uses=\(uses)
                form: { username: demo, password: \(password) }
              expect: { status: 200 }
              capture: { access_token: { json: $.access_token, secret: true } }
          apply:
            headers: { Authorization: "Bearer {{ access_token }}" }
        \(extra)
        """
    }

    private func stats(_ server: TestServer, _ key: String) throws -> [String: Any] {
        try server.getJSON("/flow/stats?key=\(key)")
    }

    @Test("no step needs credentials (auth: none, own auth): login never runs")
    func noLoginWhenNotNeeded() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let key = Self.key()
        try workspace.write("w.yaml", """
            name: no login
            defaults: { base_url: "{{ base_url }}" }
            \(Self.authBlock(key: key))
            steps:
              - name: open
                request: { url: /health, auth: none }
              - name: own key
                request: { url: /echo, auth: { header: { name: X-Api-Key, value: abcdefgh } } }
            """)
        let result = try await Courier.run(files: ["w.yaml"], workspace: workspace, server: server)
        #expect(result.status == 0, result.context)
        #expect(!result.stdout.contains("auth ›"), result.context)
        let counts = try stats(server, key)
        #expect(counts["logins"] as? Int == 0 && counts["refused_logins"] as? Int == 0, "\(counts)")
    }

    @Test("lazy login before the first protected request; one login per expiry as counted by the server; console and JUnit name the logins 'auth › log in' and '(2)' (golden)")
    func lazyLoginAndRefresh() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let key = Self.key()
        // A token serves two requests: the third is refused, logs in again and is resent.
        try workspace.write("w.yaml", """
            name: refresh
            defaults: { base_url: "{{ base_url }}" }
            \(Self.authBlock(key: key, uses: 2))
            steps:
              - name: open
                request: { url: /health, auth: none }
              - name: first
                request: { url: /flow/protected?key=\(key) }
                expect: { status: 200 }
              - name: second
                request: { url: /flow/protected?key=\(key) }
                expect: { status: 200 }
              - name: third
                request: { url: /flow/protected?key=\(key) }
                expect: { status: 200 }
              - name: fourth
                request: { url: /flow/protected?key=\(key) }
                expect: { status: 200 }
            """)
        let result = try await Courier.run(files: ["w.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml"])
        #expect(result.status == 0, result.context)
        let counts = try stats(server, key)
        #expect(counts["logins"] as? Int == 2, "\(counts)")
        #expect(counts["ok"] as? Int == 4, "\(counts)")
        #expect(counts["refused"] as? Int == 1, "\(counts)")

        try Self.matchGolden("refresh.txt", Self.normalised(result.stdout, key: key, server: server), result.context)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.cases.map(\.name) == ["open", "auth › log in", "first", "second", "auth › log in (2)", "third", "fourth"])
        #expect(report.cases.allSatisfy { $0.passed }, "\(report.cases)")
        // The resend is an attempt of the step: its report lists both.
        let third = report.cases.first { $0.name == "third" }
        #expect(third?.systemOut?.contains("attempt 2 of 2") == true, "\(String(describing: third))")
    }

    @Test("refreshed credentials refused too: the step fails and says so; exactly one login again, no more")
    func refusedAfterRefresh() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let key = Self.key()
        try workspace.write("w.yaml", """
            name: refused
            defaults: { base_url: "{{ base_url }}" }
            \(Self.authBlock(key: key, uses: 0))
            steps:
              - name: protected
                request: { url: /flow/protected?key=\(key) }
                expect: { status: 200 }
              - name: after
                request: { url: /health, auth: none }
            """)
        let result = try await Courier.run(files: ["w.yaml"], workspace: workspace, server: server)
        #expect(result.status == 1, result.context)
        #expect(result.stdout.contains("FAIL  protected  401"), result.context)
        #expect(result.stdout.contains("error: the refreshed credentials were refused too: 401 again after logging in again"), result.context)
        #expect(result.stdout.contains("SKIP  after  (an earlier step failed)"), result.context)
        let counts = try stats(server, key)
        #expect(counts["logins"] as? Int == 2, "\(counts)")
        #expect(counts["refused"] as? Int == 2, "\(counts)")
    }

    @Test("a failing login fails the requesting step with the login's diagnostics; the rest is skipped 'login failed'; teardown runs; no second login is tried (golden)")
    func failingLogin() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let key = Self.key()
        try workspace.write("w.yaml", """
            name: wrong password
            defaults: { base_url: "{{ base_url }}" }
            continue_on_failure: true
            \(Self.authBlock(key: key, password: "wrong"))
            steps:
              - name: open
                request: { url: /health, auth: none }
              - name: protected
                request: { url: /flow/protected?key=\(key) }
              - name: later
                request: { url: /health, auth: none }
            teardown:
              - name: clean up
                request: { url: /flow/protected?key=\(key) }
              - name: say goodbye
                request: { url: /health, auth: none }
            """)
        let result = try await Courier.run(files: ["w.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml"])
        #expect(result.status == 1, result.context)
        try Self.matchGolden("failing-login.txt", Self.normalised(result.stdout, key: key, server: server), result.context)
        let counts = try stats(server, key)
        #expect(counts["refused_logins"] as? Int == 1, "\(counts)")
        #expect(counts["logins"] as? Int == 0, "\(counts)")
        #expect(counts["ok"] as? Int == 0 && counts["refused"] as? Int == 0, "nothing was sent without credentials: \(counts)")

        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.cases.map(\.name) == ["open", "auth › log in", "protected", "later", "clean up", "say goodbye"])
        let protected = report.cases.first { $0.name == "protected" }
        #expect(protected?.error?.message?.contains("login failed: 'auth › log in' failed: status: expected 200, got 401") == true,
                "\(String(describing: protected))")
        #expect(report.cases.first { $0.name == "later" }?.skippedMessage == "login failed")
        #expect(report.cases.first { $0.name == "say goodbye" }?.passed == true)
    }

    @Test("--jobs 4: each workflow logs in with its own credentials, once, while the others run")
    func jobsOwnCredentials() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let key = Self.key()
        for index in 1...4 {
            try workspace.write("flows/0\(index).yaml", """
                name: workflow \(index)
                defaults: { base_url: "{{ base_url }}" }
                \(Self.authBlock(key: key))
                steps:
                  - name: first
                    request: { url: /flow/protected?key=\(key) }
                    expect: { status: 200 }
                  - name: wait for the others
                    request: { url: /delay?ms=500, auth: none }
                  - name: second
                    request: { url: /flow/protected?key=\(key) }
                    expect: { status: 200 }
                """)
        }
        let result = try await Courier.run(files: ["flows"], workspace: workspace, server: server, extra: ["--jobs", "4"])
        #expect(result.status == 0, result.context)
        let counts = try stats(server, key)
        #expect(counts["logins"] as? Int == 4, "\(counts)")
        #expect(counts["ok"] as? Int == 8 && counts["refused"] as? Int == 0, "\(counts)")
        #expect(result.stdout.components(separatedBy: "PASS  auth › log in ").count - 1 == 4, result.context)
    }

    @Test("precedence: a request's own auth beats apply, which beats defaults.auth; auth: none sends neither; login steps get defaults.auth, not apply")
    func precedence() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let key = Self.key()
        let authorization = "$.headers[?@[0] == 'Authorization'][1]"
        try workspace.write("with-flow.yaml", """
            name: with a flow
            defaults:
              base_url: "{{ base_url }}"
              auth: { basic: { username: demo, password: secret } }
            auth:
              login:
                - name: log in
                  request: { method: POST, url: /echo, json: { access_token: tok-\(key) } }
                  expect:
                    json: { "\(authorization)": ["Basic ZGVtbzpzZWNyZXQ="] }
                  capture: { access_token: { json: $.json.access_token, secret: true } }
              apply:
                headers: { Authorization: "Bearer {{ access_token }}" }
            steps:
              - name: own
                request: { url: /echo, auth: { bearer: own-token } }
                expect: { json: { "\(authorization)": ["Bearer own-token"] } }
              - name: applied
                request: { url: /echo }
                expect: { json: { "\(authorization)": ["Bearer tok-\(key)"] } }
              - name: none
                request: { url: /echo, auth: none }
                expect: { json: { "\(authorization)": [] } }
            """)
        try workspace.write("defaults-only.yaml", """
            name: defaults only
            defaults:
              base_url: "{{ base_url }}"
              auth: { basic: { username: demo, password: secret } }
            steps:
              - name: basic from defaults
                request: { url: /basic }
                expect: { status: 200 }
              - name: none
                request: { url: /echo, auth: none }
                expect: { json: { "\(authorization)": [] } }
            """)
        let result = try await Courier.run(files: ["with-flow.yaml", "defaults-only.yaml"], workspace: workspace, server: server)
        #expect(result.status == 0, result.context)
        #expect(result.stdout.contains("PASS  auth › log in"), result.context)
    }

    @Test("apply may set query parameters; teardown gets apply once logged in")
    func applyQueryAndTeardown() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let key = Self.key()
        try workspace.write("w.yaml", """
            name: query token
            defaults: { base_url: "{{ base_url }}" }
            auth:
              login:
                - name: log in
                  request: { method: POST, url: "/flow/token?key=\(key)", json: { username: demo, password: secret } }
                  capture: { access_token: { json: $.access_token, secret: true } }
              apply:
                query: { access_token: "{{ access_token }}" }
            steps:
              - name: protected
                request: { url: /flow/protected?key=\(key) }
                expect: { status: 200 }
            teardown:
              - name: clean up
                request: { url: /flow/protected?key=\(key) }
                expect: { status: 200 }
            """)
        let result = try await Courier.run(files: ["w.yaml"], workspace: workspace, server: server, extra: ["-v"])
        #expect(result.status == 0, result.context)
        let counts = try stats(server, key)
        #expect(counts["logins"] as? Int == 1 && counts["ok"] as? Int == 2, "\(counts)")
        // The token in the URL is a credential: masked in the transcript.
        let token = try #require(counts["last_token"] as? String)
        #expect(!result.stdout.contains(token) && !result.stderr.contains(token), result.context)
        #expect(result.stdout.contains("access_token=***"), result.context)
    }

    @Test("secrets captured in login are masked everywhere (console -v, JUnit), also a token applied under a custom header and captured without secret: true")
    func loginSecretsMasked() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        for (file, secretFlag) in [("secret.yaml", "true"), ("plain.yaml", "false")] {
            let key = Self.key()
            try workspace.write(file, """
                name: masked \(secretFlag)
                defaults: { base_url: "{{ base_url }}" }
                auth:
                  login:
                    - name: log in
                      request: { method: POST, url: "/flow/token?key=\(key)&uses=1", form: { username: demo, password: secret } }
                      capture: { token: { json: $.access_token, secret: \(secretFlag) } }
                  apply:
                    headers: { X-Token: "{{ token }}" }
                steps:
                  - name: echoed
                    request: { url: /echo }
                    expect: { status: 201 }
                """)
            let result = try await Courier.run(files: [file], workspace: workspace, server: server,
                                               extra: ["-v", "--junit", "\(file).xml"])
            #expect(result.status == 1, result.context)
            let counts = try stats(server, key)
            let token = try #require(counts["last_token"] as? String)
            #expect(result.stdout.contains("X-Token: ***"), result.context)
            let junit = try String(contentsOf: workspace.url.appendingPathComponent("\(file).xml"), encoding: .utf8)
            for output in [result.stdout, result.stderr, junit] {
                #expect(!output.contains(token), "token \(token) shown in \(file):\n\(output)")
            }
        }
    }

    @Test("Ctrl-C during a login: the login and the step that needed it are interrupted, not 'login failed'; a teardown that needs credentials still logs in, exit 130")
    func interruptedLogin() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let key = Self.key()
        // The login is slow while `slow` is set; teardown logs in again with it unset.
        try workspace.write("w.yaml", """
            name: interrupted login
            vars: { slow: 20000 }
            defaults: { base_url: "{{ base_url }}" }
            auth:
              login:
                - name: log in
                  if: "slow > 0"
                  request: { url: "/delay?ms={{ slow }}" }
                - name: get a token
                  request: { method: POST, url: "/flow/token?key=\(key)", json: { username: demo, password: secret } }
                  capture: { access_token: { json: $.access_token, secret: true } }
              apply:
                headers: { Authorization: "Bearer {{ access_token }}" }
            steps:
              - name: protected
                request: { url: /flow/protected?key=\(key) }
              - name: later
                request: { url: /health, auth: none }
            teardown:
              - name: forget slowness
                request: { url: /health, auth: none }
                capture: { slow: { json: $.missing, default: 0 } }
              - name: clean up
                request: { url: /flow/protected?key=\(key) }
                expect: { status: 200 }
            """)
        let result = try await Courier.run(["run", "w.yaml", "--var", "base_url=\(server.baseURL)", "--junit", "junit.xml"],
                                           in: workspace.url, interruptAfter: .milliseconds(1500))
        #expect(result.status == 130, result.context)
        #expect(result.duration < .seconds(15), "the run did not stop at Ctrl-C: \(result.duration)")
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.cases.map(\.name) == ["auth › log in", "auth › get a token", "protected", "later",
                                              "forget slowness", "auth › log in (2)", "auth › get a token (2)", "clean up"],
                "\(report.cases.map(\.name))")
        #expect(report.testCase("auth › log in")?.error?.type == "cancelled")
        #expect(report.testCase("auth › get a token")?.skippedMessage == "interrupted by SIGINT")
        #expect(report.testCase("protected")?.error?.type == "cancelled", "\(String(describing: report.testCase("protected")))")
        #expect(report.testCase("protected")?.error?.message == "interrupted by SIGINT")
        #expect(report.testCase("later")?.skippedMessage == "interrupted by SIGINT")
        #expect(report.testCase("clean up")?.passed == true, "teardown logs in after Ctrl-C: \(result.context)")
        let counts = try stats(server, key)
        #expect(counts["logins"] as? Int == 1 && counts["ok"] as? Int == 1, "\(counts)")
    }

    @Test("a login's time is its own entry's, not counted again in the step that needed it")
    func loginTimeNotCountedTwice() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let key = Self.key()
        try workspace.write("w.yaml", """
            name: slow login
            defaults: { base_url: "{{ base_url }}" }
            auth:
              login:
                - name: slow
                  request: { url: /delay?ms=800 }
                - name: token
                  request: { method: POST, url: "/flow/token?key=\(key)", json: { username: demo, password: secret } }
                  capture: { access_token: { json: $.access_token, secret: true } }
              apply:
                headers: { Authorization: "Bearer {{ access_token }}" }
            steps:
              - name: protected
                request: { url: /flow/protected?key=\(key) }
                expect: { status: 200 }
            """)
        let result = try await Courier.run(files: ["w.yaml"], workspace: workspace, server: server, extra: ["--junit", "junit.xml"])
        #expect(result.status == 0, result.context)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        let slow = try #require(report.testCase("auth › slow")?.seconds)
        let protected = try #require(report.testCase("protected")?.seconds)
        #expect(slow >= 0.8, "\(report.cases)")
        #expect(protected < 0.8, "the step's time includes the login's: \(report.cases)")
    }
}
