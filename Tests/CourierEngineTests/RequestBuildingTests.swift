@testable import CourierEngine
import CourierHTTP
import CourierJSON
import CourierWorkflow
import Foundation
import Testing

/// Runs a workflow whose single step is `request` (YAML lines indented for a step's
/// `request:` mapping) under `defaults`, and returns the request the engine sent.
private func sentRequest(_ request: String, defaults: String? = nil, vars: String? = nil,
                         settings: RunSettings = RunSettings(), path: String = testWorkflowPath) async throws -> HTTPRequest {
    var yaml = ""
    if let vars { yaml += "vars:\n" + indent(vars, by: 2) + "\n" }
    if let defaults { yaml += "defaults:\n" + indent(defaults, by: 2) + "\n" }
    yaml += "steps:\n  - request:\n" + indent(request, by: 6) + "\n"
    let outcome = try await run(yaml, settings: settings, path: path)
    if let error = outcome.steps.first?.outcome.error {
        Issue.record("the step errored: \(error.type): \(error.message)")
    }
    return try #require(outcome.requests.first)
}

private func indent(_ text: String, by spaces: Int) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
        .map { String(repeating: " ", count: spaces) + $0 }
        .joined(separator: "\n")
}

// MARK: - URLs

@Suite struct URLBuildingTests {
    @Test(arguments: [
        ("http://h/api", "/users", "http://h/api/users"),
        ("http://h/api", "users", "http://h/api/users"),
        ("http://h/api/", "/users", "http://h/api/users"),
        ("http://h/api/", "users", "http://h/api/users"),
        ("http://h:8080", "/users", "http://h:8080/users"),
        ("http://h:8080/", "users/7?x=1", "http://h:8080/users/7?x=1"),
        ("http://h/api/v2", "/users", "http://h/api/v2/users"),
    ])
    func baseURLJoining(base: String, url: String, expected: String) async throws {
        let request = try await sentRequest("url: \"\(url)\"", defaults: "base_url: \"\(base)\"")
        #expect(request.url == expected)
    }

    @Test func absoluteURLsIgnoreTheBaseURL() async throws {
        let request = try await sentRequest("url: https://other.example/x?y=1", defaults: "base_url: http://h/api")
        #expect(request.url == "https://other.example/x?y=1")
    }

    @Test func baseURLFromAVariable() async throws {
        let request = try await sentRequest("url: /ping", defaults: "base_url: \"{{ base }}\"", vars: "base: http://127.0.0.1:9/root")
        #expect(request.url == "http://127.0.0.1:9/root/ping")
    }

    @Test func relativeURLWithoutBaseURLIsATemplateError() async throws {
        let outcome = try await run("steps:\n  - request: { url: /users }\n")
        let error = try #require(outcome.steps.first?.outcome.error)
        #expect(error.message == "'/users' is not an absolute URL and no base_url is set; write http://host/… or set defaults.base_url")
        #expect(outcome.requests.isEmpty)
    }

    @Test func queryValuesArePercentEncoded() async throws {
        let request = try await sentRequest("""
        url: http://h/search
        query:
          q: "a b&c=d"
          plus: "1+1"
          path: "/x?y#z"
          unicode: "é日"
          page: 2
          safe: "A-z_0.9~"
        """)
        #expect(request.url == "http://h/search?q=a%20b%26c%3Dd&plus=1%2B1&path=%2Fx%3Fy%23z&unicode=%C3%A9%E6%97%A5&page=2&safe=A-z_0.9~")
    }

    @Test func aListValueRepeatsTheParameter() async throws {
        let request = try await sentRequest("""
        url: http://h/items
        query: { tag: [red, "big one"], id: 1 }
        """)
        #expect(request.url == "http://h/items?tag=red&tag=big%20one&id=1")
    }

    @Test func queryNamesAreEncodedToo() async throws {
        let request = try await sentRequest("""
        url: http://h/items
        query: { "a b": 1, "filter[name]": x }
        """)
        #expect(request.url == "http://h/items?a%20b=1&filter%5Bname%5D=x")
    }

