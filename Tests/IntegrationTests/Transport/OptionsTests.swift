import Foundation
import Testing

/// Request options against real servers: redirects, HTTP versions, compression, cookies,
/// timeouts and response limits.
@Suite struct OptionsTests {
    @Test("follow_redirects: every hop recorded with status and resolved URL (relative and absolute Locations), 303 turns POST into GET, 307 keeps it")
    func redirects() async throws {
        let http = try await TransportFixtures.shared.server(.http)
        let base = http.baseURL
        let run = try await TransportRun.run("""
            name: redirects
            steps:
              - name: relative chain
                request: { url: "\(base)/redirect/3?tag=x" }
                expect: { json: { $.path: /echo, $.query.tag: [x] } }
              - name: absolute chain
                request: { url: "\(base)/redirect/2?absolute=1" }
                expect: { json: { $.path: /echo } }
              - name: post then 303
                request: { method: POST, url: "\(base)/redirect/1?status=303", body: payload }
                expect: { json: { $.method: GET, $.body: "" } }
              - name: post then 307
                request: { method: POST, url: "\(base)/redirect/1?status=307", body: payload }
                expect: { json: { $.method: POST, $.body: payload } }
              - name: not followed
                request: { url: "\(base)/redirect/1", follow_redirects: false }
                expect: { status: 302, headers: { Location: /echo } }
              - name: too many
                request: { url: "\(base)/redirect/3", max_redirects: 2 }
            """, arguments: ["--verbose"])
        #expect(run.result.status == 1, run.result.context)
        let out = run.result.stdout
        for step in ["relative chain", "absolute chain", "post then 303", "post then 307", "not followed"] {
            #expect(out.line(containing: "PASS", step) != nil, "\(step)\n\(run.result.context)")
        }
        // Each hop: its status and the URL it came from, relative Locations resolved.
        for hop in ["< HTTP 302 (redirect from \(base)/redirect/3?tag=x)", "< Location: /redirect/2?tag=x",
                    "< HTTP 302 (redirect from \(base)/redirect/2?tag=x)",
                    "< HTTP 302 (redirect from \(base)/redirect/1?tag=x)", "< Location: /echo?tag=x",
                    "< HTTP 302 (redirect from \(base)/redirect/1?absolute=1)", "< Location: \(base)/echo?absolute=1",
                    "< HTTP 303 (redirect from \(base)/redirect/1?status=303)",
                    "< HTTP 307 (redirect from \(base)/redirect/1?status=307)"] {
            #expect(out.contains(hop), "missing hop line '\(hop)'\n\(run.result.context)")
        }
        let tooMany = try #require(run.error("too many"), run.result.context)
        #expect(tooMany.type == "too_many_redirects")
        #expect(tooMany.text.contains("max_redirects"), "\(tooMany.text)")
    }

    @Test("http_version: HTTP/2 over TLS via ALPN by default and with '2'; '1.1' forces HTTP/1.1 (nginx)")
    func httpVersions() async throws {
        guard TransportFixtures.usesNginx(toCheck: "HTTP/2") else { return }
        let nginx = try await TransportFixtures.shared.server(.nginx)
        let ca = try await TransportFixtures.shared.certificate("ca.pem")
        let run = try await TransportRun.run("""
            name: versions
            defaults: { tls: { ca: \(ca) } }
            steps:
              - name: automatic
                request: { url: \(nginx.baseURL)/health }
                expect: { json: { $.protocol: HTTP/2.0 } }
              - name: two
                request: { url: \(nginx.baseURL)/health, http_version: 2 }
                expect: { json: { $.protocol: HTTP/2.0 } }
              - name: one one
                request: { url: \(nginx.baseURL)/health, http_version: "1.1" }
                expect: { json: { $.protocol: HTTP/1.1 } }
            """, arguments: ["--verbose"])
        #expect(run.result.status == 0, run.result.context)
        #expect(run.result.stdout.contains("< HTTP/2 200"), run.result.context)
        #expect(run.result.stdout.contains("< HTTP/1.1 200"), run.result.context)
    }

    @Test("compressed: gzip, deflate and br are asked for and decoded; compressed: false asks for nothing")
    func compression() async throws {
        let http = try await TransportFixtures.shared.server(.http)
        var steps = """
            name: compression
            steps:
              - name: gzip
                request: { url: \(http.baseURL)/gzip }
                expect: { headers: { Content-Encoding: gzip }, json: { $.gzipped: true } }
              - name: deflate
                request: { url: \(http.baseURL)/deflate }
                expect: { headers: { Content-Encoding: deflate }, json: { $.deflated: true } }
              - name: accept-encoding offers br
                request: { url: \(http.baseURL)/echo }
                expect: { json: { "$.headers[?@[0] == 'Accept-Encoding'][1]": { length: 1, each: { contains: br } } } }
              - name: not compressed
                request: { url: \(http.baseURL)/gzip, compressed: false }
                expect:
                  headers: { Content-Encoding: { exists: false } }
                  json: { "$.headers[?@[0] == 'Accept-Encoding']": { exists: false } }
            """
        let brotli = TransportFixtures.usesNginx(toCheck: "a br body from nginx")
        if brotli {
            let nginx = try await TransportFixtures.shared.server(.nginx)
            let ca = try await TransportFixtures.shared.certificate("ca.pem")
            steps += """

                  - name: brotli
                    request: { url: \(nginx.baseURL)/brotli.json, tls: { ca: \(ca) } }
                    expect: { headers: { Content-Encoding: br }, json: { $.encoding: br, $.items: [1, 2, 3] } }
                """
        }
        let run = try await TransportRun.run(steps)
        #expect(run.result.status == 0, run.result.context)
        if brotli {
            #expect(run.result.stdout.line(containing: "PASS", "brotli") != nil, run.result.context)
        }
    }

