import Foundation
import Testing

/// Section 4 of the spec: every step key, includes (vars, captures afterwards,
/// nesting, cycles), `for_each` over a captured list, `if` on captured values,
/// and teardown after a failure — against testserver.py.
///
/// Included steps are reported as their own testcases named
/// `<include name> › <step name>`: the include step's `name:`, else the file
/// name without extension and leading `_` (`_login.yaml` → `login`).
@Suite(.testServer)
struct SpecSection4Tests {
    @Test("step keys: name default, id and steps.<id>.status/headers/json/body/duration_ms, if, for_each, delay, continue_on_failure")
    func stepKeys() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("steps.yaml", """
            name: step keys
            steps:
              - id: items
                request: { url: "{{ base_url }}/json", query: { size: 3 } }
                capture: { ids: "$.items[*].id", count: $.count }
              - name: read steps.items
                request:
                  url: "{{ base_url }}/echo"
                  query:
                    status: "{{ steps.items.status }}"
                    type: "{{ steps.items.headers['Content-Type'] }}"
                    first: "{{ steps.items.json.items[0].name }}"
                    body: "{{ steps.items.body | length }}"
                    ms: "{{ steps.items.duration_ms }}"
                expect:
                  json:
                    $.query.status[0]: "200"
                    $.query.type[0]: { starts_with: application/json }
                    $.query.first[0]: item-1
                    $.query.body[0]: { matches: "^[0-9]+$" }
                    $.query.ms[0]: { matches: "^[0-9]+$" }
              - name: "item {{ item }} at {{ index }}"
                for_each: "{{ ids }}"
                request: { url: "{{ base_url }}/echo", query: { id: "{{ item }}", i: "{{ index }}" } }
                expect:
                  json:
                    $.query.id[0]: "{{ item | string }}"
              - name: "colour {{ item }}"
                for_each: [red, green]
                request: { url: "{{ base_url }}/echo?c={{ item }}" }
              - name: only with three items
                if: "{{ count == 3 and ids[2] == 3 }}"
                request: { url: "{{ base_url }}/health" }
              - name: never
                if: "{{ count > 3 }}"
                request: { url: "{{ base_url }}/health" }
              - name: after a pause
                delay: 300ms
                request: { url: "{{ base_url }}/health" }
              - name: may fail
                continue_on_failure: true
                request: { url: "{{ base_url }}/status/503" }
              - request: { url: "{{ base_url }}/health" }
            """)
        let result = try await Courier.run(files: ["steps.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml"])
        #expect(result.status == 1, "the 503 step fails the run\n\(result.context)")
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.cases.map(\.name) == [
            "GET {{ base_url }}/json", "read steps.items",
            "item 1 at 0 [1]", "item 2 at 1 [2]", "item 3 at 2 [3]",
            "colour red [1]", "colour green [2]",
            "only with three items", "never", "after a pause", "may fail", "GET {{ base_url }}/health",
        ], "\(report.cases.map(\.name))")
        #expect(report.cases.filter { $0.passed }.count == 10, "\(report.cases)")
        #expect(report.testCase("never")?.skipped == true)
        #expect(report.testCase("may fail")?.failure != nil)
        #expect(report.testCase("GET {{ base_url }}/health")?.passed == true, "continue_on_failure: the last step runs")
        let pause = try #require(report.testCase("after a pause"))
        #expect(pause.passed)
        #expect(result.stdout.line(containing: "after a pause").map { Self.milliseconds(in: $0) ?? 0 >= 300 } == true,
                "the step's time should include its delay\n\(result.context)")
    }

    @Test("include: relative path, vars visible inside only, captures afterwards, nested includes, named testcases")
    func include() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("flows/main.yaml", """
            name: include
            vars: { user: nobody }
            steps:
              - include: ../shared/_login.yaml
                vars: { user: demo, password: secret }
              - name: use the token
                request: { url: "{{ base_url }}/protected", auth: { bearer: "{{ token }}" } }
                expect: { json: { $.user: demo } }
              - name: the include's vars are gone
                request: { url: "{{ base_url }}/echo", query: { user: "{{ user }}" } }
                expect:
                  json:
                    $.query.user[0]: nobody
              - name: as admin
                include: ../shared/_login.yaml
                vars: { user: demo, password: secret }
                for_each: [1, 2]
            """)
        try workspace.write("shared/_login.yaml", """
            - name: log in
              request:
                method: POST
                url: "{{ base_url }}/auth/login"
                json: { username: "{{ user }}", password: "{{ password }}" }
              capture: { token: { json: $.access_token, secret: true } }
            - include: _whoami.yaml
            """)
        try workspace.write("shared/_whoami.yaml", """
            name: a workflow whose steps are taken
            steps:
              - name: who am i
                request: { url: "{{ base_url }}/protected", auth: { bearer: "{{ token }}" } }
                expect: { json: { $.user: "{{ user }}" } }
            """)
        let validate = try await Courier.run(["validate", "--var", "base_url", "flows/main.yaml"], in: workspace.url)
        #expect(validate.status == 0, validate.context)

        let result = try await Courier.run(files: ["flows/main.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml"])
        #expect(result.status == 0, result.context)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.cases.map(\.name) == [
            "login › log in", "login › whoami › who am i", "use the token", "the include's vars are gone",
            "as admin [1] › log in", "as admin [1] › whoami › who am i",
            "as admin [2] › log in", "as admin [2] › whoami › who am i",
        ], "\(report.cases.map(\.name))")
        #expect(report.cases.allSatisfy { $0.passed }, "\(report.cases)")
        try await JUnitReport.validateAgainstSchema(workspace.url.appendingPathComponent("junit.xml"))
    }

    @Test("include problems are found before anything is sent: cycles (exit 2, the chain), errors inside at their own position, missing files")
    func includeErrors() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("a.yaml", "name: a\nsteps:\n  - request: { url: \"{{ base_url }}/health\" }\n  - include: _b.yaml\n")
        try workspace.write("_b.yaml", "- include: _c.yaml\n")
        try workspace.write("_c.yaml", "- include: a.yaml\n")
        try workspace.write("typo.yaml", "name: typo\nsteps:\n  - include: _typo.yaml\n  - include: _nope.yaml\n")
        try workspace.write("_typo.yaml", "- request: { url: \"{{ base_url }}/health\", hedaers: {} }\n")
        let before = try server.getJSON("/auth/stats")

        let cycle = try await Courier.run(files: ["a.yaml"], workspace: workspace, server: server)
        #expect(cycle.status == 2, cycle.context)
        #expect(cycle.stderr.contains("_c.yaml:1:12: error: include cycle: a.yaml → _b.yaml → _c.yaml → a.yaml"), cycle.context)
        #expect(!cycle.stdout.contains("PASS"), "a step ran\n\(cycle.context)")

        let validate = try await Courier.run(["validate", "typo.yaml"], in: workspace.url)
        #expect(validate.status == 2, validate.context)
        #expect(validate.stderr.contains("_typo.yaml:1:44: error: unknown key 'hedaers' in request; did you mean 'headers'?"), validate.context)
        #expect(validate.stderr.contains("typo.yaml:3:14: note: included from here"), validate.context)
        #expect(validate.stderr.contains("typo.yaml:4:14: error: no such file '_nope.yaml' for 'include'"), validate.context)
        _ = before
    }

    @Test("teardown runs after a failure, with the captures made before it")
    func teardownAfterFailure() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("teardown.yaml", """
            name: teardown
            setup:
              - name: create
                request: { url: "{{ base_url }}/json?size=1" }
                capture: { created: "$.items[0].name" }
            steps:
              - name: breaks
                request: { url: "{{ base_url }}/status/500" }
              - name: skipped
                request: { url: "{{ base_url }}/health" }
            teardown:
              - name: delete
                request: { method: DELETE, url: "{{ base_url }}/echo", query: { name: "{{ created }}" } }
                expect:
                  json:
                    $.method: DELETE
                    $.query.name[0]: item-1
            """)
        let result = try await Courier.run(files: ["teardown.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml"])
        #expect(result.status == 1, result.context)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.cases.map(\.name) == ["create", "breaks", "skipped", "delete"])
        #expect(report.testCase("breaks")?.failure != nil)
        #expect(report.testCase("skipped")?.skipped == true)
        #expect(report.testCase("delete")?.passed == true, "\(report.cases)")
    }

    /// The `12 ms` of a console step line.
    static func milliseconds(in line: String) -> Int? {
        guard let range = line.range(of: #"[0-9]+ ms"#, options: .regularExpression) else {
            return line.range(of: #"[0-9.]+ s"#, options: .regularExpression).flatMap { Double(line[$0].dropLast(2)) }.map { Int($0 * 1000) }
        }
        return Int(line[range].dropLast(3))
    }
}