    @Test func queryExtendsAnExistingQueryString() async throws {
        let request = try await sentRequest("""
        url: http://h/items?sort=asc
        query: { page: 2 }
        """)
        #expect(request.url == "http://h/items?sort=asc&page=2")
    }

    @Test func queryGoesBeforeTheFragment() async throws {
        let request = try await sentRequest("""
        url: "http://h/items#top"
        query: { page: 2 }
        """)
        #expect(request.url == "http://h/items?page=2#top")
    }

    @Test func queryValuesFromTemplates() async throws {
        let request = try await sentRequest("""
        url: http://h/items
        query: { ids: "{{ ids }}", who: "{{ name }}" }
        """, vars: "ids: [1, 2]\nname: \"Ada L\"")
        #expect(request.url == "http://h/items?ids=1&ids=2&who=Ada%20L")
    }
}

// MARK: - Methods

@Suite struct MethodTests {
    @Test(arguments: [
        ("method: post", "POST"),
        ("method: PURGE", "PURGE"),
        ("method: Patch", "PATCH"),
        ("method: \"{{ verb }}\"", "DELETE"),
        ("", "GET"),
    ])
    func methods(_ line: String, expected: String) async throws {
        let request = try await sentRequest("url: http://h/x\n" + line, vars: "verb: delete")
        #expect(request.method == expected)
    }
}

// MARK: - Headers and auth

@Suite struct HeaderTests {
    @Test func requestHeadersMergeOverDefaults() async throws {
        let request = try await sentRequest("""
        url: http://h/x
        headers:
          accept: text/plain
          X-Trace: null
          X-New: "{{ who }}"
        """, defaults: """
        headers:
          Accept: application/json
          X-Trace: "1"
          User-Agent: courier-test
        """, vars: "who: ada")
        #expect(request.headers.values(for: "Accept") == ["text/plain"], "overridden case-insensitively, sent once")
        #expect(!request.headers.contains("X-Trace"), "null removes a default")
        #expect(request.headers["User-Agent"] == "courier-test")
        #expect(request.headers["X-New"] == "ada")
    }

    @Test func defaultsApplyWhenTheRequestHasNoHeaders() async throws {
        let request = try await sentRequest("url: http://h/x", defaults: "headers: { Accept: application/json }")
        #expect(request.headers["accept"] == "application/json")
    }

    @Test func anEmptyHeaderValueIsSentEmpty() async throws {
        let request = try await sentRequest("url: http://h/x\nheaders: { X-Empty: \"\" }")
        #expect(request.headers.values(for: "X-Empty") == [""])
    }

    @Test func bearerAuth() async throws {
        let request = try await sentRequest("url: http://h/x\nauth: { bearer: \"{{ token }}\" }", vars: "token: t0k.en")
        #expect(request.headers["Authorization"] == "Bearer t0k.en")
    }

    @Test func basicAuth() async throws {
        let request = try await sentRequest("url: http://h/x\nauth: { basic: { username: ada, password: \"p:ss wörd\" } }")
        let expected = "Basic " + Data("ada:p:ss wörd".utf8).base64EncodedString()
        #expect(request.headers["Authorization"] == expected)
    }

    @Test func digestAuthIsLeftToLibcurl() async throws {
        let request = try await sentRequest("url: http://h/x\nauth: { digest: { username: \"{{ user }}\", password: \"p:ss wörd\" } }",
                                            vars: "user: ada")
        // No header: libcurl answers the server's challenge with `Authorization: Digest …`.
        #expect(!request.headers.contains("Authorization"))
        guard case .digest(let username, let password)? = request.options.authentication else {
            Issue.record("no digest credentials: \(String(describing: request.options.authentication))")
            return
        }
        #expect(username == "ada" && password == "p:ss wörd")
    }

    @Test func digestAuthFromDefaultsGivesWayToTheRequestsOwn() async throws {
        let digest = "auth: { digest: { username: ada, password: pw-1234 } }"
        let fromDefaults = try await sentRequest("url: http://h/x", defaults: digest)
        #expect(fromDefaults.options.authentication != nil)
        let own = try await sentRequest("url: http://h/x\nauth: { bearer: t0k }", defaults: digest)
        #expect(own.options.authentication == nil)
        #expect(own.headers["Authorization"] == "Bearer t0k")
        let none = try await sentRequest("url: http://h/x\nauth: none", defaults: digest)
        #expect(none.options.authentication == nil)
    }

