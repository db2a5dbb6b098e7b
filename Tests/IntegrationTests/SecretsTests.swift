import Foundation
import Testing

/// Secrets never reach the console or a report, in any of the forms the spec lists.
@Suite(.testServer)
struct SecretsTests {
    static let apiKey = "S3cr3t Api/Key+91c2!"

    static func workflow(recorder: RequestRecorder) -> String {
        """
        name: secrets
        secrets:
          api_key: "\(apiKey)"
        steps:
          - name: log in
            request:
              method: POST
              url: "{{ base_url }}/auth/login"
              json: { username: demo, password: secret }
            capture:
              token: { json: $.access_token, secret: true }
          - name: hand the token to the test
            request:
              url: "\(recorder.baseURL)/record"
              headers: { X-Token: "{{ token }}" }
          - name: use it
            request:
              url: "{{ base_url }}/protected"
              auth: { bearer: "{{ token }}" }
            expect:
              json:
                $.ok: true
          - name: leak attempt
            request:
              method: POST
              url: "{{ base_url }}/echo"
              query: { k: "{{ api_key }}" }
              headers:
                Authorization: "Bearer {{ token }}"
                X-Api-Key: "{{ api_key }}"
                X-Key-B64: "{{ api_key | base64_encode }}"
                X-Token-B64: "{{ token | base64_encode }}"
              json:
                key: "{{ api_key }}"
                token: "{{ token }}"
                note: "key={{ api_key }} token={{ token }}"
            expect:
              status: 201
              json:
                $.json.key: "not the key"
        """
    }

    /// Runs the workflow, finds the token the server issued (through the recorder), and checks
    /// that neither secret appears in any form in stdout, stderr or the JUnit file.
    func runAndCheck(verbose: Bool) async throws {
        let server = try TestServer.shared()
        let recorder = try RequestRecorder()
        defer { recorder.stop() }
        let workspace = try Workspace()
        try workspace.write("secrets.yaml", Self.workflow(recorder: recorder))
        let result = try await Courier.run(files: ["secrets.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml"] + (verbose ? ["--verbose"] : []))
        #expect(result.status == 1, result.context)
        let token = try #require(recorder.lastHeader("X-Token"), "the workflow did not hand over its token")
        #expect(token.count >= 20 && !token.contains("*"), "unexpected token '\(token)'")

        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        let leak = try #require(report.testCase("leak attempt"))
        #expect(leak.failure?.type == "assertion")
        let systemOut = try #require(leak.systemOut, "the failed step's request/response should be in <system-out>")
        // The request and the echoed response are there — masked.
        #expect(systemOut.contains("Authorization: Bearer ***") || systemOut.contains("Authorization: ***"),
                "Authorization not shown masked: \(systemOut)")
        #expect(result.stdout.contains("Authorization: Bearer ***") || result.stdout.contains("Authorization: ***"),
                result.context)
        #expect(systemOut.contains("***"))

        let places = [("stdout", result.stdout), ("stderr", result.stderr), ("JUnit report", report.text)]
        for (secretName, secret) in [("secrets.api_key", Self.apiKey), ("captured token", token)] {
            for form in String.leakForms(of: secret) {
                for (place, text) in places {
                    #expect(!text.contains(form), "\(secretName) appears as '\(form)' in \(place)")
                }
            }
        }
        // The step that checked the token against the server passed: it really was sent.
        #expect(report.testCase("use it")?.passed == true)
    }

    @Test("secrets: and secret: true captures are masked in console, stderr and JUnit (raw, base64, URL-encoded)")
    func masked() async throws {
        try await runAndCheck(verbose: false)
    }

    @Test("secrets stay masked with --verbose, which prints every request and response")
    func maskedVerbose() async throws {
        try await runAndCheck(verbose: true)
    }

    @Test("Authorization, Cookie, X-Api-Key and Api-Key header values are masked even when no secret variable is involved")
    func sensitiveHeaders() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let authValue = "Custom plain-credential-8841"
        let cookieValue = "sid=plain-cookie-5532"
        try workspace.write("headers.yaml", """
            name: sensitive headers
            steps:
              - name: echo them
                request:
                  url: "{{ base_url }}/echo"
                  headers:
                    Authorization: "\(authValue)"
                    Cookie: "\(cookieValue)"
                    x-API-key: plain-api-key-7719
                    Api-Key: plain-api-key-2264
                expect:
                  status: 299
            """)
        let result = try await Courier.run(files: ["headers.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml"])
        #expect(result.status == 1, result.context)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.testCase("echo them")?.systemOut != nil)
        for form in ["plain-credential-8841", "plain-cookie-5532", "plain-api-key-7719", "plain-api-key-2264"] {
            for (place, text) in [("stdout", result.stdout), ("stderr", result.stderr), ("JUnit report", report.text)] {
                #expect(!text.contains(form), "'\(form)' appears in \(place)")
            }
        }
    }
}
