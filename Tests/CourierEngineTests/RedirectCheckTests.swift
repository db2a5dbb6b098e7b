@testable import CourierEngine
import CourierHTTP
import CourierJSON
import CourierResults
import CourierWorkflow
import Testing

/// A response that took two redirects: `/start` → `/login?next=%2Fhome&tag=a+b&tag=c` →
/// `https://other/welcome`.
private func redirected() -> HTTPResponse {
    var response = jsonResponse(200, #"{"ok":true}"#)
    response.effectiveURL = "https://other/welcome"
    response.redirects = [
        HTTPRedirectHop(url: "http://h/start", status: 302, headers: ["Location": "/login?next=%2Fhome&tag=a+b&tag=c#top"]),
        HTTPRedirectHop(url: "http://h/login?next=%2Fhome&tag=a+b&tag=c", status: 301, headers: ["Location": "https://other/welcome"]),
    ]
    return response
}

private func check(_ expect: String, response: HTTPResponse = redirected()) async throws -> (results: [ExpectationResult], yaml: String) {
    let yaml = "steps:\n  - request: { url: http://h/start }\n    expect:\n" + expect.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n") + "\n"
    let outcome = try await runStep(yaml, response: response)
    return (outcome.steps[0].attempts.last?.expectations ?? [], yaml)
}

@Suite struct RedirectCheckTests {
    @Test func urlIsTheFinalOne() async throws {
        let (passed, _) = try await check("url: https://other/welcome")
        let record = try #require(passed.first { $0.subject == "url" })
        #expect(record.outcome == .passed && record.actual?.rendered == #""https://other/welcome""#)
        let (results, yaml) = try await check("url: { ends_with: /home }")
        let failure = try #require(results.first { $0.failed })
        #expect(failure.message == #"url: expected to end with "/home""#)
        #expect(failure.actual?.rendered == #""https://other/welcome""#)
        starts(failure.location, at: "ends_with", in: yaml)
    }

    @Test func countOfRedirects() async throws {
        #expect(try await check("redirects: 2").results.allSatisfy { !$0.failed })
        #expect(try await check("redirects: { gte: 1, lt: 3 }").results.allSatisfy { !$0.failed })
        let (results, yaml) = try await check("redirects: 0")
        let failure = try #require(results.first { $0.failed })
        #expect(failure.message == "redirects: expected 0, got 2")
        #expect(failure.expected?.rendered == "0" && failure.actual?.rendered == "2")
        starts(failure.location, at: "0", in: yaml)
    }

    @Test func everyPartOfEveryHop() async throws {
        let (results, _) = try await check("""
        redirects:
          - status: 302
            location: { starts_with: /login }
            url: http://h/start
            query: { next: /home, tag: [a b, c], gone: { exists: false } }
          - { status: { in: [301, 308] }, location: https://other/welcome, query: { next: { exists: false } } }
        """)
        #expect(results.filter(\.failed).map(\.message) == [])
        #expect(results.map(\.subject) == ["status", "redirects", "redirects[0].status", "redirects[0].location", "redirects[0].url",
                                           "redirects[0].query.next", "redirects[0].query.tag", "redirects[0].query.gone",
                                           "redirects[1].status", "redirects[1].location", "redirects[1].query.next"])
        let tag = try #require(results.first { $0.subject == "redirects[0].query.tag" })
        #expect(tag.actual?.rendered == #"["a b", "c"]"# || tag.actual?.rendered.contains("a b") == true)
    }

    @Test func failuresNameTheHopAndPart() async throws {
        let (results, yaml) = try await check("""
        redirects:
          - { status: 301, query: { next: /away } }
          - {}
          - { location: /third }
        """)
        #expect(results.filter(\.failed).map(\.message) == [
            "redirects: expected 3, got 2",
            "redirects[0].status: expected 301, got 302",
            #"redirects[0].query.next: expected "/away", got "/home""#,
            #"redirects[2].location: expected "/third", but there is no value"#,
        ])
        let status = try #require(results.first { $0.subject == "redirects[0].status" })
        starts(status.location, at: "301", in: yaml)
    }

    @Test func noRedirects() async throws {
        let plain = jsonResponse(200, "{}")
        #expect(try await check("redirects: 0", response: plain).results.allSatisfy { !$0.failed })
        let (results, _) = try await check("redirects: [{ status: 302 }]", response: plain)
        #expect(results.filter(\.failed).map(\.message) == ["redirects: expected 1, got 0", "redirects[0].status: expected 302, but there is no value"])
    }

    @Test func templatedQueryNamesAndCounts() async throws {
        let yaml = """
            vars: { param: next, hops: 2 }
            steps:
              - request: { url: http://h/start }
                expect: { redirects: "{{ hops }}" }
              - request: { url: http://h/start }
                expect: { redirects: [{ query: { "{{ param }}": /home } }, {}] }
            """
        let outcome = try await run(yaml, transport: FakeTransport(always: redirected()))
        #expect(outcome.steps.allSatisfy { $0.outcome.isPassed })
    }

    @Test func queryDecoding() {
        #expect(ResponseView.query(of: "/a?x=1&y=a+b%20c&x=2&flag&empty=#frag=1") == JSONObject([
            ("x", ["1", "2"]), ("y", "a b c"), ("flag", ""), ("empty", ""),
        ]))
        #expect(ResponseView.query(of: "/a?bad=%zz%4") == JSONObject([("bad", "%zz%4")]))
        #expect(ResponseView.query(of: "https://h/no-query#x?y=1") == JSONObject([]))
        #expect(ResponseView.query(of: "?caf%C3%A9=%E2%82%AC") == JSONObject([("café", "€")]))
    }

    // MARK: - Captures and steps.<id>

    @Test func capturesAndStepValuesReachLaterSteps() async throws {
        let yaml = """
            steps:
              - id: first
                request: { url: http://h/start, query: { q: 1 } }
                capture: { final: { url: true }, hops: { redirects: true } }
              - request:
                  url: http://h/next
                  query:
                    final: "{{ final }}"
                    same: "{{ steps.first.url }}"
                    asked: "{{ steps.first.request.url }}"
                    method: "{{ steps.first.request.method }}"
                    count: "{{ hops | length }}"
                    location: "{{ hops[0].location }}"
                    next: "{{ steps.first.redirects[0].query.next }}"
                    second: "{{ steps.first.redirects[1].status }}"
            """
        let transport = FakeTransport(always: redirected())
        let outcome = try await run(yaml, transport: transport)
        #expect(outcome.steps.allSatisfy { $0.outcome.isPassed })
        let sent = try #require(transport.requests.last?.url)
        let query = ResponseView.query(of: sent)
        #expect(query["final"] == "https://other/welcome" && query["same"] == "https://other/welcome")
        #expect(query["asked"] == "http://h/start?q=1" && query["method"] == "GET")
        #expect(query["count"] == "2" && query["location"] == "/login?next=%2Fhome&tag=a+b&tag=c#top")
        #expect(query["next"] == "/home" && query["second"] == "301")
        let hops = try #require(outcome.steps[0].attempts.last?.expectations.first { $0.subject == "capture hops" })
        #expect(hops.actual?.rendered.contains(#""status": 302"#) == true, "\(hops.actual?.rendered ?? "")")
    }

    // MARK: - cookie: and trusted redirects, as the request is built

    @Test func cookieAndTrustReachTheTransport() async throws {
        let yaml = """
            vars: { s: abc, k: theme }
            steps:
              - request:
                  url: http://h/a
                  cookie: { session: "{{ s }}", "{{ k }}": dark }
                  follow_redirects: { trusted: true }
              - request: { url: http://h/b }
            """
        let transport = FakeTransport()
        let outcome = try await run(yaml, transport: transport)
        #expect(outcome.steps.allSatisfy { $0.outcome.isPassed })
        let requests = transport.requests
        #expect(requests.count == 2)
        #expect(requests[0].options.cookie == "session=abc; theme=dark")
        #expect(requests[0].options.unrestrictedAuth && requests[0].options.followRedirects)
        #expect(requests[1].options.cookie == nil && !requests[1].options.unrestrictedAuth)
        #expect(!requests[0].headers.contains("Cookie"), "sent by libcurl's cookie engine, not as a header")
    }

    @Test func aRenderedCookieThatWouldBreakTheLineIsAStepError() async throws {
        for (cookie, message) in [("{ c: \"{{ v }}\" }", "the value of cookie 'c' contains ';'; percent-encode it (e.g. with '| url_encode')"),
                                  ("{ \"{{ n }}\": 1 }", "the cookie name 'x y' contains a space")] {
            let yaml = """
                vars: { v: "a;b", n: "x y" }
                steps:
                  - request: { url: http://h/a, cookie: \(cookie) }
                """
            let transport = FakeTransport()
            let outcome = try await run(yaml, transport: transport)
            #expect(transport.requests.isEmpty, "nothing is sent")
            let error = try #require(outcome.steps[0].outcome.error)
            #expect(error.message == message)
            starts(error.location, at: cookie.contains("{{ v }}") ? "\"{{ v }}\"" : "\"{{ n }}\"", in: yaml)
        }
    }

    @Test func defaultsTrustIsReplacedByARequestsPlainFollow() async throws {
        let yaml = """
            defaults: { follow_redirects: { trusted: true } }
            steps:
              - request: { url: http://h/a }
              - request: { url: http://h/b, follow_redirects: true }
            """
        let transport = FakeTransport()
        _ = try await run(yaml, transport: transport)
        #expect(transport.requests.map(\.options.unrestrictedAuth) == [true, false])
    }
}
