import CourierDiagnostics
@testable import CourierEngine
import CourierJSON
import CourierWorkflow
import Testing

/// `--vars-file`: the command line parses the file, the engine evaluates its templates.
@Suite struct FileVariablesTests {
    func definitions(_ text: String) throws -> [VariableDefinition] {
        let sources = SourceStore()
        sources.register(path: "vars.yaml", text: text)
        return try loadVarsFile(path: "vars.yaml", sources: sources).get()
    }

    @Test func templatesUseTheRunsEnvironmentInFileOrder() throws {
        var settings = RunSettings()
        settings.environment = ["STAGE": "qa"]
        let errors = settings.addFileVariables(try definitions("host: \"api-{{ env.STAGE }}.local\"\nport: 8080\nhost2: plain\n"))
        #expect(errors.isEmpty)
        #expect(settings.fileVariables.map(\.name) == ["host", "port", "host2"])
        #expect(settings.fileVariables.first?.value == .string("api-qa.local"))
        #expect(RunPlan.Variables(file: settings.fileVariables, commandLine: settings.commandLineVariables).override(for: "host")
                == .string("api-qa.local"))
    }

    @Test func aTemplateErrorIsADiagnosticAtItsPlaceInTheFile() throws {
        var settings = RunSettings()
        let errors = settings.addFileVariables(try definitions("ok: 1\nbad: \"{{ env.NOPE_NOT_SET }}\"\n"))
        #expect(errors.map(\.message) == ["environment variable 'NOPE_NOT_SET' is not set"])
        #expect(errors.first?.range?.start.line == 2)
        #expect(settings.fileVariables.map(\.name) == ["ok"])
    }
}
