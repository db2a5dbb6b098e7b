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

    @Test("an unknown variable fails the step, naming the variable and its file:line:col")
    func unknownVariable() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let yaml = """
            name: unknown variable
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
        #expect(result.status == 1, result.context)
        let position = try #require(yaml.position(of: "no_such_variable", inLineContaining: "no_such_variable"))
        let location = "unknown.yaml:\(position.line):\(position.column)"
        let line = result.stdout.line(containing: location)
        #expect(line?.contains("no_such_variable") == true, "expected '\(location): … no_such_variable'\n\(result.context)")
        #expect(result.stdout.hasCaret(under: "no_such_variable", inSourceLine: #"query: { q: "{{ no_such_variable }}" }"#),
                result.context)

        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.testCase("fine")?.passed == true)
        let typo = try #require(report.testCase("typo"))
        let problem = typo.failure ?? typo.error
        #expect(problem != nil, "the step with the unknown variable should not pass")
        #expect(problem.map { ($0.message ?? "").contains("no_such_variable") } == true)
        #expect(problem.map { $0.text.contains(location) } == true)
    }
}
