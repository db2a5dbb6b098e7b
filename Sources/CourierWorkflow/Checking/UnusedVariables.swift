import CourierDiagnostics

/// `--var NAME=…` that no selected workflow uses: almost always a typo
/// (`--var bsae_url=…` silently ran against the default host).
///
/// A workflow uses a name when a template reads it (under `default(…)` too),
/// in the workflow or its literal includes, or when `vars:`/`secrets:` defines
/// it (the `--var` overrides that). It is an error with a did-you-mean, but only
/// a warning when a selected workflow has an `include:` with a templated path:
/// the file loaded at run time may use it.
///
/// Names from `--vars-file` are not checked: one vars file is typically shared
/// by many workflows, each using some of its names.
package enum UnusedVariables {
    package static func check(_ workflows: [Workflow], commandLineNames: [String]) -> [Diagnostic] {
        guard !commandLineNames.isEmpty else { return [] }
        return check(workflows.map(NameFacts.init), commandLineNames: commandLineNames)
    }

    /// The same, from the workflows' recorded facts.
    package static func check(_ workflows: [NameFacts], commandLineNames: [String]) -> [Diagnostic] {
        guard !commandLineNames.isEmpty else { return [] }
        var used: Set<String> = []
        var runTimeIncludes = false
        for workflow in workflows {
            let uses = VariableChecker.usedNames(in: workflow)
            used.formUnion(uses.names)
            runTimeIncludes = runTimeIncludes || uses.runTimeIncludes
        }
        var diagnostics: [Diagnostic] = []
        var reported: Set<String> = []
        for name in commandLineNames where !used.contains(name) && reported.insert(name).inserted {
            let selected = workflows.count == 1 ? "the selected workflow" : "any selected workflow"
            var message = "--var \(name)=… is not used by \(selected)"
            if let close = suggestion(for: name, among: used.subtracting(["env", "steps", "item", "index"])) {
                message += "; did you mean '\(close)'?"
            }
            if runTimeIncludes {
                diagnostics.append(.warning(message + " (an include whose path is known only at run time may use it)", at: nil))
            } else {
                diagnostics.append(.error(message, at: nil))
            }
        }
        return diagnostics
    }
}
