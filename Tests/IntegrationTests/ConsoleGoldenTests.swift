import Foundation
import Testing

/// The console as a person reads it (colour off): passing, failing, retried, skipped and
/// interrupted runs, with the closing recap of failed steps and the requests sent.
/// Goldens: Tests/Goldens/console/<name>.txt, re-recorded with `COURIER_RECORD=1` (review the diff).
@Suite(.testServer)
struct ConsoleGoldenTests {
    static let goldens = Paths.packageRoot.appendingPathComponent("Tests/Goldens/console")

    /// What varies from run to run: durations, the request rate, the server's port and clock, keys.
    static func normalised(_ text: String, server: TestServer, key: String = "") -> String {
        var text = text.replacingOccurrences(of: server.baseURL, with: "<base_url>")
        if !key.isEmpty { text = text.replacingOccurrences(of: key, with: "<key>") }
        return text
            .replacingOccurrences(of: #"\d+ ms|\d+\.\d\d s|\d+\.\d/s"#, with: "<time>", options: .regularExpression)
            .replacingOccurrences(of: #"Date: [^\n]*"#, with: "Date: <date>", options: .regularExpression)
    }

    private func check(_ name: String, _ console: String, _ context: Comment, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let golden = Self.goldens.appendingPathComponent("\(name).txt")
        if ProcessInfo.processInfo.environment["COURIER_RECORD"] == "1" {
            try console.write(to: golden, atomically: true, encoding: .utf8)
        } else {
            #expect(console == (try String(contentsOf: golden, encoding: .utf8)), context, sourceLocation: sourceLocation)
        }
    }

    @Test("a passing run: a line per step, then the counts with requests sent and requests per second (golden)")
    func passing() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("pass.yaml", """
            name: passing
            steps:
              - name: health
                request: { url: "{{ base_url }}/health" }
                expect: { status: 200 }
              - name: redirected
                request: { url: "{{ base_url }}/redirect/2" }
                expect: { status: 200 }
            """)
        let result = try await Courier.run(files: ["pass.yaml"], workspace: workspace, server: server)
        #expect(result.status == 0, result.context)
        // Two redirects and the final request: 4 requests for 2 steps.
        #expect(result.stdout.contains(", 4 requests ("), result.context)
        try check("passing", Self.normalised(result.stdout, server: server), result.context)
    }

    @Test("redirect checks: each failed url, count and hop part with its expected and actual values, in the console (golden), JUnit, JSON and HTML")
    func redirects() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("hops.yaml", """
            name: hops
            steps:
              - name: two hops
                request: { url: "{{ base_url }}/redirect/2?next=%2Fhome&to={{ base_url }}/health" }
                expect:
                  url: { ends_with: /welcome }
                  redirects:
                    - { status: 301, location: { starts_with: /redirect/1 }, query: { next: /away } }
                    - { url: { contains: /redirect/9 } }
                    - { status: 302 }
            """)
        let result = try await Courier.run(files: ["hops.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml", "--json", "report.json", "--html", "report.html"])
        #expect(result.status == 1, result.context)
        try check("redirects", Self.normalised(result.stdout, server: server), result.context)
        let pairs = [("redirects[0].status: expected 301, got 302", "301", "302"),
                     (#"redirects[0].query.next: expected "/away", got "/home""#, #""/away""#, #""/home""#),
                     ("redirects: expected 3, got 2", "3", "2")]
        let junit = try workspace.read("junit.xml")
        let html = try workspace.read("report.html")
        for (message, expected, actual) in pairs {
            // JUnit's text escapes only `<` and `&`; the HTML page escapes quotes too.
            #expect(junit.contains(message), "JUnit lacks '\(message)'\n\(junit)")
            #expect(html.contains(message.replacingOccurrences(of: "\"", with: "&quot;")), "HTML lacks '\(message)'")
            for (label, value) in [("expected: ", expected), ("actual:   ", actual)] {
                let line = "  \(label)\(value)"
                #expect(junit.contains(line), "JUnit lacks '\(line)'")
                #expect(html.contains(line.replacingOccurrences(of: "\"", with: "&quot;")), "HTML lacks '\(line)'")
            }
        }
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: workspace.url.appendingPathComponent("report.json"))) as? [String: Any]
        let run = try #require(report?["run"] as? [String: Any])
        let step = try #require(((run["workflows"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]])?.first)
        let checks = try #require((step["attempts"] as? [[String: Any]])?.last?["expectations"] as? [[String: Any]])
        let status = try #require(checks.first { $0["subject"] as? String == "redirects[0].status" })
        #expect((status["expected"] as? [String: Any])?["json"] as? Int == 301 && (status["actual"] as? [String: Any])?["json"] as? Int == 302)
        let location = try #require(checks.first { $0["subject"] as? String == "redirects[0].location" })
        #expect(location["outcome"] as? String == "passed" && (location["actual"] as? [String: Any])?["json"] as? String == "/redirect/1?next=%2Fhome&to=\(server.baseURL)/health")
    }

    @Test("a failing run: failure blocks, then a recap line per failed step (file:line  workflow › step  — reason) (golden)")
    func failing() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("a.yaml", """
            name: orders
            continue_on_failure: true
            steps:
              - name: list
                request: { url: "{{ base_url }}/status/500" }
                expect: { status: 200 }
              - name: fine
                request: { url: "{{ base_url }}/health" }
              - name: count
                request: { url: "{{ base_url }}/json?size=2" }
                expect:
                  status: 200
                  json:
                    $.count: 3
            """)
        try workspace.write("b.yaml", """
            name: users
            steps:
              - name: gone
                request: { url: "{{ base_url }}/status/404" }
                expect: { status: 200 }
            """)
        let result = try await Courier.run(files: ["a.yaml", "b.yaml"], workspace: workspace, server: server)
        #expect(result.status == 1, result.context)
        let recap = result.stdout.components(separatedBy: "\nFailed:\n").last ?? ""
        #expect(recap.hasPrefix("  a.yaml:4  orders › list  — status: expected 200, got 500\n"), result.context)
        #expect(recap.contains("  a.yaml:9  orders › count  — json $.count: expected 3, got 2\n"), result.context)
        #expect(recap.contains("  b.yaml:3  users › gone  — status: expected 200, got 404\n"), result.context)
        try check("failing", Self.normalised(result.stdout, server: server), result.context)
    }

    @Test("failed date and HTTP version checks: before/after show both dates as instants, http_version both versions (golden, and the HTML report)")
    func datesAndVersions() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("dates.yaml", """
            name: dates
            continue_on_failure: true
            steps:
              - name: stale
                request:
                  url: "{{ base_url }}/headers"
                  query: { Last-Modified: "Sunday, 06-Nov-94 08:49:37 GMT", X-Expires: "2037-01-01T05:30:00+05:30" }
                expect:
                  headers:
                    Last-Modified: { after: '2000-01-01' }
                    X-Expires: { before: "{{ 'Thu, 01 Jan 2037 00:00:00 GMT' | to_date }}" }
              - name: version
                request: { url: "{{ base_url }}/health" }
                expect: { http_version: "2" }
            """)
        let result = try await Courier.run(files: ["dates.yaml"], workspace: workspace, server: server,
                                           extra: ["--html", "report.html"])
        #expect(result.status == 1, result.context)
        let html = try String(contentsOf: workspace.url.appendingPathComponent("report.html"), encoding: .utf8)
        for shown in ["after &quot;2000-01-01&quot;", "Sunday, 06-Nov-94 08:49:37 GMT", "(1994-11-06T08:49:37.000000Z)",
                      "http_version: expected &quot;2&quot;, got &quot;1.1&quot;"] {
            #expect(html.contains(shown), "the HTML report does not show \(shown)")
        }
        try check("dates-versions", Self.normalised(result.stdout, server: server), result.context)
    }

    @Test("failed capture checks and cookie attributes: each names its capture or attribute with expected and actual (golden, and the HTML report)")
    func captureChecksAndCookieAttributes() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("captures.yaml", """
            name: capture checks
            continue_on_failure: true
            steps:
              - name: checked capture
                request: { method: POST, url: "{{ base_url }}/echo", json: { n: 3, code: eur } }
                capture:
                  n: { json: $.json.n, expect: { gt: 10 } }
                  code: { regex: { json: $.json.code, pattern: '^(\\w+)$' }, expect: { matches: '^[A-Z]{3}$' } }
                expect:
                  json:
                    $.json.n: { lt: "{{ request.json.n }}" }
              - name: cookie attributes
                request: { url: "{{ base_url }}/cookies/attributes" }
                expect:
                  cookies:
                    session: { path: /, same_site: Lax, secure: true }
            """)
        let result = try await Courier.run(files: ["captures.yaml"], workspace: workspace, server: server,
                                           extra: ["--html", "report.html"])
        #expect(result.status == 1, result.context)
        let html = try String(contentsOf: workspace.url.appendingPathComponent("report.html"), encoding: .utf8)
        for shown in ["capture n: expected &gt; 10, got 3", "cookie session same_site: expected &quot;Lax&quot;, got &quot;Strict&quot;"] {
            #expect(html.contains(shown), "the HTML report does not show \(shown)")
        }
        // The echoed body names the server's port.
        let host = server.baseURL.replacingOccurrences(of: "http://", with: "")
        try check("capture-checks", Self.normalised(result.stdout, server: server).replacingOccurrences(of: host, with: "<host>"), result.context)
    }

    /// A step that fails twice (its server counts by `key`) and passes on the third attempt.
    private func runFlakyStep(key: String, extra: [String] = []) async throws -> (ProcessResult, TestServer, String) {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("retry.yaml", """
            name: retried
            steps:
              - name: flaky
                request: { url: "{{ base_url }}/flaky?key=\(key)&fail=2" }
                retry: { attempts: 3, delay: 10ms }
                expect: { status: 200 }
            """)
        let result = try await Courier.run(files: ["retry.yaml"], workspace: workspace, server: server, extra: extra)
        return (result, server, key)
    }

    @Test("failed bytes checks: a digest's expected and actual hex with their diff, equals_file's first difference (golden)")
    func bytes() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try Data([0, 1, 2, 9]).write(to: workspace.url.appendingPathComponent("four.bin"))
        try workspace.write("bytes.yaml", """
            name: bytes
            continue_on_failure: true
            steps:
              - name: digest
                request: { url: "{{ base_url }}/bytes?n=4" }
                expect:
                  bytes: { length: 4, sha256: 0000000000000000000000000000000000000000000000000000000000000000 }
              - name: file
                request: { url: "{{ base_url }}/bytes?n=4" }
                expect: { bytes: { equals_file: four.bin, md5: 37b59afd592725f9305e484a5d7f5168 } }
            """)
        let result = try await Courier.run(files: ["bytes.yaml"], workspace: workspace, server: server)
        #expect(result.status == 1, result.context)
        try check("bytes", Self.normalised(result.stdout, server: server), result.context)
    }

    @Test("failed jwt checks: each reason (tampered, expired, audience, a claim) with a valid JWT expected (golden)")
    func jwt() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("jwt.yaml", """
            name: tokens
            continue_on_failure: true
            vars: { jwt_secret: courier-jwt-test-secret-0123456789 }
            steps:
              - name: tampered
                request: { url: "{{ base_url }}/jwt/tampered" }
                expect: { json: { $.access_token: { jwt: { key: "{{ jwt_secret }}" } } } }
              - name: expired
                request: { url: "{{ base_url }}/jwt/expired" }
                expect: { json: { $.access_token: { jwt: { key: "{{ jwt_secret }}", leeway: 30s } } } }
              - name: audience
                request: { url: "{{ base_url }}/jwt/wrong_audience" }
                expect: { json: { $.access_token: { jwt: { key: "{{ jwt_secret }}", audience: my-api } } } }
              - name: claim
                request: { url: "{{ base_url }}/jwt/valid" }
                expect: { json: { $.access_token: { jwt: { key: "{{ jwt_secret }}", claims: { sub: admin, scope: { contains: delete } } } } } }
            """)
        let result = try await Courier.run(files: ["jwt.yaml"], workspace: workspace, server: server)
        #expect(result.status == 1, result.context)
        // The server signs with its clock and the tokens carry it: instants and tokens vary.
        let console = Self.normalised(result.stdout, server: server)
            .replacingOccurrences(of: #"\d{4}-\d\d-\d\dT[0-9:.]+Z"#, with: "<instant>", options: .regularExpression)
            .replacingOccurrences(of: #"eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+"#, with: "<token>", options: .regularExpression)
        try check("jwt", console, result.context)
    }

    @Test("a retried step: RETRY lines as they happen, the attempts on the step line, every attempt counted as a request (golden)")
    func retried() async throws {
        let (result, server, key) = try await runFlakyStep(key: "console-\(UUID().uuidString.prefix(8))")
        #expect(result.status == 0, result.context)
        #expect(result.stdout.contains(", 3 requests ("), result.context)
        try check("retried", Self.normalised(result.stdout, server: server, key: key), result.context)
    }

    @Test("-v, a step retried twice: attempt 1's exchange, its RETRY line, attempt 2's, its RETRY line, the step's line, attempt 3's (golden)")
    func retriedVerbose() async throws {
        let (result, server, key) = try await runFlakyStep(key: "console-v-\(UUID().uuidString.prefix(8))", extra: ["-v"])
        #expect(result.status == 0, result.context)
        // The Host header libcurl sent names the server's port.
        let host = server.baseURL.replacingOccurrences(of: "http://", with: "")
        let console = Self.normalised(result.stdout, server: server, key: key).replacingOccurrences(of: host, with: "<host>")
        try check("retried-verbose", console, result.context)
    }

    @Test("skipped steps: SKIP lines with their reason; a failed setup's skipped steps are not in the recap (golden)")
    func skipped() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("skip.yaml", """
            name: skipping
            setup:
              - name: prepare
                request: { url: "{{ base_url }}/status/503" }
                expect: { status: 200 }
            steps:
              - name: never
                request: { url: "{{ base_url }}/health" }
            teardown:
              - name: only when asked
                if: "{{ false }}"
                request: { url: "{{ base_url }}/health" }
            """)
        let result = try await Courier.run(files: ["skip.yaml"], workspace: workspace, server: server)
        #expect(result.status == 1, result.context)
        let recap = result.stdout.components(separatedBy: "\nFailed:\n").last ?? ""
        #expect(recap.hasPrefix("  skip.yaml:3  skipping › prepare  — "), result.context)
        #expect(!recap.contains("never"), result.context)
        try check("skipped", Self.normalised(result.stdout, server: server), result.context)
    }

    @Test("an interrupted run: the cancelled step is in the recap, the summary says INTERRUPTED by SIGINT (golden)")
    func interrupted() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("slow.yaml", """
            name: slow
            steps:
              - name: quick
                request: { url: "{{ base_url }}/health" }
              - name: slow one
                request: { url: "{{ base_url }}/delay?ms=20000" }
              - name: never sent
                request: { url: "{{ base_url }}/health" }
            """)
        let result = try await Courier.run(["run", "slow.yaml", "--var", "base_url=\(server.baseURL)"],
                                           in: workspace.url, interruptAfter: .milliseconds(1500))
        #expect(result.status == 130, result.context)
        #expect(result.stdout.contains("\nFailed:\n  slow.yaml:5  slow › slow one  — "), result.context)
        try check("interrupted", Self.normalised(result.stdout, server: server), result.context)
    }

    @Test("-v is live: each step's request and response follow its line at once, with the headers libcurl sent and JSON indented")
    func liveVerbose() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("v.yaml", """
            name: verbose
            steps:
              - name: set cookie
                request: { url: "{{ base_url }}/cookies/set?flavour=plain" }
              - name: post
                request:
                  method: POST
                  url: "{{ base_url }}/echo"
                  json: { a: 1 }
            """)
        let result = try await Courier.run(files: ["v.yaml"], workspace: workspace, server: server, extra: ["-v"])
        #expect(result.status == 0, result.context)
        let out = result.stdout
        // The first step's exchange comes before the second step's line: printed as the step finished.
        let firstExchange = try #require(out.range(of: "set cookie — attempt 1"), result.context)
        let secondLine = try #require(out.range(of: "PASS  post"), result.context)
        #expect(firstExchange.lowerBound < secondLine.lowerBound, result.context)
        let postExchange = String(out[secondLine.lowerBound...])
        // Headers libcurl added, read back from what it sent; the jar's cookie by name, value masked.
        for header in ["> User-Agent: courier/", "> Accept-Encoding: ", "> Cookie: ***", "> Host: 127.0.0.1:"] {
            #expect(postExchange.contains(header), "\(header): \(result.context)")
        }
        // The JSON request body and response indented.
        #expect(postExchange.contains(">\n    {\n      \"a\": 1\n    }"), result.context)
        #expect(postExchange.contains("\n      \"method\": \"POST\",\n"), result.context)
    }

    @Test("-q -v: no step lines, every exchange still shown once, then the failure, the recap and the summary")
    func quietVerbose() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("q.yaml", """
            name: quiet
            steps:
              - name: fine
                request: { url: "{{ base_url }}/health" }
              - name: broken
                request: { url: "{{ base_url }}/status/500" }
                expect: { status: 200 }
            """)
        let result = try await Courier.run(files: ["q.yaml"], workspace: workspace, server: server, extra: ["-q", "-v"])
        #expect(result.status == 1, result.context)
        #expect(!result.stdout.contains("PASS  fine"), result.context)
        #expect(result.stdout.components(separatedBy: "fine — attempt 1").count == 2, result.context)
        #expect(result.stdout.components(separatedBy: "> GET \(server.baseURL)/status/500").count == 2, result.context)
        #expect(result.stdout.contains("Failed:\n  q.yaml:5  quiet › broken  — status: expected 200, got 500\n"), result.context)
    }
}
