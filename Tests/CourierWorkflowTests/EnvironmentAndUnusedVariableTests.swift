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
