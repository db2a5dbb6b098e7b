import Foundation
import Testing

/// Where variables come from and what wins.
@Suite(.testServer)
struct VariablesTests {
    @Test("--var beats --vars-file beats vars:, --env-file values are env.NAME, default() fills a missing env")
    func precedence() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("vars.yaml", """
            name: variables
            vars:
              a: from-vars-block
              b: from-vars-block
              c: from-vars-block
              derived: "{{ c }}-derived"
            steps:
              - name: show them
                request:
                  url: "{{ base_url }}/echo"
                  query:
                    a: "{{ a }}"
                    b: "{{ b }}"
                    c: "{{ c }}"
                    d: "{{ derived }}"
                    e: "{{ env.COURIER_IT_FROM_ENV_FILE }}"
                    m: "{{ env.COURIER_IT_NOT_SET_ANYWHERE | default('x') }}"
                expect:
                  json:
                    $.query.a[0]: from-command-line
                    $.query.b[0]: from-vars-file
                    $.query.c[0]: from-vars-block
                    $.query.d[0]: from-vars-block-derived
                    $.query.e[0]: from-env-file
                    $.query.m[0]: x
            """)
        try workspace.write("vars-file.yaml", """
            a: from-vars-file
            b: from-vars-file
            """)
        try workspace.write("test.env", """
            # a comment
            COURIER_IT_FROM_ENV_FILE=from-env-file
            """)
        let result = try await Courier.run(
            files: ["vars.yaml"], workspace: workspace, server: server,
            extra: ["--var", "a=from-command-line", "--vars-file", "vars-file.yaml", "--env-file", "test.env"],
            environment: ["COURIER_IT_FROM_ENV_FILE": "from-process-env"])
        #expect(result.status == 0, result.context)
        #expect(result.stdout.line(containing: "PASS", "show them") != nil, result.context)
    }

    @Test("an unknown variable is caught before anything is sent (exit 2, file:line:col, caret, did-you-mean)")
    func unknownVariable() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let yaml = """
            name: unknown variable
            vars: { such_variable: 1 }
            steps:
              - name: fine
                request: { url: "{{ base_url }}/health" }
              - name: typo
                request:
                  url: "{{ base_url }}/echo"
                  query: { q: "{{ no_such_variable }}" }
            """
        try workspace.write("unknown.yaml", yaml)
        let result = try await Courier.run(files: ["unknown.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml"])
        #expect(result.status == 2, result.context)
        let position = try #require(yaml.position(of: "no_such_variable", inLineContaining: "no_such_variable"))
        let location = "unknown.yaml:\(position.line):\(position.column)"
        let line = result.stderr.line(containing: location)
        #expect(line?.contains("unknown variable 'no_such_variable'; did you mean 'such_variable'?") == true,
                "expected '\(location): error: unknown variable …'\n\(result.context)")
        #expect(result.stderr.hasCaret(under: "no_such_variable", inSourceLine: #"query: { q: "{{ no_such_variable }}" }"#),
                result.context)
        #expect(!result.stdout.contains("PASS"), "the first step ran\n\(result.context)")
    }

    @Test("a variable that exists only when a skipped step runs fails the step at run time, naming it and its file:line:col")
    func unknownVariableAtRunTime() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let yaml = """
            name: unknown at run time
            steps:
              - name: skipped capture
                if: false
                request: { url: "{{ base_url }}/health" }
                capture: { maybe: $.status }
              - name: uses it
                request:
                  url: "{{ base_url }}/echo"
                  query: { q: "{{ maybe }}" }
            """
        try workspace.write("unknown.yaml", yaml)
        let result = try await Courier.run(files: ["unknown.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml"])
        #expect(result.status == 1, result.context)
        let position = try #require(yaml.position(of: "maybe", inLineContaining: "q: "))
        let location = "unknown.yaml:\(position.line):\(position.column)"
        #expect(result.stdout.line(containing: location)?.contains("unknown variable 'maybe'") == true, result.context)
        #expect(result.stdout.hasCaret(under: "maybe", inSourceLine: #"query: { q: "{{ maybe }}" }"#), result.context)

        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.testCase("skipped capture")?.skipped == true)
        let step = try #require(report.testCase("uses it"))
        let problem = step.failure ?? step.error
        #expect(problem.map { ($0.message ?? "").contains("maybe") } == true)
        #expect(problem.map { $0.text.contains(location) } == true)
    }
}