    @Test func headerAuth() async throws {
        let request = try await sentRequest("url: http://h/x\nauth: { header: { name: X-API-Key, value: \"{{ env.KEY }}\" } }",
                                            settings: { var s = RunSettings(); s.environment = ["KEY": "k-1"]; return s }())
        #expect(request.headers["x-api-key"] == "k-1")
    }

    @Test func authReplacesADefaultAuthorizationHeader() async throws {
        let request = try await sentRequest("url: http://h/x\nauth: { bearer: new }", defaults: "headers: { Authorization: Bearer old }")
        #expect(request.headers.values(for: "Authorization") == ["Bearer new"])
    }

    @Test func authNoneAddsNothing() async throws {
        let request = try await sentRequest("url: http://h/x\nauth: none")
        #expect(!request.headers.contains("Authorization"))
    }
}

// MARK: - Bodies

@Suite struct BodyTests {
    @Test func jsonBodyIsSerializedWithTypesKept() async throws {
        let request = try await sentRequest("""
        method: POST
        url: http://h/x
        json: { id: "{{ n }}", name: "user {{ n }}", price: 1.50, tags: [a, "{{ flag }}"], none: null, nested: { ok: true } }
        """, vars: "n: 5\nflag: true")
        #expect(request.bodyText == #"{"id":5,"name":"user 5","price":1.50,"tags":["a",true],"none":null,"nested":{"ok":true}}"#)
        #expect(request.headers.values(for: "Content-Type") == ["application/json"])
    }

    @Test func jsonBodyKeepsAUserContentType() async throws {
        let request = try await sentRequest("""
        method: POST
        url: http://h/x
        headers: { content-type: application/vnd.api+json }
        json: [1, 2]
        """)
        #expect(request.headers.values(for: "Content-Type") == ["application/vnd.api+json"])
        #expect(request.bodyText == "[1,2]")
    }

    @Test func jsonBodyKeepsADefaultContentType() async throws {
        let request = try await sentRequest("method: POST\nurl: http://h/x\njson: { a: 1 }",
                                            defaults: "headers: { Content-Type: application/merge-patch+json }")
        #expect(request.headers.values(for: "Content-Type") == ["application/merge-patch+json"])
    }

    @Test func jsonScalarBodies() async throws {
        #expect(try await sentRequest("method: POST\nurl: http://h/x\njson: \"text\"").bodyText == #""text""#)
        #expect(try await sentRequest("method: POST\nurl: http://h/x\njson: null").bodyText == "null")
    }