    @Test("cookies: set by one step, sent by the next; a new jar for each workflow; cookies: false sends none")
    func cookies() async throws {
        let http = try await TransportFixtures.shared.server(.http)
        let workspace = try Workspace()
        try workspace.write("1-first.yaml", """
            name: first
            steps:
              - name: log in
                request: { url: "\(http.baseURL)/cookies/set?session=abc123&theme=dark" }
              - name: cookie sent
                request: { url: \(http.baseURL)/cookies }
                expect: { json: { $.cookies: { session: abc123, theme: dark } } }
              - name: cookies off
                request: { url: \(http.baseURL)/cookies, cookies: false }
                expect: { json: { $.cookies: {} } }
            """)
        try workspace.write("2-second.yaml", """
            name: second
            steps:
              - name: fresh jar
                request: { url: \(http.baseURL)/cookies }
                expect: { json: { $.cookies: {} } }
            """)
        let result = try await Courier.run(["run", "1-first.yaml", "2-second.yaml"], in: workspace.url)
        #expect(result.status == 0, result.context)
        #expect(result.stdout.line(containing: "PASS", "fresh jar") != nil, result.context)
    }

    @Test("timeouts: connect_timeout against a silent TLS listener, timeout against a stalled body; truncated bodies → clear errors")
    func timeoutsAndBrokenResponses() async throws {
        let http = try await TransportFixtures.shared.server(.http)
        let silent = try SilentListener()
        let run = try await TransportRun.run("""
            name: timeouts
            continue_on_failure: true
            steps:
              - name: no handshake
                request: { url: "https://127.0.0.1:\(silent.port)/", connect_timeout: 300ms, timeout: 10s }
              - name: stalled body
                request: { url: "\(http.baseURL)/stall?partial=100&max_ms=5000", timeout: 400ms }
              - name: truncated body
                request: { url: \(http.baseURL)/truncated }
            """)
        #expect(run.result.status == 1, run.result.context)
        #expect(run.seconds("no handshake") < 2, "connect_timeout 300ms was not applied: \(run.seconds("no handshake")) s")
        #expect(run.seconds("stalled body") < 2, "timeout 400ms was not applied: \(run.seconds("stalled body")) s")
        let connect = try #require(run.error("no handshake"), run.result.context)
        #expect(connect.type == "timeout")
        #expect(connect.text.contains("connect_timeout") && connect.text.contains("300 ms"), "\(connect.text)")
        let stalled = try #require(run.error("stalled body"))
        #expect(stalled.type == "timeout")
        #expect(stalled.text.contains("100 out of 1024 bytes") && stalled.text.contains("did not finish within 400 ms"), "\(stalled.text)")
        let truncated = try #require(run.error("truncated body"))
        #expect(truncated.type == "connection_closed")
        #expect(truncated.text.contains("990 bytes remaining") && truncated.text.contains("ended before its announced length"), "\(truncated.text)")
    }

    @Test("response size limit: --max-body-size fails larger bodies (Content-Length and chunked) with response_too_large; smaller pass")
    func responseLimit() async throws {
        let http = try await TransportFixtures.shared.server(.http)
        let yaml = """
            name: limits
            continue_on_failure: true
            steps:
              - name: declared length
                request: { url: "\(http.baseURL)/bytes?n=2000000" }
              - name: chunked
                request: { url: "\(http.baseURL)/bytes?n=2000000&chunked=1" }
              - name: small
                request: { url: "\(http.baseURL)/bytes?n=900000" }
            """
        let limited = try await TransportRun.run(yaml, arguments: ["--max-body-size", "1MB"])
        #expect(limited.result.status == 1, limited.result.context)
        for step in ["declared length", "chunked"] {
            let error = try #require(limited.error(step), limited.result.context)
            #expect(error.type == "response_too_large")
            #expect(error.text.contains("larger than 1 MB") && error.text.contains("--max-body-size"), "\(error.text)")
        }
        #expect(limited.junit?.testCase("small")?.passed == true, limited.result.context)

        let raised = try await TransportRun.run(yaml, arguments: ["--max-body-size", "2MiB"])
        #expect(raised.result.status == 0, raised.result.context)

        let invalid = try await TransportRun.run(yaml, arguments: ["--max-body-size", "lots"], junit: false)
        #expect(invalid.result.status == 2, invalid.result.context)
        #expect(invalid.result.stderr.contains("--max-body-size"), invalid.result.context)
    }
}
