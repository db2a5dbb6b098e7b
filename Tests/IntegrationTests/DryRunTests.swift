import Foundation
import Testing

/// `--dry-run` (issue 13, item 4): every request is rendered and printed, none is sent.
@Suite struct DryRunTests {
    static func workflow(_ base: String, broken: Bool) -> String {
        """
        name: dry
        secrets:
          api_key: "{{ env.API_KEY }}"
        steps:
          - name: log in
            request:
              method: POST
              url: "\(base)/login"
              json: { password: "{{ api_key }}" }
            capture:
              token: { json: $.token }
          - name: use it
            request:
              url: "\(base)/items?t={{ token }}"
          - name: only if
            if: "{{ token != '' }}"
            request: { url: "\(base)/if" }
          - name: each
            for_each: "{{ token }}"
            request: { url: "\(base)/each" }
        \(broken ? "  - name: broken\n    request: { url: \"\(base)/{{ api_key.x }}\" }" : "")
        """
    }

    @Test("--dry-run prints each request (captures as <capture: name>, secrets masked), skips what depends on a capture, sends nothing, exits 0")
    func rendersAndSendsNothing() async throws {
        let recorder = try RequestRecorder()
        defer { recorder.stop() }
        let workspace = try Workspace()
        try workspace.write("flow.yaml", Self.workflow(recorder.baseURL, broken: false))
        let result = try await Courier.run(["run", "flow.yaml", "--dry-run"], in: workspace.url,
                                           environment: ["API_KEY": "dry-run-secret-4711"])
        #expect(result.status == 0, result.context)
        #expect(recorder.received.isEmpty, "requests were sent: \(recorder.received)")
        #expect(result.stdout.contains("> POST \(recorder.baseURL)/login"), result.context)
        // -v indents JSON bodies.
        #expect(result.stdout.contains(#""password": "***""#), result.context)
        #expect(result.stdout.contains(", 0 requests ("), "a dry run sends nothing: \(result.stdout)")
        #expect(result.stdout.contains("> GET \(recorder.baseURL)/items?t=<capture: token>")
                || result.stdout.contains("> GET \(recorder.baseURL)/items?t=%3Ccapture%3A%20token%3E"), result.context)
        #expect(result.stdout.contains("only if  (not rendered (--dry-run): if depends on capture token)"), result.context)
        #expect(result.stdout.contains("each  (not rendered (--dry-run): for_each depends on capture token)"), result.context)
        #expect(!result.allOutput.contains("dry-run-secret-4711"))
    }

    @Test("--dry-run exits 2 when a request does not render, and still sends nothing")
    func brokenTemplateExits2() async throws {
        let recorder = try RequestRecorder()
        defer { recorder.stop() }
        let workspace = try Workspace()
        try workspace.write("flow.yaml", Self.workflow(recorder.baseURL, broken: true))
        let result = try await Courier.run(["run", "flow.yaml", "--dry-run"], in: workspace.url,
                                           environment: ["API_KEY": "dry-run-secret-4711"])
        #expect(result.status == 2, result.context)
        #expect(result.stdout.contains("ERROR broken"), result.context)
        #expect(recorder.received.isEmpty, "requests were sent: \(recorder.received)")
    }
}
