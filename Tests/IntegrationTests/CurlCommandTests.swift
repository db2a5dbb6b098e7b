import Foundation
import Testing

/// `--curl` (issue 13, item 3): a failed request comes with a `curl` command that
/// reproduces it once the secrets' variables are exported, and holds no secret.
@Suite(.testServer)
struct CurlCommandTests {
    /// Quotes, `$`, `!` and spaces (shell quoting), `/`, `+` and `&` (query encoding).
    static let token = "tok-It's a $ecret! 42 `x` \\n"
    static let apiKey = "key/with+plus&amp=1 \"q\""

    static let workflow = """
        name: curl repro
        secrets:
          token: "{{ env.TOKEN }}"
          api_key: "{{ env.API_KEY }}"
        steps:
          - name: passes
            request: { url: "{{ base_url }}/echo" }
          - name: send secrets
            request:
              method: PUT
              url: "{{ base_url }}/echo"
              query: { k: "{{ api_key }}", plain: "a b" }
              headers:
                Authorization: "Bearer {{ token }}"
                X-Echo-Status: "418"
                X-Note: "it's $HOME!"
              body: "key={{ api_key }}; it's 'quoted'"
              content_type: text/plain
            expect: { status: 200 }
        """

    static let environment = ["TOKEN": token, "API_KEY": apiKey]

    /// The command lines printed (indented) on the console, without the indentation.
    static func commands(in stdout: String) -> [String] {
        stdout.split(separator: "\n").map { $0.drop(while: { $0 == " " }) }.filter { $0.hasPrefix("curl ") }.map(String.init)
    }

    @Test("--curl prints a command for the failed step only; run with the variables exported it reproduces the request and status")
    func reproduces() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("flow.yaml", Self.workflow)
        let result = try await Courier.run(files: ["flow.yaml"], workspace: workspace, server: server,
                                           extra: ["--curl"], environment: Self.environment)
        #expect(result.status == 1, result.context)
        let commands = Self.commands(in: result.stdout)
        try #require(commands.count == 1, result.context)
        #expect(result.stdout.contains("# export COURIER_SECRET_TOKEN=…\n"), result.context)
        #expect(result.stdout.contains("# export COURIER_SECRET_API_KEY=…\n"), result.context)
        #expect(result.stdout.contains("# export COURIER_SECRET_API_KEY_PCT=…  (COURIER_SECRET_API_KEY percent-encoded as sent"), result.context)
        #expect(commands[0].contains("\"Authorization: Bearer $COURIER_SECRET_TOKEN\""), result.context)

