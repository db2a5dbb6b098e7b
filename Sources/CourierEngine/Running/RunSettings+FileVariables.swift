import CourierDiagnostics
import CourierWorkflow

extension RunSettings {
    /// Evaluates a `--vars-file`'s definitions, in file order, and appends their values to
    /// ``fileVariables``. The command line reads and parses the file (its errors have
    /// positions, before anything is sent); templates are the engine's business. They may use
    /// `env.NAME` (the run's ``environment``, so set that first) and nothing else: the file
    /// belongs to no workflow. Returns the template errors, at their place in the file.
    package mutating func addFileVariables(_ definitions: [VariableDefinition]) -> [Diagnostic] {
        let renderer = TemplateRenderer(scope: Scope(environment: environment))
        var errors: [Diagnostic] = []
        for definition in definitions {
            do {
                fileVariables.append((definition.name, try renderer.value(definition.value)))
            } catch {
                errors.append(.error(error.message, at: error.range))
            }
        }
        return errors
    }
}
