import CourierDiagnostics
@testable import CourierWorkflow
import Testing

/// The static name check: what is an error, a warning, or fine.
@Suite struct VariableCheckerTests {
    func check(_ yaml: String, external: Set<String> = [], commandLineKnown: Bool = true,
               files: [String: String] = [:]) throws -> [String] {
        let sources = SourceStore()
        for (path, text) in files { sources.register(path: path, text: text) }
        let workflow = try decodeWorkflow(text: yaml, path: "t.yaml", sources: sources).get()
        return VariableChecker.check(workflow, externalNames: external, commandLineKnown: commandLineKnown).map(\.description)
    }

    @Test func typoIsAnErrorWithDidYouMean() throws {
        let yaml = """
            vars: { token: abc }
            steps:
              - request: { url: "/x", auth: { bearer: "{{ tokne }}" } }
            """
        let p1 = try check(yaml)
        #expect(p1 == ["t.yaml:3:47: error: unknown variable 'tokne'; did you mean 'token'?"])
        // Still an error in `validate` without --var: it is close to a defined name.
        let p2 = try check(yaml, commandLineKnown: false)
        #expect(p2 == ["t.yaml:3:47: error: unknown variable 'tokne'; did you mean 'token'?"])
    }

    @Test func commandLineNames() throws {
        let yaml = "steps:\n  - request: { url: \"{{ base_url }}/x\" }\n"
        #expect(try check(yaml, external: ["base_url"]).isEmpty)
        let p3 = try check(yaml)
        #expect(p3 == [
            "t.yaml:2:25: error: unknown variable 'base_url'; define it in 'vars:', capture it in an earlier step, or pass --var base_url=VALUE",
        ])
        let p4 = try check(yaml, commandLineKnown: false)
        #expect(p4 == [
            "t.yaml:2:25: warning: variable 'base_url' is not defined in the workflow; 'courier run' will need --var base_url=VALUE (give 'courier validate' the same --var or --vars-file to check it)",
        ])
    }

    @Test func definitionsInRunOrder() throws {
        let yaml = """
            vars:
              a: "{{ b }}"
              b: 1
              c: "{{ b | default(2) }} {{ maybe | default('x') }}"
            secrets:
              s: "{{ env.HOME }} {{ c }}"
            setup:
              - request: { url: "/setup" }
                capture: { from_setup: $.x, again: { json: $.y, default: "{{ from_setup }}" } }
            steps:
              - request: { url: "/{{ from_setup }}/{{ later }}" }
                id: first
              - request: { url: "/{{ steps.first.status }}/{{ steps.second.status }}" }
                capture: { later: $.l }
                id: second
            teardown:
              - request: { url: "/{{ later }}/{{ steps.second.json.id }}" }
            """
        let p5 = try check(yaml)
        #expect(p5 == [
            "t.yaml:2:10: error: variable 'b' is not defined yet here: it is first set at t.yaml:3:3, which runs later",
            "t.yaml:11:43: error: variable 'later' is not defined yet here: it is first set at t.yaml:14:16, which runs later",
            "t.yaml:13:51: error: 'steps.second' is read before step 'second' runs (it is at t.yaml:15:9)",
        ])
    }

    @Test func itemAndIndexOnlyInsideForEach() throws {
        let yaml = """
            steps:
              - request: { url: "/list" }
                capture: { ids: $.ids }
              - for_each: "{{ ids }}"
                name: "item {{ index }}"
                request: { url: "/items/{{ item }}" }
              - if: "{{ item == 1 }}"
                request: { url: "/x" }
            """
        let p6 = try check(yaml)
        #expect(p6 == ["t.yaml:7:13: error: 'item' is defined only inside a step with 'for_each' (not in the step's own 'if')"])
    }

    @Test func unknownStepIDWithSuggestion() throws {
        let yaml = """
            steps:
              - id: login
                request: { url: "/login" }
              - request: { url: "/{{ steps.logni.json.token }}/{{ steps['login'].status }}" }
            """
        let p7 = try check(yaml)
        #expect(p7 == ["t.yaml:4:26: error: unknown step id 'logni' in 'steps.logni'; did you mean 'login'?"])
    }

    /// Did-you-mean offers only names defined at the point of use: not an include's
    /// `vars:` outside it, and a capture only once made.
    @Test func suggestionsComeFromTheScopeOfTheUse() throws {
        let yaml = """
            steps:
              - include: _a.yaml
                vars: { region: eu }
              - request: { url: "/{{ regoin }}" }
              - request: { url: "/{{ sesion }}" }
                capture: { session: $.s }
              - request: { url: "/{{ sesion }}" }
            """
        let files = ["_a.yaml": "- request: { url: \"/{{ regoin }}\" }\n"]
        let problems = try check(yaml, files: files)
        #expect(problems == [
            "_a.yaml:1:24: error: unknown variable 'regoin'; did you mean 'region'?",
            "t.yaml:4:26: error: unknown variable 'regoin'; define it in 'vars:', capture it in an earlier step, or pass --var regoin=VALUE",
            "t.yaml:5:26: error: unknown variable 'sesion'; define it in 'vars:', capture it in an earlier step, or pass --var sesion=VALUE",
            "t.yaml:7:26: error: unknown variable 'sesion'; did you mean 'session'?",
        ])
    }

    /// An unknown step id that resembles none lists the earlier ids when they are few,
    /// and only counts them when there are many (a generated workflow has thousands).
    @Test func unknownStepIDAmongManyIsCounted() throws {
        var yaml = "steps:\n"
        for i in 0..<20 { yaml += "  - id: s\(i)\n    request: { url: /\(i) }\n" }
        yaml += "  - request: { url: \"/{{ steps.zzzzzz.status }}\" }\n"
        #expect(try check(yaml) == [
            "t.yaml:42:26: error: unknown step id 'zzzzzz' in 'steps.zzzzzz'; no earlier step of the 20 with an id has it",
        ])
    }

    /// A name left undefined in every step of a long generated workflow is a warning at
    /// each use, with every capture before it in scope. (That this takes time in
    /// proportion to the workflow is guarded by Benchmarks/guard.sh, not timed here.)
    @Test func oneUnknownNameInEveryStepOfALongWorkflow() throws {
        var yaml = "steps:\n"
        for i in 0..<3_000 { yaml += "  - request: { url: \"/{{ base }}/\(i)\" }\n    capture: { id\(i): $.id }\n" }
        let problems = try check(yaml, commandLineKnown: false)
        #expect(problems.count == 3_000)
        #expect(problems.allSatisfy { $0.contains("warning: variable 'base' is not defined in the workflow") })
    }

    @Test func includeVarsAreVisibleInsideOnlyAndCapturesAfterwards() throws {
        let yaml = """
            steps:
              - include: _login.yaml
                vars: { user: ada }
              - request: { url: "/{{ token }}/{{ user }}" }
            """
        let files = ["_login.yaml": "- request: { url: \"/login/{{ user }}/{{ pasword }}\" }\n  capture: { token: $.t }\n"]
        let problems = try check(yaml, files: files)
        #expect(problems == [
            "_login.yaml:1:41: error: unknown variable 'pasword'; define it in 'vars:', capture it in an earlier step, or pass --var pasword=VALUE",
            "t.yaml:4:38: error: unknown variable 'user'; define it in 'vars:', capture it in an earlier step, or pass --var user=VALUE",
        ])
    }

    @Test func afterATemplatedIncludeUnknownNamesAreWarnings() throws {
        let yaml = """
            vars: { which: a }
            steps:
              - include: "_{{ which }}.yaml"
              - request: { url: "/{{ from_include }}" }
            """
        let problems = try check(yaml)
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("t.yaml:4:26: warning: unknown variable 'from_include'") == true, "\(problems)")
    }

    @Test func defaultsMayUseAnyCapture() throws {
        let yaml = """
            defaults:
              headers: { Authorization: "Bearer {{ token }}", X-Id: "{{ nope }}" }
            steps:
              - request: { url: "/login" }
                capture: { token: $.t }
            """
        let p8 = try check(yaml)
        #expect(p8 == [
            "t.yaml:2:61: error: unknown variable 'nope'; define it in 'vars:', capture it in an earlier step, or pass --var nope=VALUE",
        ])
    }

    @Test func authLoginCapturesAreVisibleEverywhere() throws {
        let yaml = """
            vars: { id: courier, secret: s }
            auth:
              login:
                - request: { method: POST, url: /oauth/token, form: { client_id: "{{ id }}", client_secret: "{{ secret }}" } }
                  capture: { access_token: { json: $.access_token, secret: true } }
              apply:
                headers: { Authorization: "Bearer {{ access_token }}" }
            steps:
              - request: { url: "/p?t={{ access_token }}" }
            """
        let empty = try check(yaml)
        #expect(empty.isEmpty, "\(empty)")
    }
}
