import CourierDiagnostics
@testable import CourierWorkflow
import Testing

/// `include:` resolved at load time: the included steps, errors in the
/// included file at their own position, cycles with the chain, missing files.
@Suite struct IncludeLoadingTests {
    func load(_ files: [String: String], main: String = "flows/main.yaml") -> (Result<Workflow, DiagnosticList>, SourceStore) {
        let sources = SourceStore()
        for (path, text) in files { sources.register(path: path, text: text) }
        return (loadWorkflow(path: main, sources: sources), sources)
    }

    func errors(_ result: Result<Workflow, DiagnosticList>) -> [String] {
        guard case .failure(let list) = result else { return [] }
        return list.diagnostics.filter { $0.severity == .error }.map(\.description)
    }

    @Test func literalIncludeIsLoadedRelativeToTheIncludingFile() throws {
        let (result, _) = load([
            "flows/main.yaml": "steps:\n  - include: ../shared/_login.yaml\n    vars: { user: ada }\n",
            "shared/_login.yaml": "- name: log in\n  request: { url: /login }\n  capture: { token: $.t }\n- include: _me.yaml\n",
            "shared/_me.yaml": "steps:\n  - name: me\n    request: { url: /me }\n",
        ])
        let workflow = try result.get()
        guard case .include(let include) = workflow.steps[0].action, let file = include.resolved else {
            Issue.record("the include was not resolved")
            return
        }
        #expect(file.path == "shared/_login.yaml")
        #expect(file.directory == "shared")
        #expect(file.displayName == "login")
        #expect(file.steps.count == 2)
        guard case .include(let nested) = file.steps[1].action, let inner = nested.resolved else {
            Issue.record("the nested include was not resolved")
            return
        }
        #expect(inner.path == "shared/_me.yaml")
        #expect(inner.steps.first?.request?.url.literalText == "/me")
    }

    @Test func errorsInTheIncludedFilePointIntoItWithANoteAtTheInclude() {
        let (result, sources) = load([
            "flows/main.yaml": "steps:\n  - include: _bad.yaml\n",
            "flows/_bad.yaml": "- request: { url: /x, hedaers: {} }\n",
        ])
        guard case .failure(let list) = result else {
            Issue.record("an error in the included file must fail the load")
            return
        }
        let error = list.diagnostics.first { $0.severity == .error }
        #expect(error?.description == "flows/_bad.yaml:1:23: error: unknown key 'hedaers' in request; did you mean 'headers'?")
        #expect(error?.notes.map(\.description) == ["flows/main.yaml:2:14: note: included from here"])
        let rendered = DiagnosticRenderer(sources: sources, color: false).render(list.diagnostics)
        #expect(rendered.contains("    1 | - request: { url: /x, hedaers: {} }"))
    }

    @Test func cyclesAreErrorsShowingTheChain() {
        let (result, _) = load([
            "flows/main.yaml": "steps:\n  - include: a.yaml\n",
            "flows/a.yaml": "- include: b.yaml\n",
            "flows/b.yaml": "- include: a.yaml\n",
        ])
        #expect(errors(result) == ["flows/b.yaml:1:12: error: include cycle: flows/a.yaml → flows/b.yaml → flows/a.yaml"])

        let (selfInclude, _) = load(["flows/main.yaml": "steps:\n  - include: ./main.yaml\n"])
        #expect(errors(selfInclude) == ["flows/main.yaml:2:14: error: include cycle: flows/main.yaml → flows/main.yaml"])
    }

    @Test func aFragmentIncludedTwiceIsFineAndReportedOnce() throws {
        let (result, _) = load([
            "flows/main.yaml": "steps:\n  - include: _f.yaml\n  - include: _f.yaml\n",
            "flows/_f.yaml": "- request: { url: /f }\n",
        ])
        #expect(try result.get().steps.count == 2)

        let (bad, _) = load([
            "flows/main.yaml": "steps:\n  - include: _f.yaml\n  - include: _f.yaml\n",
            "flows/_f.yaml": "- request: { url: /f, metod: GET }\n",
        ])
        #expect(errors(bad).count == 1)
    }

    @Test func missingFilesAreErrorsAtTheKeyThatNamesThem() {
        let yaml = """
            defaults:
              tls: { ca: certs/ca.pem }
            steps:
              - include: _nope.yaml
              - request:
                  url: /u
                  multipart:
                    - { name: f, file: fixtures/a.png }
              - request: { url: /b, body_file: big.bin }
              - request: { url: /t, body_file: "{{ name }}.bin" }
                expect: { schema: schemas/user.json }
            """
        let (result, _) = load(["flows/main.yaml": yaml])
        #expect(errors(result) == [
            "flows/main.yaml:2:14: error: no such file 'certs/ca.pem' for 'tls.ca' (looked for 'flows/certs/ca.pem': relative paths start at the directory of the file that names them)",
            "flows/main.yaml:4:14: error: no such file '_nope.yaml' for 'include' (looked for 'flows/_nope.yaml': relative paths start at the directory of the file that names them)",
            "flows/main.yaml:8:28: error: no such file 'fixtures/a.png' for 'file' (looked for 'flows/fixtures/a.png': relative paths start at the directory of the file that names them)",
            "flows/main.yaml:9:36: error: no such file 'big.bin' for 'body_file' (looked for 'flows/big.bin': relative paths start at the directory of the file that names them)",
            "flows/main.yaml:11:23: error: no such file 'schemas/user.json' for 'schema' (looked for 'flows/schemas/user.json': relative paths start at the directory of the file that names them)",
        ])
    }

    @Test func includeStepsTakeNoExpectCaptureRetryOrID() {
        let (result, _) = load([
            "flows/main.yaml": "steps:\n  - include: _f.yaml\n    id: x\n    expect: { status: 200 }\n",
            "flows/_f.yaml": "- request: { url: /f }\n",
        ])
        #expect(errors(result) == [
            "flows/main.yaml:3:5: error: 'id' does not apply to an 'include' step; put it on the included steps",
            "flows/main.yaml:4:5: error: 'expect' does not apply to an 'include' step; put it on the included steps",
        ])
    }

    @Test func anIncludedWorkflowsOtherKeysAreWarnedAbout() throws {
        let (result, _) = load([
            "flows/main.yaml": "steps:\n  - include: login.yaml\n",
            "flows/login.yaml": "name: login\nvars: { user: demo }\nsteps:\n  - request: { url: /login }\n",
        ])
        let workflow = try result.get()
        #expect(workflow.warnings.map(\.description) == [
            "flows/login.yaml:2:1: warning: 'vars' of an included workflow is not used: only its 'steps' run (give values with the include's 'vars:')",
        ])
    }

    @Test func templatedPathsWaitForTheRun() throws {
        let (result, _) = load(["flows/main.yaml": "steps:\n  - include: \"_{{ which }}.yaml\"\n"])
        guard case .include(let include) = try result.get().steps[0].action else {
            Issue.record("not an include")
            return
        }
        #expect(include.resolved == nil)
    }

    @Test func filePathsAreNormalisedLexically() {
        #expect(FilePaths.resolve("../shared/_login.yaml", against: "Workflows/users") == "Workflows/shared/_login.yaml")
        #expect(FilePaths.resolve("./a.yaml", against: ".") == "a.yaml")
        #expect(FilePaths.resolve("/abs/x.yaml", against: "w") == "/abs/x.yaml")
        #expect(FilePaths.resolve("../../x", against: "a") == "../x")
        #expect(FilePaths.directory(of: "a/b/c.yaml") == "a/b")
        #expect(FilePaths.baseName(of: "a/_login.yaml") == "_login")
    }
}