        var environment = ProcessInfo.processInfo.environment
        for name in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] { environment[name] = nil }
        environment["COURIER_SECRET_TOKEN"] = Self.token
        environment["COURIER_SECRET_API_KEY"] = Self.apiKey
        // The query value as it was sent (in place, percent-encoded).
        environment["COURIER_SECRET_API_KEY_PCT"] = CurlReplayTests.percentEncoded(Self.apiKey)
        let curl = try await ProcessRunner.run("/bin/sh", ["-c", commands[0] + " -s -w '\\n%{http_code}'"],
                                               in: workspace.url, environment: environment, timeout: .seconds(30))
        #expect(curl.status == 0, "curl failed: \(curl.allOutput)")
        let lines = curl.stdout.split(separator: "\n")
        #expect(lines.last == "418", "the command did not reproduce the status: \(curl.stdout)")
        let echo = try #require(try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any])
        #expect(echo["method"] as? String == "PUT")
        #expect(echo["body"] as? String == "key=\(Self.apiKey); it's 'quoted'")
        #expect(echo["content_type"] as? String == "text/plain")
        let query = echo["query"] as? [String: [String]]
        #expect(query?["k"] == [Self.apiKey])
        #expect(query?["plain"] == ["a b"])
        let headers = (echo["headers"] as? [[String]] ?? []).filter { $0.count == 2 }
        #expect(headers.contains(["Authorization", "Bearer \(Self.token)"]), "\(headers)")
        #expect(headers.contains(["X-Note", "it's $HOME!"]), "\(headers)")
    }

    @Test("the --curl command is in the failed testcase's JUnit system-out, and no output holds a secret")
    func noSecret() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("flow.yaml", Self.workflow)
        let result = try await Courier.run(files: ["flow.yaml"], workspace: workspace, server: server,
                                           extra: ["--curl", "--junit", "junit.xml"], environment: Self.environment)
        #expect(result.status == 1, result.context)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        let systemOut = try #require(report.testCase("send secrets")?.systemOut)
        #expect(systemOut.contains("# export COURIER_SECRET_TOKEN=…"), "\(systemOut)")
        #expect(systemOut.contains("curl -X PUT "), "\(systemOut)")
        #expect(report.testCase("passes")?.systemOut == nil)
        for secret in [Self.token, Self.apiKey] {
            for form in String.leakForms(of: secret) {
                for (place, text) in [("stdout", result.stdout), ("stderr", result.stderr), ("JUnit", report.text)] {
                    #expect(!text.contains(form), "a secret appears as '\(form)' in \(place)")
                }
            }
        }
    }
    // MARK: - What libcurl added, and fields curl encodes

    /// A session id the server sets (into the jar; a cookie holds no space) and a password sent
    /// in a `form:` body and the query; both need percent-encoding (`&`, `+`, `/`, `=`, space).
    static let sessionID = "sid&1+/=Zq8-jar"
    static let password = "pw&1 +/=Zq8-form"

    static let formWorkflow = """
        name: curl form and jar
        secrets:
          sid: "{{ env.SID }}"
          password: "{{ env.PASSWORD }}"
        steps:
          - name: log in
            request:
              url: "{{ base_url }}/cookies/set"
              query: { session: "{{ sid }}" }
          - name: send the form
            request:
              method: POST
              url: "{{ base_url }}/echo"
              query: { p: "{{ password }}", plain: "a b" }
              headers: { X-Echo-Status: "418" }
              form: { user: bob, password: "{{ password }}", note: "x&y" }
            expect: { status: 200 }
        """

    @Test("--curl sends the jar's cookie (-b) and a secret form field and query value (percent-encoded, in place) as variables; the command reproduces the request and status")
    func formAndJar() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("flow.yaml", Self.formWorkflow)
        let result = try await Courier.run(files: ["flow.yaml"], workspace: workspace, server: server, extra: ["--curl"],
                                           environment: ["SID": Self.sessionID, "PASSWORD": Self.password])
        #expect(result.status == 1, result.context)
        let commands = Self.commands(in: result.stdout)
        let command = try #require(commands.first, result.context)
        #expect(commands.count == 1, result.context)
        #expect(command.contains(#"-b "session=$COURIER_SECRET_SID""#), "\(command)")
        #expect(command.contains(#"--data-raw "user=bob&password=$COURIER_SECRET_PASSWORD_PCT&note=x%26y""#), "\(command)")
        #expect(command.contains(#"?p=$COURIER_SECRET_PASSWORD_PCT&plain=a%20b""#), "\(command)")
        #expect(!result.stdout.contains("# *** stands for"), "every secret is a variable: \(result.stdout)")
        for secret in [Self.sessionID, Self.password] {
            for form in String.leakForms(of: secret) { #expect(!result.stdout.contains(form), "'\(form)' in stdout") }
        }

        var environment = ProcessInfo.processInfo.environment
        for name in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] { environment[name] = nil }
        environment["COURIER_SECRET_SID"] = Self.sessionID
        environment["COURIER_SECRET_PASSWORD_PCT"] = CurlReplayTests.percentEncoded(Self.password)
        let curl = try await ProcessRunner.run("/bin/sh", ["-c", command + " -s -w '\\n%{http_code}'"],
                                               in: workspace.url, environment: environment, timeout: .seconds(30))
        #expect(curl.status == 0, "curl failed: \(curl.allOutput)")
        let lines = curl.stdout.split(separator: "\n")
        #expect(lines.last == "418", "the command did not reproduce the status: \(curl.stdout)")
        let echo = try #require(try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any])
        #expect(echo["method"] as? String == "POST")
        let form = try #require(echo["body"] as? String)
        let fields = Dictionary(form.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }, uniquingKeysWith: { first, _ in first })
        #expect(fields == ["user": "bob", "password": Self.password, "note": "x&y"], "\(form)")
        let query = echo["query"] as? [String: [String]]
        #expect(query?["p"] == [Self.password])
        #expect(query?["plain"] == ["a b"])
        let headers = (echo["headers"] as? [[String]] ?? []).filter { $0.count == 2 }
        #expect(headers.contains(["Cookie", "session=\(Self.sessionID)"]), "\(headers)")
    }
    @Test("--curl: Basic credentials built from a declared secret are built by the shell from the variable; the command sends the same Authorization")
    func basicCredentials() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("flow.yaml", """
            name: curl basic
            secrets:
              password: "{{ env.PASSWORD }}"
            steps:
              - name: send it
                request:
                  url: "{{ base_url }}/echo"
                  headers: { X-Echo-Status: "418" }
                  auth: { basic: { username: bob, password: "{{ password }}" } }
                expect: { status: 200 }
            """)
        let result = try await Courier.run(files: ["flow.yaml"], workspace: workspace, server: server, extra: ["--curl"],
                                           environment: ["PASSWORD": Self.password])
        #expect(result.status == 1, result.context)
        let command = try #require(Self.commands(in: result.stdout).first, result.context)
        #expect(command.contains(#" -H "Authorization: Basic $(printf '%s' "bob:$COURIER_SECRET_PASSWORD" | base64 | tr -d '\n')" "#), "\(command)")
        var environment = ProcessInfo.processInfo.environment
        for name in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] { environment[name] = nil }
        environment["COURIER_SECRET_PASSWORD"] = Self.password
        let curl = try await ProcessRunner.run("/bin/sh", ["-c", command + " -s -w '\\n%{http_code}'"],
                                               in: workspace.url, environment: environment, timeout: .seconds(30))
        let lines = curl.stdout.split(separator: "\n")
        #expect(lines.last == "418", "the command did not reproduce the status: \(curl.allOutput)")
        let echo = try #require(try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any])
        let headers = (echo["headers"] as? [[String]] ?? []).filter { $0.count == 2 }
        let expected = "Basic " + Data("bob:\(Self.password)".utf8).base64EncodedString()
        #expect(headers.contains(["Authorization", expected]), "\(headers)")
    }
}
