import CourierDiagnostics
@testable import CourierWorkflow
import Testing

/// `expect.url`, `expect.redirects`, the `url`/`redirects` captures, a request's `cookie:` and
/// `follow_redirects: { trusted: true }` as the decoder reads them: valid forms, and errors at
/// their file:line:col with a did-you-mean.
@Suite struct RedirectDecodingTests {
    private func step(_ body: String) -> String {
        "steps:\n  - request: { url: http://h/ }\n\(body)"
    }

    private func workflow(_ text: String) throws -> Workflow {
        try decode(text).get()
    }

    /// The first error of `text`: its message and where it points, as `line:column`.
    private func error(_ text: String) -> (message: String, at: String)? {
        guard case .failure(let list) = decode(text), let first = list.diagnostics.first, let range = first.range else { return nil }
        return (first.message, "\(range.start.line):\(range.start.column)")
    }

    /// `line:column` of the first `needle` in `text` (1-based).
    private func place(of needle: String, in text: String) -> String {
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if let found = line.range(of: needle) { return "\(index + 1):\(line[..<found.lowerBound].count + 1)" }
        }
        return "(\(needle) not found)"
    }

    // MARK: - expect.url

    @Test func urlTakesAValueOrPredicates() throws {
        let plain = try workflow(step("    expect: { url: \"http://h/welcome\" }\n")).steps[0].expect.items
        #expect(plain.count == 1)
        guard case .url = plain[0].target, case .matcher(.equals) = plain[0].check else {
            Issue.record("expected an equality on the url")
            return
        }
        let predicates = try workflow(step("    expect: { url: { ends_with: /welcome, contains: h } }\n")).steps[0].expect.items
        guard case .matcher(.predicates(let list, _)) = predicates[0].check else {
            Issue.record("expected predicates")
            return
        }
        #expect(list.map(\.definition.shape.key) == ["ends_with", "contains"])
    }

    @Test func urlPredicateTypoIsSuggested() {
        let found = error(step("    expect: { url: { ends_wiht: /x } }\n"))
        #expect(found?.message == "unknown predicate 'ends_wiht'; did you mean 'ends_with'?")
        #expect(found?.at == "3:22")
    }

    // MARK: - expect.redirects

    @Test func redirectsAsACount() throws {
        let items = try workflow(step("    expect: { redirects: 2 }\n")).steps[0].expect.items
        #expect(items.count == 1)
        guard case .redirectCount = items[0].target, case .matcher(.equals(let value)) = items[0].check else {
            Issue.record("expected a count")
            return
        }
        #expect(value.literalJSON == 2)
        let ranged = try workflow(step("    expect: { redirects: { gte: 1, lt: 4 } }\n")).steps[0].expect.items
        guard case .redirectCount = ranged[0].target, case .matcher(.predicates(let list, _)) = ranged[0].check else {
            Issue.record("expected predicates on the count")
            return
        }
        #expect(list.count == 2)
        let templated = try workflow("vars: { n: 1 }\n" + step("    expect: { redirects: \"{{ n }}\" }\n")).steps[0].expect.items
        #expect(templated.count == 1)
    }

    @Test func redirectsAsAListOfHops() throws {
        let text = step("""
                expect:
                  redirects:
                    - { status: 302, location: /login, url: { ends_with: /start }, query: { next: /home, "{{ p }}": { exists: true } } }
                    - {}
                    - { location: { starts_with: "https://" } }

            """)
        let items = try workflow("vars: { p: page }\n" + text).steps[0].expect.items
        let targets = items.map { item -> String in
            switch item.target {
            case .redirectCount: return "count"
            case .redirect(let index, .query(let name)): return "\(index).query.\(name.literalText ?? "{{}}")"
            case .redirect(let index, let part): return "\(index).\(part.key)"
            default: return "other"
            }
        }
        #expect(targets == ["count", "0.status", "0.location", "0.url", "0.query.next", "0.query.{{}}", "2.location"])
        // The list says how many: three hops.
        guard case .matcher(.equals(let count)) = items[0].check else {
            Issue.record("the count of a list is an equality")
            return
        }
        #expect(count.literalJSON == 3)
    }

    @Test(arguments: [
        ("    expect: { redirects: [{ locaton: /x }] }\n", "unknown key 'locaton' in redirects[0]; did you mean 'location'?", "locaton"),
        ("    expect: { redirects: [{ status: 302 }, { stauts: 301 }] }\n", "unknown key 'stauts' in redirects[1]; did you mean 'status'?", "stauts"),
        ("    expect: { redirects: { status: 302 } }\n",
         "a list of hops is a sequence; write 'redirects: [{ status: … }]' (a mapping here is a predicate map on the count)", "{ status"),
        ("    expect: { redirects: two }\n",
         "invalid 'redirects' 'two'; expected a number of redirects like 2, a template, a predicate map like { gte: 1 } or a list of hops like [{ status: 302 }]",
         "two"),
        ("    expect: { redirects: -1 }\n",
         "invalid 'redirects' '-1'; expected a number of redirects like 2, a template, a predicate map like { gte: 1 } or a list of hops like [{ status: 302 }]",
         "-1"),
        ("    expect: { redirects: { gtee: 1 } }\n", "unknown predicate 'gtee'; did you mean 'gte'?", "gtee"),
        ("    expect: { redirects: [{ query: [a] }] }\n", "expected a mapping for 'query', found a sequence", "[a]"),
        ("    expect: { redirects: [5] }\n", "expected a mapping for redirects[0], found a number", "5]"),
        ("    expect: { redirect: 1 }\n", "unknown key 'redirect' in expect; did you mean 'redirects'?", "redirect:"),
        ("    expect: { ulr: x }\n", "unknown key 'ulr' in expect; did you mean 'url'?", "ulr"),
    ] as [(String, String, String)])
    func redirectErrors(body: String, message: String, at needle: String) {
        let found = error(step(body))
        #expect(found?.message == message, "\(String(describing: found))")
        #expect(found?.at == place(of: needle, in: step(body)), "\(String(describing: found))")
    }

    // MARK: - Captures

    @Test func urlAndRedirectsCaptures() throws {
        let captures = try workflow(step("    capture: { final: { url: true }, hops: { redirects: true } }\n")).steps[0].capture
        guard captures.count == 2, case .url = captures[0].source, case .redirects = captures[1].source else {
            Issue.record("expected url and redirects captures")
            return
        }
        let found = error(step("    capture: { final: { url: false } }\n"))
        #expect(found?.message == "'url: false' captures nothing; write 'url: true' or remove the capture")
        #expect(found?.at == "3:30")
        #expect(messages(step("    capture: { final: { ulr: true } }\n")).contains("unknown key 'ulr' in capture 'final'; did you mean 'url'?"))
    }

    // MARK: - cookie:

    @Test func cookieMap() throws {
        let request = try workflow("vars: { s: abc }\nsteps:\n  - request: { url: http://h/, cookie: { session: \"{{ s }}\", theme: dark } }\n")
            .steps[0].request
        let cookie = try #require(request?.cookie)
        #expect(cookie.map { $0.name.literalText } == ["session", "theme"])
        #expect(cookie[1].value.literalText == "dark" && cookie[0].value.literalText == nil)
    }

    @Test(arguments: [
        ("  - request: { url: http://h/, cookie: true }\n",
         "'cookie' is a map of cookies to send, like { session: abc }; to turn the cookie jar on write 'cookies: true'", "true"),
        ("  - request: { url: http://h/, cookies: { session: abc } }\n",
         "'cookies' turns the cookie jar on or off (true or false) or picks its cookies ({ only: [name, …] }); to send cookies write 'cookie: { name: value }' in the request", "{ session"),
        ("  - request: { url: http://h/, cookie: { \"a b\": x } }\n", "the cookie name 'a b' contains a space", "\"a b\""),
        ("  - request: { url: http://h/, cookie: { a=b: x } }\n", "the cookie name 'a=b' contains '='", "a=b"),
        ("  - request: { url: http://h/, cookie: { a: \"x;y=1\" } }\n",
         "the value of cookie 'a' contains ';'; percent-encode it (e.g. with '| url_encode')", "\"x;y=1\""),
        ("  - request: { url: http://h/, cokie: { a: b } }\n", "unknown key 'cokie' in request; did you mean 'cookie'?", "cokie"),
    ] as [(String, String, String)])
    func cookieErrors(line: String, message: String, at needle: String) {
        let found = error("steps:\n" + line)
        #expect(found?.message == message, "\(String(describing: found))")
        #expect(found?.at == place(of: needle, in: "steps:\n" + line), "\(String(describing: found))")
    }

    @Test func cookieIsPerRequest() {
        let found = error("defaults: { cookie: { a: b } }\nsteps:\n  - request: { url: http://h/ }\n")
        #expect(found?.message == "'cookie' (cookies to send) is per request; put it in the request, or set a 'Cookie' header in defaults")
        #expect(found?.at == "1:13")
    }

    // MARK: - clear_cookies:

    @Test func clearCookies() throws {
        let steps = try workflow("""
            steps:
              - request: { url: http://h/, clear_cookies: session }
              - request: { url: http://h/, clear_cookies: all }
              - request: { url: http://h/ }
            """).steps
        #expect(steps.map { $0.request?.clearCookies } == [.session, .all, nil])
    }

    @Test(arguments: [
        ("  - request: { url: http://h/, clear_cookies: sesion }\n", "invalid value 'sesion' for 'clear_cookies'; did you mean 'session'?", "sesion"),
        ("  - request: { url: http://h/, clear_cookies: true }\n", "invalid value 'true' for 'clear_cookies'; expected one of 'session', 'all'", "true"),
        ("  - request: { url: http://h/, clear_cookie: all }\n", "unknown key 'clear_cookie' in request; did you mean 'clear_cookies'?", "clear_cookie"),
    ] as [(String, String, String)])
    func clearCookiesErrors(line: String, message: String, at needle: String) {
        let found = error("steps:\n" + line)
        #expect(found?.message == message, "\(String(describing: found))")
        #expect(found?.at == place(of: needle, in: "steps:\n" + line), "\(String(describing: found))")
    }

    @Test func clearCookiesIsPerRequest() {
        let found = error("defaults: { clear_cookies: all }\nsteps:\n  - request: { url: http://h/ }\n")
        #expect(found?.message == "'clear_cookies' empties the jar once, before one request; put it in the request that should start without them")
        #expect(found?.at == "1:13")
    }

    // MARK: - cookies: { only: [...] }

    @Test func onlyCookies() throws {
        let w = try workflow("""
            defaults: { cookies: { only: [session, csrf] } }
            steps:
              - request: { url: http://h/ }
              - request: { url: http://h/, cookies: true }
              - request: { url: http://h/, cookies: { only: [csrf] } }
            """)
        #expect(w.defaults.cookies == true && w.defaults.onlyCookies == ["session", "csrf"])
        let layered = w.steps.map { RequestOptions.layered(request: $0.request?.options ?? RequestOptions(), defaults: w.defaults, commandLine: RequestOptions(), builtIns: RequestOptions(cookies: true)) }
        // The layer that sets `cookies` decides the choice: `true` sends them all again.
        #expect(layered.map(\.onlyCookies) == [["session", "csrf"], nil, ["csrf"]])
    }

    @Test(arguments: [
        ("  - request: { url: http://h/, cookies: { only: [] } }\n",
         "'cookies.only' needs at least one cookie name; to send none of the jar's cookies write 'cookies: false'", "[]"),
        ("  - request: { url: http://h/, cookies: { only: [a, \"b c\"] } }\n", "the cookie name 'b c' contains a space", "\"b c\""),
        ("  - request: { url: http://h/, cookies: { only: [a], onyl: [b] } }\n", "unknown key 'onyl' in 'cookies'; did you mean 'only'?", "onyl"),
        ("  - request: { url: http://h/, cookies: { only: a } }\n", "expected a sequence for 'cookies.only', found a string", "a }"),
    ] as [(String, String, String)])
    func onlyCookiesErrors(line: String, message: String, at needle: String) {
        let found = error("steps:\n" + line)
        #expect(found?.message == message, "\(String(describing: found))")
        #expect(found?.at == place(of: needle, in: "steps:\n" + line), "\(String(describing: found))")
    }

    // MARK: - follow_redirects: { trusted: true }

    @Test func trustedRedirects() throws {
        let trusted = try workflow("steps:\n  - request: { url: http://h/, follow_redirects: { trusted: true } }\n").steps[0].request?.options
        #expect(trusted?.followRedirects == true && trusted?.trustedRedirects == true)
        // A plain `true` or `false` trusts no other host, whatever a lower layer said.
        let plain = try workflow("steps:\n  - request: { url: http://h/, follow_redirects: true }\n").steps[0].request?.options
        #expect(plain?.followRedirects == true && plain?.trustedRedirects == false)
        let defaults = try workflow("defaults: { follow_redirects: { trusted: true } }\nsteps:\n  - request: { url: http://h/ }\n").defaults
        #expect(defaults.trustedRedirects == true)
    }

    @Test(arguments: [
        ("  - request: { url: http://h/, follow_redirects: { trustd: true } }\n",
         "unknown key 'trustd' in 'follow_redirects'; did you mean 'trusted'?", "trustd"),
        ("  - request: { url: http://h/, follow_redirects: { trusted: yes } }\n",
         "expected true or false for 'trusted', found a string ('yes' is a string in YAML 1.2; write true or false)", "yes"),
        ("  - request: { url: http://h/, follow_redirects: {} }\n", "missing required key 'trusted' in 'follow_redirects'", "{}"),
    ] as [(String, String, String)])
    func trustedErrors(line: String, message: String, at needle: String) {
        let found = error("steps:\n" + line)
        #expect(found?.message == message, "\(String(describing: found))")
        #expect(found?.at == place(of: needle, in: "steps:\n" + line), "\(String(describing: found))")
    }
}
