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
        let result = try await Courier.run(["run", "flow.yaml", "--dry-run", "--junit", "junit.xml"], in: workspace.url,
                                           environment: ["API_KEY": "dry-run-secret-4711"])
        #expect(result.status == 0, result.context)
        #expect(recorder.received.isEmpty, "requests were sent: \(recorder.received)")
        #expect(result.stdout.contains("> POST \(recorder.baseURL)/login"), result.context)
        // JUnit: a rendered step is a passed testcase saying it was not sent.
        let junit = try String(contentsOf: workspace.url.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(junit.contains("<system-out>rendered, not sent (--dry-run)\n&gt; POST \(recorder.baseURL)/login"), "\(junit)")
        #expect(!junit.contains("<failure") && !junit.contains("dry-run-secret-4711"), "\(junit)")
        // -v indents JSON bodies.
        #expect(result.stdout.contains(#""password": "***""#), result.context)
        #expect(result.stdout.contains("DRY RUN: 2 requests rendered, 0 sent"), "a dry run sends nothing: \(result.stdout)")
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
        #expect(result.stdout.contains("ERROR  broken"), result.context)
        #expect(result.stdout.contains("DRY RUN: 2 requests rendered, 0 sent, 1 step did not render"), result.context)
        #expect(recorder.received.isEmpty, "requests were sent: \(recorder.received)")
    }

    @Test("--dry-run: includes whose vars or templated path read a capture are not rendered, with the reason; other includes render")
    func includesDependingOnCaptures() async throws {
        let recorder = try RequestRecorder()
        defer { recorder.stop() }
        let workspace = try Workspace()
        try workspace.write("part.yaml", """
            steps:
              - name: fetch
                request: { url: "\(recorder.baseURL)/part/{{ id }}" }
            """)
        try workspace.write("flow.yaml", """
            name: dry includes
            steps:
              - name: log in
                request: { method: POST, url: "\(recorder.baseURL)/login" }
                capture:
                  token: { json: $.token }
              - name: fixed
                include: part.yaml
                vars: { id: "7" }
              - name: with token
                include: part.yaml
                vars: { id: "{{ token }}" }
              - name: by path
                include: "{{ token }}.yaml"
            """)
        let result = try await Courier.run(["run", "flow.yaml", "--dry-run"], in: workspace.url, environment: [:])
        #expect(result.status == 0, result.context)
        #expect(recorder.received.isEmpty, "requests were sent: \(recorder.received)")
        #expect(result.stdout.contains("RENDER fixed › fetch  GET \(recorder.baseURL)/part/7"), result.context)
        #expect(result.stdout.contains("with token › fetch  (not rendered (--dry-run): include var id depends on capture token)"),
                result.context)
        #expect(result.stdout.contains("by path  (not rendered (--dry-run): include path depends on capture token)"), result.context)
        #expect(!result.stdout.contains("/part/<capture"), result.context)
    }

    @Test("--dry-run console: RENDER lines with the request built (no status), SKIP lines with the reason, a DRY RUN summary, not PASSED (golden)")
    func consoleGolden() async throws {
        let recorder = try RequestRecorder()
        defer { recorder.stop() }
        let workspace = try Workspace()
        try workspace.write("flow.yaml", Self.workflow(recorder.baseURL, broken: false))
        let result = try await Courier.run(["run", "flow.yaml", "--dry-run"], in: workspace.url,
                                           environment: ["API_KEY": "dry-run-secret-4711"])
        #expect(result.status == 0, result.context)
        #expect(!result.stdout.contains("PASSED"), result.context)
        #expect(!result.stdout.contains("---"), result.context)
        let console = result.stdout.replacingOccurrences(of: recorder.baseURL, with: "<base_url>")
            .replacingOccurrences(of: #"\d+ ms|\d+\.\d\d s"#, with: "<time>", options: .regularExpression)
        let golden = Paths.packageRoot.appendingPathComponent("Tests/Goldens/console/dry-run.txt")
        if ProcessInfo.processInfo.environment["COURIER_RECORD"] == "1" {
            try console.write(to: golden, atomically: true, encoding: .utf8)
        } else {
            #expect(console == (try String(contentsOf: golden, encoding: .utf8)), result.context)
        }
    }
}
