import Foundation
import Testing

/// Section 9 of the spec: templates, names, filters, functions, operators, and
/// the workflow `auth:` example (the flow itself in detail: AuthFlowTests).
@Suite(.testServer)
struct SpecSection9Tests {
    @Test("section 9: single expressions keep their type; env, steps, item/index, member and index access; every filter and function; operators")
    func templates() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("t.yaml", """
            name: templates
            vars:
              count: 3
              user: { name: " Ada ", roles: [admin, dev] }
              text: "a b&c"
            steps:
              - id: first
                request: { url: "{{ base_url }}/json", query: { size: "{{ count }}" } }
              - name: "round {{ index }}: {{ item }}"
                for_each: [x, y]
                request:
                  method: POST
                  url: "{{ base_url }}/echo"
                  json:
                    count: "{{ count }}"
                    text: "n={{ count }}"
                    role: "{{ user.roles[0] }}"
                    role_by_key: "{{ user['roles'][-1] }}"
                    home: "{{ env.COURIER_IT_HOME }}"
                    status: "{{ steps.first.status }}"
                    item: "{{ item }}"
                    index: "{{ index }}"
                    default: "{{ missing | default('fallback') }}"
                    upper: "{{ user.name | trim | upper }}"
                    lower: "{{ 'ABC' | lower }}"
                    length: "{{ user.roles | length }}"
                    first: "{{ user.roles | first }}"
                    last: "{{ user.roles | last }}"
                    b64: "{{ 'Ada' | base64_encode }}"
                    unb64: "{{ 'QWRh' | base64_decode }}"
                    url: "{{ text | url_encode }}"
                    json: "{{ user.roles | json }}"
                    sha: "{{ 'abc' | sha256 }}"
                    int: "{{ '42' | int }}"
                    float: "{{ '1.5' | float }}"
                    string: "{{ count | string }}"
                    uuid: "{{ uuid() }}"
                    now: "{{ now() }}"
                    ts: "{{ timestamp() }}"
                    rnd: "{{ random_int(1, 6) }}"
                    rstr: "{{ random_string(8) | length }}"
                    ops: "{{ count >= 3 and not (count == 4) or count < 0 }}"
                    cmp: "{{ 'a' != 'b' and count <= 3 and count > 2 }}"
                expect:
                  json:
                    $.json.count: 3
                    $.json.text: n=3
                    $.json.role: admin
                    $.json.role_by_key: dev
                    $.json.home: /home/courier
                    $.json.status: 200
                    $.json.item: "{{ item }}"
                    $.json.index: "{{ index }}"
                    $.json.default: fallback
                    $.json.upper: ADA
                    $.json.lower: abc
                    $.json.length: 2
                    $.json.first: admin
                    $.json.last: dev
                    $.json.b64: QWRh
                    $.json.unb64: Ada
                    $.json.url: { matches: "^a(%20|\\\\+)b%26c$" }
                    $.json.json: '["admin","dev"]'
                    $.json.sha: ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
                    $.json.int: 42
                    $.json.float: 1.5
                    $.json.string: "3"
                    $.json.uuid: { uuid: true }
                    $.json.now: { iso_date: true }
                    $.json.ts: { type: integer, gt: 1700000000 }
                    $.json.rnd: { gte: 1, lte: 6 }
                    $.json.rstr: 8
                    $.json.ops: true
                    $.json.cmp: true
              - name: only when the status was 200
                if: "{{ steps.first.status == 200 and steps.first.json.count == count }}"
                request: { url: "{{ base_url }}/health" }
            """)
        let result = try await Courier.run(files: ["t.yaml"], workspace: workspace, server: server,
                                           extra: ["--junit", "junit.xml"], environment: ["COURIER_IT_HOME": "/home/courier"])
        #expect(result.status == 0, result.context)
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"))
        #expect(report.cases.map(\.name) == ["GET {{ base_url }}/json", "round 0: x [1]", "round 1: y [2]", "only when the status was 200"],
                "\(report.cases.map(\.name))")
        #expect(report.cases.allSatisfy { $0.passed }, "\(report.cases)")
    }

    @Test("section 9: the workflow auth example validates without warnings and runs as written: login first, then the protected request")
    func authExampleRuns() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("auth.yaml", """
            name: auth flow
            vars: { id: courier, secret: secret }
            auth:                         # workflow-wide: login once, add credentials, refresh on 401
              login:                      # steps run before the first request that needs auth
                - request:
                    method: POST
                    url: /oauth/token
                    form: { grant_type: client_credentials, client_id: "{{ id }}", client_secret: "{{ secret }}" }
                  capture: { access_token: { json: $.access_token, secret: true } }
              apply:
                headers: { Authorization: "Bearer {{ access_token }}" }
              refresh_on: [401]           # on these statuses: run `login` again, resend the request once
            defaults: { base_url: "{{ base_url }}" }
            steps:
              - request: { url: /protected }
              - request: { url: /health, auth: none }
            """)
        let result = try await Courier.run(["validate", "--var", "base_url", "auth.yaml"], in: workspace.url)
        #expect(result.status == 0, result.context)
        #expect(!result.stderr.contains(": warning: ") && !result.stderr.contains(": error: "), result.context)

        let run = try await Courier.run(files: ["auth.yaml"], workspace: workspace, server: server)
        #expect(run.status == 0, run.context)
        let steps = run.stdout.lines.filter { $0.hasPrefix("  PASS") }.map { $0.replacingOccurrences(of: #"\s+\d+ ms$"#, with: "", options: .regularExpression) }
        #expect(steps == ["  PASS  auth › POST /oauth/token  200", "  PASS  GET /protected  200", "  PASS  GET /health  200"], run.context)
    }

    @Test("static name check in validate: a typo is an error before anything is sent; --var names count; command-line-only names warn")
    func staticNameCheck() async throws {
        let workspace = try Workspace()
        let yaml = """
            name: typo
            vars: { token: abc }
            steps:
              - request: { url: "{{ base_url }}/x", auth: { bearer: "{{ tokne }}" } }
            """
        try workspace.write("typo.yaml", yaml)
        let plain = try await Courier.run(["validate", "typo.yaml"], in: workspace.url)
        #expect(plain.status == 2, plain.context)
        let position = try #require(yaml.position(of: "tokne", inLineContaining: "bearer"))
        #expect(plain.stderr.contains("typo.yaml:\(position.line):\(position.column): error: unknown variable 'tokne'; did you mean 'token'?"), plain.context)
        #expect(plain.stderr.hasCaret(under: "tokne", inSourceLine: #"auth: { bearer: "{{ tokne }}" } }"#), plain.context)
        #expect(plain.stderr.contains("warning: variable 'base_url' is not defined in the workflow; 'courier run' will need --var base_url=VALUE"),
                plain.context)

        try workspace.write("ok.yaml", "name: ok\nsteps:\n  - request: { url: \"{{ base_url }}/x\" }\n")
        let withVar = try await Courier.run(["validate", "--var", "base_url=http://x", "ok.yaml"], in: workspace.url)
        #expect(withVar.status == 0 && withVar.stderr.isEmpty, withVar.context)
        let withOtherVar = try await Courier.run(["validate", "--var", "other=1", "ok.yaml"], in: workspace.url)
        #expect(withOtherVar.status == 2, "with --var given, the names are known: base_url is an error\n\(withOtherVar.context)")
        try workspace.write("vars.yaml", "base_url: http://x\n")
        let withFile = try await Courier.run(["validate", "--vars-file", "vars.yaml", "ok.yaml"], in: workspace.url)
        #expect(withFile.status == 0, withFile.context)
        let run = try await Courier.run(["run", "ok.yaml"], in: workspace.url)
        #expect(run.status == 2 && run.stderr.contains("nothing was sent"), run.context)
    }
}