    @Test func formEscapesReservedCharactersAndDropsNothing() async throws {
        let fields: [(String, String)] = [("a", "x&y=z"), ("b", "1+1 %"), ("c", ""), ("d e", "é/?#"), ("f", "plain")]
        let yaml = "method: POST\nurl: http://h/x\nform:\n" + fields.map { "  \"\($0.0)\": \"\($0.1)\"" }.joined(separator: "\n")
        let request = try await sentRequest(yaml)
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        let body = try #require(request.bodyText)
        let pairs = body.split(separator: "&", omittingEmptySubsequences: false)
        #expect(pairs.count == fields.count, "one pair per field: \(body)")
        // Decoding as a form decoder would (`+` is a space) gives back exactly what was written.
        let decoded: [(String, String)] = pairs.map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "<bad encoding>"
            }
            return (parts[0], parts.count > 1 ? parts[1] : "<no '='>")
        }
        #expect(decoded.map(\.0) == fields.map(\.0))
        #expect(decoded.map(\.1) == fields.map(\.1))
    }

    @Test func formKeepsAUserContentType() async throws {
        let request = try await sentRequest("""
        method: POST
        url: http://h/x
        headers: { Content-Type: "application/x-www-form-urlencoded; charset=utf-8" }
        form: { a: "1" }
        """)
        #expect(request.headers.values(for: "content-type") == ["application/x-www-form-urlencoded; charset=utf-8"])
        #expect(request.bodyText == "a=1")
    }

    @Test func textBodyWithContentType() async throws {
        let request = try await sentRequest("""
        method: PUT
        url: http://h/x
        body: "hello {{ who }}"
        content_type: text/plain; charset=utf-8
        """, vars: "who: world")
        #expect(request.bodyText == "hello world")
        #expect(request.headers["Content-Type"] == "text/plain; charset=utf-8")
    }

    @Test func textBodyWithoutContentTypeIsUTF8Text() async throws {
        let request = try await sentRequest("method: PUT\nurl: http://h/x\nbody: raw")
        #expect(request.bodyText == "raw")
        #expect(request.headers.values(for: "Content-Type") == ["text/plain; charset=utf-8"])
    }

    @Test func bodyFileWithoutContentTypeIsOctetStreamAndNullRemovesIt() async throws {
        let file = try await sentRequest("method: POST\nurl: http://h/x\nbody_file: data.bin")
        #expect(file.headers.values(for: "Content-Type") == ["application/octet-stream"])
        let removed = try await sentRequest("method: POST\nurl: http://h/x\nbody_file: data.bin\nheaders: { Content-Type: null }",
                                            defaults: "headers: { Content-Type: text/csv }")
        #expect(!removed.headers.contains("Content-Type"))
    }

    @Test func aContentTypeHeaderWinsOverContentType() async throws {
        let request = try await sentRequest("""
        method: PUT
        url: http://h/x
        headers: { Content-Type: text/csv }
        body: "a,b"
        content_type: text/plain
        """)
        #expect(request.headers.values(for: "Content-Type") == ["text/csv"])
    }

    @Test func noBodyByDefault() async throws {
        let request = try await sentRequest("url: http://h/x")
        guard case .none = request.body else {
            Issue.record("expected no body, got \(request.body)")
            return
        }
    }

    @Test func multipartFilePathsResolveAgainstTheWorkflowDirectory() async throws {
        let request = try await sentRequest("""
        method: POST
        url: http://h/upload
        multipart:
          - { name: caption, value: "{{ who }}" }
          - { name: file, file: fixtures/a.png, content_type: image/png }
          - { name: abs, file: /etc/hostname, filename: h.txt }
        """, vars: "who: Ada", path: "/tmp/courier-etests/flows/sub/wf.yaml")
        guard case .multipart(let parts) = request.body else {
            Issue.record("expected a multipart body")
            return
        }
        #expect(parts.map(\.name) == ["caption", "file", "abs"])
        if case .value(let text) = parts[0].content { #expect(text == "Ada") } else { Issue.record("part 0 is not a value") }
        if case .file(let path) = parts[1].content { #expect(path == "/tmp/courier-etests/flows/sub/fixtures/a.png") } else { Issue.record("part 1 is not a file") }
        #expect(parts[1].contentType == "image/png")
        if case .file(let path) = parts[2].content { #expect(path == "/etc/hostname") } else { Issue.record("part 2 is not a file") }
        #expect(parts[2].filename == "h.txt")
    }
}

// MARK: - Options

@Suite struct RequestOptionTests {
    @Test func builtInDefaults() async throws {
        let options = try await sentRequest("url: http://h/x").options
        #expect(options.timeoutMilliseconds == 30_000)
        #expect(options.connectTimeoutMilliseconds == 10_000)
        #expect(options.followRedirects == true)
        #expect(options.maxRedirects == 10)
        #expect(options.httpVersion == .automatic)
        #expect(options.compressed == true)
        #expect(options.cookieJar != nil, "cookies are on by default")
        #expect(options.tls.insecure == false)
    }

    @Test func clearCookiesClearsTheWorkflowJarEvenWhenTheRequestDoesNotUseIt() async throws {
        let plain = try await sentRequest("url: http://h/x").options
        #expect(plain.clearsCookies == nil)
        let session = try await sentRequest("url: http://h/x\nclear_cookies: session").options
        #expect(session.clearsCookies?.scope == .session)
        #expect(session.clearsCookies?.jar === session.cookieJar)
        let off = try await sentRequest("url: http://h/x\ncookies: false\nclear_cookies: all").options
        #expect(off.cookieJar == nil)
        #expect(off.clearsCookies?.scope == .all && off.clearsCookies?.jar != nil)
    }

    @Test func onlyCookiesReachTheTransport() async throws {
        #expect(try await sentRequest("url: http://h/x").options.onlyCookies == nil)
        let chosen = try await sentRequest("url: http://h/x\ncookies: { only: [sid, csrf] }").options
        #expect(chosen.onlyCookies == ["sid", "csrf"] && chosen.cookieJar != nil)
    }

    @Test func optionsMapFromTheRequest() async throws {
        let options = try await sentRequest("""
        url: http://h/x
        timeout: 2s
        connect_timeout: 500ms
        follow_redirects: false
        max_redirects: 3
        http_version: "2"
        compressed: false
        cookies: false
        proxy: http://proxy.local:3128
        """).options
        #expect(options.timeoutMilliseconds == 2000)
        #expect(options.connectTimeoutMilliseconds == 500)
        #expect(options.followRedirects == false)
        #expect(options.maxRedirects == 3)
        #expect(options.httpVersion == .http2)
        #expect(options.compressed == false)
        #expect(options.cookieJar == nil)
        #expect(options.proxy == "http://proxy.local:3128")
    }

    @Test(arguments: [("\"1.1\"", HTTPRequestOptions.HTTPVersion.http1_1), ("\"2\"", .http2), ("1.1", .http1_1)])
    func httpVersions(_ written: String, expected: HTTPRequestOptions.HTTPVersion) async throws {
        let options = try await sentRequest("url: http://h/x\nhttp_version: \(written)").options
        #expect(options.httpVersion == expected)
    }

    @Test func requestOptionsOverrideWorkflowDefaults() async throws {
        let options = try await sentRequest("url: http://h/x\ntimeout: 1.5s", defaults: "timeout: 10s\nmax_redirects: 2\nfollow_redirects: false").options
        #expect(options.timeoutMilliseconds == 1500)
        #expect(options.maxRedirects == 2)
        #expect(options.followRedirects == false)
    }

    @Test func runSettingsTimeoutIsADefaultUnderTheWorkflows() async throws {
        var settings = RunSettings()
        settings.timeoutMilliseconds = 5000
        let fromSettings = try await sentRequest("url: http://h/x", settings: settings).options
        #expect(fromSettings.timeoutMilliseconds == 5000)
        let fromWorkflow = try await sentRequest("url: http://h/x", defaults: "timeout: 2s", settings: settings).options
        #expect(fromWorkflow.timeoutMilliseconds == 2000)
        let fromRequest = try await sentRequest("url: http://h/x\ntimeout: 1m", defaults: "timeout: 2s", settings: settings).options
        #expect(fromRequest.timeoutMilliseconds == 60_000)
    }

    @Test func bareNumberDurationsAreSeconds() async throws {
        let options = try await sentRequest("url: http://h/x\ntimeout: 3").options
        #expect(options.timeoutMilliseconds == 3000)
    }

    @Test func tlsPathsResolveAgainstTheWorkflowDirectory() async throws {
        let options = try await sentRequest("""
        url: https://h/x
        tls:
          ca: certs/ca.pem
          cert: /abs/client.p12
          key: ../keys/client.key
          password: "{{ pw }}"
          insecure: true
          pinned_key: "sha256//AAAA"
        """, vars: "pw: s3cret", path: "/srv/flows/wf.yaml").options
        #expect(options.tls.caPath == "/srv/flows/certs/ca.pem")
        #expect(options.tls.certificatePath == "/abs/client.p12")
        #expect(options.tls.keyPath == "/srv/keys/client.key")
        #expect(options.tls.password == "s3cret")
        #expect(options.tls.insecure == true)
        #expect(options.tls.pinnedPublicKey == "sha256//AAAA")
    }

    @Test func tlsFromDefaultsMergesFieldByFieldWithTheRequest() async throws {
        let options = try await sentRequest("url: https://h/x\ntls: { key: k.pem }", defaults: "tls: { ca: ca.pem, cert: c.pem }",
                                            path: "/srv/flows/wf.yaml").options
        #expect(options.tls.caPath == "/srv/flows/ca.pem")
        #expect(options.tls.certificatePath == "/srv/flows/c.pem")
        #expect(options.tls.keyPath == "/srv/flows/k.pem")
    }

    @Test func runSettingsTLSAreDefaultsUnderTheWorkflows() async throws {
        var settings = RunSettings()
        settings.caPath = "/cli/ca.pem"
        settings.insecure = true
        let plain = try await sentRequest("url: https://h/x", settings: settings).options
        #expect(plain.tls.caPath == "/cli/ca.pem")
        #expect(plain.tls.insecure == true)
        let overridden = try await sentRequest("url: https://h/x\ntls: { ca: mine.pem }", settings: settings, path: "/srv/wf.yaml").options
        #expect(overridden.tls.caPath == "/srv/mine.pem")
    }

    /// The command line's files are named from the working directory, not the workflow's.
    @Test func relativeCommandLineFilesResolveAgainstTheWorkingDirectory() async throws {
        var settings = RunSettings()
        settings.caPath = "certs/ca.pem"
        settings.keyPath = "../k.pem"
        let options = try await sentRequest("url: https://h/x", settings: settings, path: "/srv/flows/wf.yaml").options
        let cwd = FileManager.default.currentDirectoryPath
        #expect(options.tls.caPath == FilePaths.resolve("certs/ca.pem", against: cwd))
        #expect(options.tls.keyPath == FilePaths.resolve("../k.pem", against: cwd))
        #expect(options.tls.caPath?.hasPrefix("/srv") == false)
    }

    /// `--insecure` turns verification off even where a workflow says `tls.insecure: false`.
    @Test func insecureOnTheCommandLineWinsOverAWorkflowsFalse() async throws {
        var settings = RunSettings()
        settings.insecure = true
        let options = try await sentRequest("url: https://h/x\ntls: { insecure: false }", settings: settings).options
        #expect(options.tls.insecure == true)
        let withoutFlag = try await sentRequest("url: https://h/x\ntls: { insecure: false }", defaults: "tls: { insecure: true }").options
        #expect(withoutFlag.tls.insecure == false)
    }

    @Test func commandLineProxyIsADefaultUnderTheWorkflows() async throws {
        var settings = RunSettings()
        settings.proxy = "http://cli-proxy:1"
        #expect(try await sentRequest("url: http://h/x", settings: settings).options.proxy == "http://cli-proxy:1")
        #expect(try await sentRequest("url: http://h/x", defaults: "proxy: http://wf-proxy:2", settings: settings).options.proxy == "http://wf-proxy:2")
        #expect(try await sentRequest("url: http://h/x\nproxy: http://rq:3", defaults: "proxy: http://wf-proxy:2", settings: settings).options.proxy == "http://rq:3")
    }

    @Test func relativeWorkflowPathsGiveRelativeResolvedPaths() async throws {
        // A workflow given as a bare file name lives in ".".
        let options = try await sentRequest("url: https://h/x\ntls: { ca: ca.pem }", path: "wf.yaml").options
        #expect(options.tls.caPath == "ca.pem")
    }
}

@Suite struct JSONBodyTemplateTests {
    @Test func aWholeBodyFromOneTemplateKeepsItsStructure() async throws {
        let request = try await sentRequest("method: POST\nurl: http://h/x\njson: \"{{ payload }}\"", vars: "payload: { a: [1, true], b: null }")
        #expect(request.bodyText == #"{"a":[1,true],"b":null}"#)
    }

    @Test func anUnknownVariableInABodySendsNothing() async throws {
        let outcome = try await run("steps:\n  - request: { method: POST, url: http://h/x, json: { a: \"{{ nope }}\" } }\n")
        #expect(outcome.requests.isEmpty)
        #expect(outcome.steps.first?.outcome.error?.message == "unknown variable 'nope'")
    }
}

@Suite struct URLSchemeTests {
    @Test(arguments: [
        ("http://h/x", true), ("https://h", true), ("git+ssh://h", true), ("a.b-c://h", true),
        ("/users", false), ("users", false), ("", false), ("://h", false), ("http:/h", false),
        ("http:h", false), ("/x?next=http://h", false), ("h t://x", false), ("http", false),
    ])
    func hasScheme(_ url: String, _ expected: Bool) {
        #expect(RequestBuilder.hasScheme(url) == expected)
    }
}
