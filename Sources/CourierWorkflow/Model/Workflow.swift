import CourierDiagnostics

/// A decoded workflow file: immutable, every node located (spec section 3).
package struct Workflow: Sendable {
    /// The path as given to the loader.
    package var file: String
    /// The directory relative paths in the workflow resolve against
    /// (`.` for a bare file name).
    package var directory: String
    /// `name:`, or the file name without extension.
    package var name: String
    package var description: String?
    package var tags: [Located<String>]
    /// In file order; a var may use earlier ones.
    package var vars: [VariableDefinition]
    /// Like `vars`, but masked in every output.
    package var secrets: [VariableDefinition]
    package var defaults: RequestOptions
    package var auth: AuthFlow?
    package var setup: [Step]
    package var steps: [Step]
    package var teardown: [Step]
    package var continueOnFailure: Bool
    package var range: SourceRange
    /// Warnings found while loading (the workflow is still valid).
    package var warnings: [Diagnostic] = []

    package init(file: String, directory: String, name: String, description: String?, tags: [Located<String>],
                 vars: [VariableDefinition], secrets: [VariableDefinition], defaults: RequestOptions, auth: AuthFlow?,
                 setup: [Step], steps: [Step], teardown: [Step], continueOnFailure: Bool, range: SourceRange) {
        self.file = file
        self.directory = directory
        self.name = name
        self.description = description
        self.tags = tags
        self.vars = vars
        self.secrets = secrets
        self.defaults = defaults
        self.auth = auth
        self.setup = setup
        self.steps = steps
        self.teardown = teardown
        self.continueOnFailure = continueOnFailure
        self.range = range
    }
}

/// `name: value` under `vars:`, `secrets:`, an include's `vars:` or a vars file.
package struct VariableDefinition: Sendable {
    package var name: String
    package var value: TemplateValue
    /// The name's range.
    package var range: SourceRange

    package init(name: String, value: TemplateValue, range: SourceRange) {
        self.name = name
        self.value = value
        self.range = range
    }
}
