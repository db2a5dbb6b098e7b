import Foundation
import Testing

/// Issue 10, sections 2 and 3: what can be checked before sending is (JSON Schemas,
/// `env.NAME`, `--var` names), and templates work in header, query and form names and
/// in `status:`. Requests go to a local recorder, which shows exactly what arrived — or
/// that nothing did — and to the Python test server.
@Suite(.testServer)
struct CheckedBeforeSendingTests {
    /// `courier ARGS` in a workspace holding `flow.yaml`.
    private func courier(_ arguments: [String], _ yaml: String, environment: [String: String] = [:],
                         files: [String: String] = [:]) async throws -> ProcessResult {
        let workspace = try Workspace()
        try workspace.write("flow.yaml", yaml)
        for (path, text) in files { try workspace.write(path, text) }
        return try await Courier.run(arguments, in: workspace.url, environment: environment)
    }

    /// The header lines of a raw request named `name`, case-insensitively.
    private func headerLines(_ name: String, in request: String) -> [String] {
        let head = request.components(separatedBy: "\r\n\r\n").first ?? ""
        return head.components(separatedBy: "\r\n").filter { $0.lowercased().hasPrefix(name.lowercased() + ":") }
    }

    // MARK: - Schemas

    @Test("invalid JSON Schemas are exit 2 at load, for run and validate, and nothing is sent",
          arguments: [
            ("{ type: 5 }", "'type' must be a type name"),
            (#"{ $schema: "http://json-schema.org/draft-04/schema#" }"#, "unsupported '$schema'"),
            (#"{ $ref: "missing.json" }"#, "cannot resolve '$ref' 'missing.json'"),
            (##"{ $ref: "#/$defs/nope" }"##, "has nothing at '/$defs/nope'"),
            ("broken.json", "the schema file 'broken.json' is not JSON"),
          ])
    func invalidSchemas(schema: String, message: String) async throws {
        let recorder = try RequestRecorder()
        defer { recorder.stop() }
        let yaml = """
            steps:
              - request: { url: "\(recorder.baseURL)/items" }
                expect:
                  schema: \(schema)
            """
        let files = ["broken.json": "{\n  \"type\": \"object\",\n}\n"]
        let run = try await courier(["run", "flow.yaml"], yaml, files: files)
        #expect(run.status == 2, run.context)
        #expect(run.stderr.contains(message), run.context)
        #expect(recorder.received.isEmpty, "a request was sent: \(recorder.received)")
        let validate = try await courier(["validate", "flow.yaml"], yaml, files: files)
        #expect(validate.status == 2, validate.context)
        #expect(validate.stderr.contains(message), validate.context)
        if schema == "broken.json" {
            // The parser's own position in the schema file, with a note at `schema:`.
            #expect(run.stderr.contains("broken.json:2:20: error: the schema file 'broken.json' is not JSON"), run.context)
            #expect(run.stderr.contains("flow.yaml:4:15: note: the schema file is named here"), run.context)
        }
    }

    @Test("a valid schema file with a $ref to a file beside it is compiled at load and checks the response")
    func validSchemaFile() async throws {
        let server = try TestServer.shared()
        let files = [
            "schemas/item.json": #"{ "type": "object", "required": ["method"], "properties": { "method": { "$ref": "method.json" } } }"#,
            "schemas/method.json": #"{ "enum": ["POST"] }"#,
        ]
        let result = try await courier(["run", "flow.yaml", "--var", "base_url=\(server.baseURL)"], """
            steps:
              - request: { url: "{{ base_url }}/echo" }
                expect: { schema: schemas/item.json }
            """, files: files)
        #expect(result.status == 1, result.context)
        #expect(result.stdout.contains("'/method' does not match the schema"), result.context)
    }

    // MARK: - env and --var

    @Test("env.NAME that is not set is exit 2 before sending; with default(…) or set, the request goes out")
    func unsetEnvironmentVariable() async throws {
        let recorder = try RequestRecorder()
        defer { recorder.stop() }
        let name = "COURIER_IT_UNSET_4417"
        let yaml = """
            steps:
              - request:
                  url: "\(recorder.baseURL)/x"
                  headers: { X-A: "{{ env.\(name) }}" }
            """
        let run = try await courier(["run", "flow.yaml"], yaml)
        #expect(run.status == 2, run.context)
        #expect(run.stderr.contains(
            "flow.yaml:4:27: error: environment variable '\(name)' is not set; set it, pass --env-file, or write env.\(name) | default(…)"),
                run.context)
        #expect(recorder.received.isEmpty, "a request was sent: \(recorder.received)")

        let validate = try await courier(["validate", "flow.yaml"], yaml)
        #expect(validate.status == 0, "validate may run in another environment: a warning\n\(validate.context)")
        #expect(validate.stderr.contains("warning: environment variable '\(name)' is not set"), validate.context)

        let withDefault = try await courier(["run", "flow.yaml"], yaml.replacingOccurrences(of: "env.\(name) }}", with: "env.\(name) | default('x') }}"))
        #expect(withDefault.status == 0, withDefault.context)
        let set = try await courier(["run", "flow.yaml"], yaml, environment: [name: "from-env"])
        #expect(set.status == 0, set.context)
        #expect(recorder.received.count == 2)
        #expect(headerLines("X-A", in: recorder.received.first ?? "") == ["X-A: x"])
        #expect(headerLines("X-A", in: recorder.received.last ?? "") == ["X-A: from-env"])
    }

    @Test("--var that no workflow uses is exit 2 with a did-you-mean, and nothing is sent; a vars-file name is not checked")
    func unusedCommandLineVariable() async throws {
        let recorder = try RequestRecorder()
        defer { recorder.stop() }
        let yaml = """
            vars:
              base_url: \(recorder.baseURL)
            steps:
              - request: { url: "{{ base_url }}/x" }
            """
        let run = try await courier(["run", "flow.yaml", "--var", "bsae_url=http://127.0.0.1:1"], yaml)
        #expect(run.status == 2, run.context)
        #expect(run.stderr.contains("error: --var bsae_url=… is not used by the selected workflow; did you mean 'base_url'?"), run.context)
        #expect(recorder.received.isEmpty, "a request was sent: \(recorder.received)")
        let validate = try await courier(["validate", "flow.yaml", "--var", "bsae_url"], yaml)
        #expect(validate.status == 2, validate.context)
        #expect(validate.stderr.contains("did you mean 'base_url'?") && validate.stderr.contains("1 error on the command line"),
                validate.context)

        // Overriding a `vars:` entry is a use; a vars file may hold names other workflows use.
        let overriding = try await courier(["run", "flow.yaml", "--var", "base_url=\(recorder.baseURL)", "--vars-file", "shared.yaml"], yaml,
                                           files: ["shared.yaml": "other_workflows_token: abc\n"])
        #expect(overriding.status == 0, overriding.context)
        #expect(recorder.received.count == 1)
    }

