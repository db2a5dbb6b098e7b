import CourierDiagnostics
import CourierEngine
import CourierWorkflow

/// `courier list [PATH...]`: workflows, their tags and steps.
enum ListCommand {
    static let parser = ArgumentParser(command: "list", options: [
        .init(names: ["--help", "-h"], takesValue: false, help: "show this help"),
    ])

    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        let parsed = try parser.parse(arguments)
        if parsed.has("--help") {
            Output.out("usage: courier list [PATH...]\n\n\(parser.optionsHelp)\n")
            return ExitCode.passed
        }
        let files = try WorkflowDiscovery.files(in: parsed.positional)
        let sources = SourceStore()
        let loaded = WorkflowLoading.load(files, sources: sources)
        if loaded.hasErrors {
            WorkflowLoading.report(loaded.diagnostics, sources: sources, color: Output.useColor(nil, fileDescriptor: 2))
            return ExitCode.invalid
        }
        var text = ""
        for workflow in loaded.workflows {
            let tags = workflow.tags.isEmpty ? "" : " [" + workflow.tags.map(\.value).joined(separator: ", ") + "]"
            text += "\(workflow.file): \(workflow.name)\(tags)\n"
            for (phase, steps) in [("setup", workflow.setup), ("", workflow.steps), ("teardown", workflow.teardown)] {
                for step in steps {
                    text += "  " + (phase.isEmpty ? "" : "(\(phase)) ") + StepNaming.name(of: step) + "\n"
                }
            }
        }
        Output.out(text)
        return ExitCode.passed
    }
}
