import Foundation
import Testing

/// Errors that say how to fix them, end to end (issue 10, section 6).
@Suite struct LoadHintsTests {
    @Test("a warning repeated 20,000 times in a generated file is printed once, with -q too")
    func repeatedWarningsAreGrouped() async throws {
        let workspace = try Workspace()
        var text = "name: generated\nsteps:\n"
        for index in 0..<10_000 {
            text += "  - name: s\(index)\n    request: { url: \"{{ base }}/items/\(index)\", headers: { X-Base: \"{{ base }}\" } }\n"
        }
        try workspace.write("big.yaml", text)
        for quiet in [[], ["-q"]] {
            let result = try await Courier.run(["validate", "big.yaml"] + quiet, in: workspace.url)
            #expect(result.status == 0, "\(result.status)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 3, "\(lines.prefix(10))")
            #expect(lines.first?.hasPrefix("big.yaml:4:25: warning: variable 'base' is not defined in the workflow;") == true, "\(lines.prefix(3))")
            #expect(lines.first?.hasSuffix(" — 20,000 places, first at big.yaml:4:25") == true, "\(lines.prefix(3))")
        }
    }

    @Test("a file saved with a UTF-8 byte order mark loads; columns on line 1 are right")
    func byteOrderMark() async throws {
        let workspace = try Workspace()
        let bom = Data([0xEF, 0xBB, 0xBF])
        try (bom + Data("name: ok\nsteps:\n  - request: { url: \"http://127.0.0.1:9/\" }\n".utf8)).write(to: workspace.url.appendingPathComponent("ok.yaml"))
        try (bom + Data("nmae: typo\nsteps:\n  - request: { url: \"http://127.0.0.1:9/\" }\n".utf8)).write(to: workspace.url.appendingPathComponent("typo.yaml"))
        let valid = try await Courier.run(["validate", "ok.yaml"], in: workspace.url)
        #expect(valid.status == 0 && valid.stdout == "1 workflow valid\n", valid.context)
        let invalid = try await Courier.run(["validate", "typo.yaml"], in: workspace.url)
        #expect(invalid.status == 2, invalid.context)
        #expect(invalid.stderr.hasPrefix("""
            typo.yaml:1:1: error: unknown key 'nmae' in workflow; did you mean 'name'?
                1 | nmae: typo
                  | ^~~~

            """), invalid.context)
    }

    @Test("an unquoted '{{' value is exit 2 with the fix, nothing sent")
    func unquotedTemplate() async throws {
        let workspace = try Workspace()
        let recorder = try RequestRecorder()
        try workspace.write("health.yaml", """
            steps:
              - request:
                  url: {{ base }}/health
            """)
        let result = try await Courier.run(["run", "health.yaml", "--var", "base=\(recorder.baseURL)"], in: workspace.url)
        #expect(result.status == 2, result.context)
        #expect(result.stderr.hasPrefix("""
            health.yaml:3:12: error: a value starting with '{{' must be quoted (YAML reads '{' as the start of a mapping): write "{{ base }}/health"
                3 |       url: {{ base }}/health
                  |            ^~

            """), result.context)
        #expect(recorder.received.isEmpty)
    }
}
