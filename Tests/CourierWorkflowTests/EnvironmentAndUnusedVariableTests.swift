import CourierDiagnostics
@testable import CourierWorkflow
import Testing

/// `env.NAME` the environment does not set, `--var` names nothing uses, and the
/// names in templated keys: all found before anything is sent.
@Suite struct EnvironmentAndUnusedVariableTests {
    private func workflow(_ yaml: String, files: [String: String] = [:]) throws -> Workflow {
        let sources = SourceStore()
        for (path, text) in files { sources.register(path: path, text: text) }
        return try decodeWorkflow(text: yaml, path: "t.yaml", sources: sources).get()
    }

    private func environmentCheck(_ yaml: String, _ variables: [String: String], run: Bool = true) throws -> [String] {
        VariableChecker.check(try workflow(yaml), externalNames: [],
                              environment: .init(variables, isTheRunsEnvironment: run)).map(\.description)
    }

    @Test func anUnsetEnvironmentVariableIsAnErrorAtItsPosition() throws {
        let yaml = """
            steps:
              - request: { url: "http://h/{{ env.API_HOST }}", headers: { X-K: "{{ env['API_KEY'] }}" } }
            """
        #expect(try environmentCheck(yaml, ["API_HOST": "h", "API_KEY": "k"]).isEmpty)
        #expect(try environmentCheck(yaml, ["API_KEY": "k"]) == [
            "t.yaml:2:34: error: environment variable 'API_HOST' is not set; set it, pass --env-file, or write env.API_HOST | default(…)",
        ])
        #expect(try environmentCheck(yaml, ["API_HOST": "h"]) == [
            "t.yaml:2:72: error: environment variable 'API_KEY' is not set; set it, pass --env-file, or write env.API_KEY | default(…)",
        ])
    }

    /// The hint names the variable the way a template can: `env.NAME` when that parses back
    /// to the same name, the bracket form otherwise (a UUID-like name has `-` before digits).
    @Test func theHintUsesTheBracketFormWhenNeeded() throws {
        let uuid = "1385F1EB-DC5C-4A2B-9C1D-000000000001"
        let yaml = "steps:\n  - request: { url: \"http://h/{{ env['\(uuid)'] }}/{{ env.X-Trace }}\" }\n"
        let problems = try environmentCheck(yaml, [:])
        #expect(problems == [
            "t.yaml:2:34: error: environment variable '\(uuid)' is not set; set it, pass --env-file, or write env['\(uuid)'] | default(…)",
            "t.yaml:2:84: error: environment variable 'X-Trace' is not set; set it, pass --env-file, or write env.X-Trace | default(…)",
        ])
        // Each suggested form parses back to the same variable.
        for name in [uuid, "X-Trace", "A_1", "9LIVES", "a-"] {
            let reference = VariableChecker.environmentReference(name)
            let fixed = "steps:\n  - request: { url: \"http://h/{{ \(reference) | default('d') }}\" }\n"
            #expect(try environmentCheck(fixed, [:]).isEmpty, "\(reference)")
            #expect(try environmentCheck("steps:\n  - request: { url: \"http://h/{{ \(reference) }}\" }\n", [name: "v"]).isEmpty, "\(reference)")
        }
    }

    @Test func validateOnlyWarns() throws {
        let messages = try environmentCheck("steps:\n  - request: { url: \"http://h/{{ env.NOPE }}\" }\n", [:], run: false)
        #expect(messages.count == 1)
        #expect(messages.first?.contains("warning: environment variable 'NOPE' is not set") == true, "\(messages)")
    }

    @Test func defaultMakesItOptionalAndNoEnvironmentMeansNoCheck() throws {
        let yaml = "steps:\n  - request: { url: \"http://h/{{ env.NOPE | default('x') }}\" }\n"
        #expect(try environmentCheck(yaml, [:]).isEmpty)
        let plain = "steps:\n  - request: { url: \"http://h/{{ env.NOPE }}\" }\n"
        #expect(VariableChecker.check(try workflow(plain), externalNames: []).isEmpty)
    }

    @Test func usedNamesCoverTemplatesDefaultsVarsKeysAndLiteralIncludes() throws {
        let w = try workflow("""
            vars: { base_url: "http://h" }
            secrets: { token: abcdefgh }
            steps:
              - request:
                  url: "{{ base_url }}/{{ region | default('eu') }}"
                  headers: { "{{ header_key }}": v }
                  query: { "{{ query_key }}": v }
                expect: { status: "{{ code }}" }
              - include: _part.yaml
            """, files: ["_part.yaml": "- request: { url: \"{{ inner }}\" }\n"])
        let used = VariableChecker.usedNames(in: w)
        #expect(used.names.isSuperset(of: ["base_url", "token", "region", "header_key", "query_key", "code", "inner"]), "\(used.names)")
        #expect(!used.runTimeIncludes)
    }

    @Test func anUnusedCommandLineVariableIsAnErrorWithDidYouMean() throws {
        let w = try workflow("vars: { base_url: x }\nsteps:\n  - request: { url: \"{{ base_url }}/a\" }\n")
        #expect(UnusedVariables.check([w], commandLineNames: ["base_url"]).isEmpty, "overriding vars: is a use")
        let found = UnusedVariables.check([w], commandLineNames: ["bsae_url", "bsae_url"])
        #expect(found.map(\.description) == ["error: --var bsae_url=… is not used by the selected workflow; did you mean 'base_url'?"])
        let other = UnusedVariables.check([w, w], commandLineNames: ["zzz"])
        #expect(other.map(\.description) == ["error: --var zzz=… is not used by any selected workflow"])
    }

    @Test func aTemplatedIncludeMakesItAWarning() throws {
        let w = try workflow("steps:\n  - include: \"{{ part }}\"\n")
        let found = UnusedVariables.check([w], commandLineNames: ["part", "token"])
        #expect(found.map(\.severity) == [.warning])
        #expect(found.first?.message.contains("--var token=… is not used") == true)
    }
}
