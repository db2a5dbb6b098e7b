import Foundation
import Testing

/// Secret values Courier has to find on its own (issue 9): cookies libcurl sends from its
/// jar, Basic credentials libcurl builds from `user:password@` in a request or proxy URL,
/// values that fail to compute, and secrets too short to mask.
@Suite(.testServer)
struct SecretSourcesTests {
    /// Runs `yaml` as `flow.yaml` with a JUnit report; returns the run and every output as text.
    private func run(_ yaml: String, arguments: [String] = [], environment: [String: String] = [:])
        async throws -> (result: ProcessResult, outputs: [(String, String)])
    {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("flow.yaml", yaml)
        // `--var base_url` only for a workflow that uses it: an unused `--var` is an error.
        let result = try await Courier.run(files: ["flow.yaml"], workspace: workspace, server: yaml.contains("base_url") ? server : nil,
                                           extra: ["--junit", "junit.xml"] + arguments, environment: environment)
        let junit = (try? String(contentsOf: workspace.url.appendingPathComponent("junit.xml"), encoding: .utf8)) ?? ""
        return (result, [("stdout", result.stdout), ("stderr", result.stderr), ("JUnit report", junit)])
    }

    private func expectNoLeak(of secrets: [String], in outputs: [(String, String)],
                              sourceLocation: SourceLocation = #_sourceLocation) {
        for secret in secrets {
            for form in String.leakForms(of: secret) {
                for (place, text) in outputs {
                    #expect(!text.contains(form), "'\(secret)' appears as '\(form)' in \(place)", sourceLocation: sourceLocation)
                }
            }
        }
    }

    @Test("a cookie libcurl sends from its jar is masked where the server echoes it")
    func cookieJar() async throws {
        let (result, outputs) = try await run("""
            name: cookie jar
            steps:
              - name: get a cookie
                request: { url: "{{ base_url }}/cookies/set?session=c00kie-jar-5521" }
              - name: echo it
                request: { url: "{{ base_url }}/echo" }
                expect: { status: 299 }
            """, arguments: ["--verbose"])
        #expect(result.status == 1, result.context)
        // The echo really carried the cookie: its header is there, masked.
        // (-v indents the JSON body: compared with the layout's spaces folded.)
        let folded = result.stdout.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
        #expect(folded.contains(#"[ "Cookie", "***" ]"#), result.context)
        expectNoLeak(of: ["c00kie-jar-5521", "session=c00kie-jar-5521"], in: outputs)
    }

    @Test("user:password@ in a request URL: the password and the Basic credentials libcurl builds are masked")
    func urlCredentials() async throws {
        let password = "url-pa55word-8812"
        let (result, outputs) = try await run("""
            name: url credentials
            secrets:
              pw: "\(password)"
            steps:
              - name: echo
                request: { url: "http://bob:{{ pw }}@\(try TestServer.shared().baseURL.dropFirst("http://".count))/echo" }
                expect: { status: 299 }
            """)
        #expect(result.status == 1, result.context)
        #expect(result.stdout.contains(#"["Authorization", "Basic ***"]"#) || result.stdout.contains(#"["Authorization", "***"]"#),
                result.context)
        expectNoLeak(of: [password, "bob:\(password)"], in: outputs)
    }

    @Test("user:password@ in a proxy URL: neither the hint nor the Proxy-Authorization libcurl builds shows it")
    func proxyCredentials() async throws {
        let password = "pr0xy-pass-3141"
        let upstream = try await TransportFixtures.shared.server(.http)
        let proxyScript = Paths.packageRoot.appendingPathComponent("Tests/Servers/forward_proxy.py").path
        let proxy = try await ServerProcess.startPython(proxyScript, ["--auth", "bob:\(password)"], scheme: "http")
        let deadPort = try LoopbackSocket.bind(listening: false)
        defer { close(deadPort.fd) }
        let (result, outputs) = try await run("""
            name: proxy credentials
            continue_on_failure: true
            steps:
              - name: through the proxy
                request: { url: "\(upstream.baseURL)/echo", proxy: "{{ env.TEST_PROXY }}" }
                expect: { status: 299, json: { "$.headers[?@[0] == 'Via'][1]": { contains: courier-test-proxy } } }
              - name: dead proxy
                request: { url: "\(upstream.baseURL)/echo", proxy: "{{ env.TEST_DEAD_PROXY }}" }
            """, arguments: ["--verbose"], environment: [
                "no_proxy": "", "NO_PROXY": "",
                // From the environment, as credentials usually come: the file shows none of them.
                "TEST_PROXY": "http://bob:\(password)@127.0.0.1:\(proxy.port)",
                "TEST_DEAD_PROXY": "http://bob:\(password)@127.0.0.1:\(deadPort.port)",
            ])
        #expect(result.status == 1, result.context)
        // The first step got through the proxy (status, not a 407 or a proxy error), the second did not.
        #expect(result.stdout.contains("expected 299, got 200"), result.context)
        #expect(result.stdout.contains("cannot connect to the proxy http://bob:***@127.0.0.1:\(deadPort.port)"), result.context)
        expectNoLeak(of: [password, "bob:\(password)"], in: outputs)
    }

    @Test("a filter error while computing a secret does not quote the value")
    func filterError() async throws {
        let value = "n0tANumb3rS3cret"
        let (result, outputs) = try await run("""
            name: filter error
            secrets:
              pin: "{{ env.COURIER_TEST_PIN | int }}"
            steps:
              - request: { url: "{{ base_url }}/echo" }
            """, environment: ["COURIER_TEST_PIN": value])
        #expect(result.status == 1, result.context)
        #expect(result.stdout.contains("filter 'int': the value is not a number"), result.context)
        expectNoLeak(of: [value], in: outputs)
    }

    @Test("a declared secret under 4 characters is an error at load, and so is a --var value for one (exit 2)")
    func shortSecrets() async throws {
        let (loaded, _) = try await run("""
            name: short
            secrets:
              pin: "123"
            steps:
              - request: { url: "{{ base_url }}/echo" }
            """)
        #expect(loaded.status == 2, loaded.context)
        #expect(loaded.stderr.contains("flow.yaml:3:8: error: secret 'pin' is too short to mask safely (3 characters; at least 4)"),
                loaded.context)
        #expect(loaded.stderr.contains("nothing was sent"), loaded.context)

        let (overridden, _) = try await run("""
            name: short override
            secrets:
              pin: "1234-long-enough"
            steps:
              - request: { url: "{{ base_url }}/echo" }
            """, arguments: ["--var", "pin=12"])
        // Checked with the file, before anything is sent: exit 2 at the secret's name.
        #expect(overridden.status == 2, overridden.context)
        #expect(overridden.stderr.contains("flow.yaml:3:3: error: secret 'pin' is too short to mask safely (2 characters; at least 4) (its value from the command line)"),
                overridden.context)
        #expect(overridden.stderr.contains("nothing was sent"), overridden.context)
    }

    @Test("a secret: true capture under 4 characters is masked, with a warning")
    func shortCapture() async throws {
        let (result, _) = try await run("""
            name: short capture
            steps:
              - request: { url: "{{ base_url }}/echo?x=ab" }
                capture:
                  x: { json: "$.query.x[0]", secret: true }
            """)
        #expect(result.status == 0, result.context)
        #expect(result.stdout.contains("warning: captured secret 'x' is shorter than 4 characters: it is masked, but short values may mask unrelated text"),
                result.context)
    }
}
