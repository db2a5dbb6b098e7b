import Foundation
import Testing

/// Redirects and URLs against real servers: `expect.url`, `expect.redirects`, the `url` and
/// `redirects` captures, `steps.<id>.url` and `.request.url`, a request's `cookie:` and
/// `follow_redirects: { trusted: true }`, through several hops and on to another host
/// (`localhost` for `127.0.0.1`) and another server's port.
@Suite struct RedirectTests {
    @Test("expect.url and expect.redirects check every hop's status, location, url and decoded query; captures and steps.<id> reach later steps")
    func hopsAndURLs() async throws {
        let http = try await TransportFixtures.shared.server(.http)
        let other = try await TransportFixtures.shared.server(.httpOther)
        let base = http.baseURL
        let final = "http://localhost:\(other.port)/echo?landed=1"
        let encodedFinal = final.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let run = try await TransportRun.run("""
            name: hops
            steps:
              - id: chain
                name: three hops, the last to another host and port
                request: { url: "\(base)/redirect/3", query: { next: /home, tag: a b, to: "\(final)" } }
                expect:
                  status: 200
                  url: "\(final)"
                  redirects:
                    - status: 302
                      url: { starts_with: "\(base)/redirect/3?" }
                      location: { starts_with: "/redirect/2?" }
                      query: { next: /home, tag: a b, to: "\(final)" }
                    - { status: 302, location: { starts_with: "/redirect/1?" } }
                    - { status: 302, location: "\(final)", url: { starts_with: "\(base)/redirect/1?" }, query: { landed: "1" } }
                  json: { "$.headers[?@[0] == 'Host'][1]": ["localhost:\(other.port)"] }
                capture:
                  landed: { url: true }
                  hops: { redirects: true }
              - name: later steps read them
                request:
                  url: \(base)/echo
                  query:
                    final: "{{ steps.chain.url }}"
                    asked: "{{ steps.chain.request.url }}"
                    captured: "{{ landed }}"
                    count: "{{ hops | length }}"
                    first: "{{ steps.chain.redirects[0].status }}"
                    next: "{{ hops[0].query.next }}"
                expect:
                  redirects: 0
                  url: { starts_with: "\(base)/echo?final=" }
                  json:
                    $.query.final: ["\(final)"]
                    $.query.asked: ["\(base)/redirect/3?next=%2Fhome&tag=a%20b&to=\(encodedFinal)"]
                    $.query.captured: ["\(final)"]
                    $.query.count: ["3"]
                    $.query.first: ["302"]
                    $.query.next: [/home]
              - name: not followed
                request: { url: "\(base)/redirect/1", follow_redirects: false }
                expect: { status: 302, redirects: 0, url: "\(base)/redirect/1" }
              - name: wrong on purpose
                request: { url: "\(base)/redirect/2?status=307" }
                expect:
                  url: { ends_with: /elsewhere }
                  redirects: [{ status: 301, query: { status: "308" } }, { location: /nowhere }, { status: 302 }]
            """, arguments: ["--json", "report.json"])
        #expect(run.result.status == 1, run.result.context)
        let out = run.result.stdout
        for step in ["three hops, the last to another host and port", "later steps read them", "not followed"] {
            #expect(out.line(containing: "PASS", step) != nil, "\(step)\n\(run.result.context)")
        }
        // Every failure of the step, each with its expected and actual values.
        for line in [#"url: expected to end with "/elsewhere""#, "redirects: expected 3, got 2",
                     "redirects[0].status: expected 301, got 307", #"redirects[0].query.status: expected "308", got "307""#,
                     #"redirects[1].location: expected "/nowhere", got "/echo?status=307""#,
                     "redirects[2].status: expected 302, but there is no value",
                     "  expected: 301", "  actual:   307"] {
            #expect(out.contains(line), "missing '\(line)'\n\(run.result.context)")
        }
        let failure = try #require(run.junit?.testCase("wrong on purpose")?.failure, run.result.context)
        #expect(failure.text.contains("redirects[0].status: expected 301, got 307"), "\(failure.text)")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: run.workspace.url.appendingPathComponent("report.json")))
        let text = String(decoding: try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]), as: UTF8.self)
        #expect(text.contains(#""subject":"redirects[0].query.tag""#), "passed hop checks are recorded")
        #expect(text.contains(#"{"json":"\/home"}"#) || text.contains(#"{"json":"/home"}"#))
    }

    @Test("cookie: goes with every hop, to another host too, beside the jar's; trusted redirects forward Authorization, plain ones drop it")
    func cookiesAndTrust() async throws {
        let http = try await TransportFixtures.shared.server(.http)
        let base = http.baseURL
        let elsewhere = "http://localhost:\(http.port)/echo"
        let run = try await TransportRun.run("""
            name: credentials
            steps:
              - name: the jar gets one
                request: { url: "\(base)/cookies/set?jar=1" }
              - name: own cookies, same host
                request: { url: "\(base)/redirect/2", cookie: { session: abc, theme: dark } }
                expect:
                  redirects: 2
                  json: { "$.headers[?@[0] == 'Cookie'][1]": ["jar=1; session=abc; theme=dark"] }
              - name: own cookies, another host
                request:
                  url: "\(base)/redirect-to"
                  query: { url: "\(elsewhere)" }
                  cookie: { session: abc }
                  auth: { bearer: token-abc-123 }
                expect:
                  url: "\(elsewhere)"
                  json:
                    "$.headers[?@[0] == 'Cookie'][1]": [session=abc]
                    "$.headers[?@[0] == 'Authorization']": []
              - name: trusted
                request:
                  url: "\(base)/redirect-to"
                  query: { url: "\(elsewhere)" }
                  auth: { bearer: token-abc-123 }
                  follow_redirects: { trusted: true }
                expect:
                  url: "\(elsewhere)"
                  json: { "$.headers[?@[0] == 'Authorization'][1]": [Bearer token-abc-123] }
              - name: the jar is untouched
                request: { url: "\(base)/cookies" }
                expect: { json: { $.cookies: { jar: "1" } } }
            """, arguments: ["--verbose", "--json", "report.json"])
        #expect(run.result.status == 0, run.result.context)
        // What libcurl sent on the hop shows the cookie line, masked as a credential.
        #expect(run.result.stdout.contains("> Cookie: ***"), run.result.context)
        #expect(!run.result.stdout.contains("token-abc-123"), "the bearer token is masked")
    }

    @Test("--curl prints cookie: as -b (a secret variable) and trusted redirects as --location-trusted")
    func curlCommand() async throws {
        let http = try await TransportFixtures.shared.server(.http)
        let run = try await TransportRun.run("""
            name: curl
            steps:
              - name: fails to print its command
                request: { url: "\(http.baseURL)/redirect/1", cookie: { theme: dark }, follow_redirects: { trusted: true } }
                expect: { redirects: 2 }
            """, arguments: ["--curl"])
        #expect(run.result.status == 1, run.result.context)
        // The cookie libcurl sent is a credential: a shell variable, as the jar's cookies are.
        #expect(run.result.stdout.contains(#"curl -b "$COURIER_SECRET_1" --location-trusted --max-redirs 10"#), run.result.context)
        #expect(!run.result.stdout.contains("theme=dark"), run.result.context)
    }
}