    @Test("--var unused by the literal workflow is only a warning when a templated include could use it")
    func unusedVariableWithARunTimeInclude() async throws {
        let recorder = try RequestRecorder()
        defer { recorder.stop() }
        let result = try await courier(["run", "flow.yaml", "--var", "part=_part.yaml", "--var", "token=t0k"], """
            steps:
              - include: "{{ part }}"
            """, files: ["_part.yaml": "- request: { url: \"\(recorder.baseURL)/x\", headers: { X-Token: \"{{ token }}\" } }\n"])
        #expect(result.status == 0, result.context)
        #expect(result.stderr.contains("warning: --var token=… is not used by the selected workflow"), result.context)
        #expect(headerLines("X-Token", in: recorder.received.first ?? "") == ["X-Token: t0k"])
    }

    // MARK: - Templated names

    @Test("a templated header name is sent rendered, once, in place of a default of the same name in another case")
    func templatedHeaderName() async throws {
        let recorder = try RequestRecorder()
        defer { recorder.stop() }
        let result = try await courier(["run", "flow.yaml", "--var", "key=x-fruit"], """
            defaults:
              headers: { X-Fruit: Pear, X-Other: "1" }
            steps:
              - request:
                  url: "\(recorder.baseURL)/x"
                  headers: { "{{ key }}": Apple }
            """)
        #expect(result.status == 0, result.context)
        let request = try #require(recorder.received.first)
        #expect(headerLines("X-Fruit", in: request) == ["x-fruit: Apple"], "\(request)")
        #expect(headerLines("X-Other", in: request) == ["X-Other: 1"], "\(request)")
        #expect(!request.contains("{{"), "\(request)")
    }

    @Test("templated query and form names are sent rendered (the Python echo server shows them)")
    func templatedQueryAndFormNames() async throws {
        let server = try TestServer.shared()
        let result = try await courier(["run", "flow.yaml", "--var", "base_url=\(server.baseURL)", "--var", "k=colour"], """
            steps:
              - request:
                  method: POST
                  url: "{{ base_url }}/echo"
                  query: { "{{ k }}": red }
                  form: { "f_{{ k }}": blue }
                expect:
                  json:
                    $.raw_path: /echo?colour=red
                    $.body: f_colour=blue
            """)
        #expect(result.status == 0, result.context)
    }

    @Test("an unrenderable header name is a step error at the key")
    func invalidRenderedHeaderName() async throws {
        let recorder = try RequestRecorder()
        defer { recorder.stop() }
        let result = try await courier(["run", "flow.yaml", "--var", "key=X Fruit"], """
            steps:
              - request: { url: "\(recorder.baseURL)/x", headers: { "{{ key }}": Apple } }
            """)
        #expect(result.status == 1, result.context)
        #expect(result.stdout.contains("the header name 'X Fruit' contains a space"), result.context)
        #expect(recorder.received.isEmpty)
    }

    // MARK: - Status templates

    @Test("status: \"{{ code }}\" is rendered when checked")
    func statusTemplate() async throws {
        let server = try TestServer.shared()
        let yaml = """
            steps:
              - request: { url: "{{ base_url }}/status/201" }
                expect: { status: "{{ code }}" }
            """
        let passing = try await courier(["run", "flow.yaml", "--var", "base_url=\(server.baseURL)", "--var", "code=201"], yaml)
        #expect(passing.status == 0, passing.context)
        let byClass = try await courier(["run", "flow.yaml", "--var", "base_url=\(server.baseURL)", "--var", "code=2xx"], yaml)
        #expect(byClass.status == 0, byClass.context)
        let failing = try await courier(["run", "flow.yaml", "--var", "base_url=\(server.baseURL)", "--var", "code=204"], yaml)
        #expect(failing.status == 1, failing.context)
        #expect(failing.stdout.contains("status: expected 204, got 201"), failing.context)
        let invalid = try await courier(["run", "flow.yaml", "--var", "base_url=\(server.baseURL)", "--var", "code=ok"], yaml)
        #expect(invalid.status == 1, invalid.context)
        #expect(invalid.stdout.contains("status: the template gave \"ok\", not a code from 100 to 599"), invalid.context)
    }
}
