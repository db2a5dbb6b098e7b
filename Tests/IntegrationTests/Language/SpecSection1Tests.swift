import Foundation
import Testing

/// Section 1 of the spec ("a whole example"), run as written against testserver.py.
///
/// Adapted: the password default (`demo-pass`) is replaced through `DEMO_PASSWORD`
/// (the server's account is demo/secret); `/users/{id}/avatar` and `/jobs/{id}`
/// do not exist there, so the upload goes to `POST /multipart` (keeping the URL's
/// `{{ user_id }}` as a query parameter) and the job poll to `/status/200` with a
/// JSON body saying `done`. Keys and shapes are as written.
///
/// `retry:` (in `defaults` and on the poll step) is carried out, but every request succeeds
/// at once here, so this test makes no claim about retries (see RetryIntegrationTests).
@Suite(.testServer)
struct SpecSection1Tests {
    static let workflow = """
        # Workflows/auth-flow.yaml
        name: Log in, upload an avatar, poll a job
        tags: [smoke, auth]
        vars:
          base_url: http://127.0.0.1:8080        # overridable: --var base_url=https://staging.example.com
          user: demo
        secrets:                                 # secret variables: their values never appear in any output
          password: "{{ env.DEMO_PASSWORD | default('demo-pass') }}"
        defaults:                                # applied to every request of this workflow
          base_url: "{{ base_url }}"
          headers: { Accept: application/json }
          timeout: 10s
          retry: { attempts: 3, delay: 200ms }   # on network errors, timeouts, 429, 502, 503, 504
        steps:
          - name: log in
            id: login
            request:
              method: POST
              url: /auth/login                   # joined to defaults.base_url
              json: { username: "{{ user }}", password: "{{ password }}" }
            expect:
              status: 200
              headers: { Content-Type: { contains: application/json } }
              json:
                $.token_type: Bearer
                $.expires_in: { gt: 0 }
                $.access_token: { type: string, empty: false }
            capture:
              token: { json: $.access_token, secret: true }
              user_id: $.user.id                 # shorthand for { json: $.user.id }

          - name: upload avatar
            request:
              method: POST
              url: /multipart?user={{ user_id }}
              auth: { bearer: "{{ token }}" }
              multipart:
                - { name: caption, value: Sunset }
                - { name: file, file: fixtures/avatar.png, content_type: image/png }
            expect:
              status: [200, 201]
              duration: { lt: 2s }
            capture:
              job: $.parts[1].sha256

          - name: wait for the thumbnail job
            request: { url: "/status/200", query: { content_type: application/json, body: '{"state": "done", "job": "{{ job }}"}' }, auth: { bearer: "{{ token }}" } }
            retry: { attempts: 30, delay: 500ms, backoff: constant, on: [expect], abort_if: { json: { $.state: failed } } }
            expect:
              json: { $.state: done }
        """

    @Test("section 1: validate accepts the example (retry keys included) and run passes every step with secrets masked")
    func wholeExample() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("Workflows/auth-flow.yaml", Self.workflow)
        try workspace.write("Workflows/fixtures/avatar.png", "\u{89}PNG not really an image")

        let validate = try await Courier.run(["validate", "Workflows/auth-flow.yaml"], in: workspace.url)
        #expect(validate.status == 0, validate.context)
        // Valid; the example's retry keys are carried out now: no warning says otherwise.
        #expect(!validate.stderr.contains("not carried out"), validate.context)
        #expect(!validate.stderr.contains(": error: "), validate.context)

        let result = try await Courier.run(files: ["Workflows/auth-flow.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml", "--verbose"],
                                           environment: ["DEMO_PASSWORD": "secret"])
        #expect(result.status == 0, result.context)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.cases.map(\.name) == ["log in", "upload avatar", "wait for the thumbnail job"])
        #expect(report.cases.allSatisfy { $0.passed }, "\(report.cases)")
        // The multipart part went out with its content type; the bearer token did too (masked).
        #expect(result.stdout.contains("\"content_type\": \"image/png\""), result.context)
        let authorization = result.stdout.line(containing: "> Authorization: Bearer")
        #expect(authorization?.contains("***") == true, result.context)
        #expect(!result.allOutput.contains("secret\""), "the password leaked\n\(result.context)")
    }
}
