import CourierDiagnostics
import CourierEngine
import CourierWorkflow
import Foundation

/// `courier list [PATH...]`: workflows, their tags and steps.
enum ListCommand: CourierCommand {
    static let parser = ArgumentParser(command: "list", options: selectionOptions + ShardRequest.options + otherOptions)

    /// What picks the workflows, before `--shard` slices them.
    private static let selectionOptions: [ArgumentParser.Option] = [
        .init(names: ["--exclude"], value: "GLOB", help: "leave out files and directories below PATH matching GLOB (gitignore syntax; repeatable)"),
    ]

    private static let otherOptions: [ArgumentParser.Option] = [
        .init(names: ["--help", "-h"], value: nil, help: "show this help"),
    ]

    /// `courier list --help`, also `courier help list`.
    static var help: String {
        """
        usage: courier list [options] [PATH...]

        Lists the workflows named, and those found below each directory (default: .), with their tags and steps.

        \(parser.optionsHelp)

        """
    }

    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard let parsed = try parse(arguments) else { return ExitCode.passed }
        let shard = try ShardRequest.resolve(parsed, environment: ProcessInfo.processInfo.environment)
        let found = try discover(parsed)
        let sources = SourceStore()
        let loaded = load(found, sources: sources, quiet: false)
        if loaded.hasErrors {
            WorkflowLoading.report(loaded.diagnostics, sources: sources, color: Output.useColor(nil, fileDescriptor: 2))
            return ExitCode.invalid
        }
        if loaded.workflows.isEmpty {
            Output.err("error: " + EmptySelection.message(found: found, skipped: loaded.skipped.count, workflows: 0, criteria: .init()) + "\n")
            return ExitCode.invalid
        }
        var text = ""
        var workflows = loaded.workflows
        if let shard {
            // The slice `courier run --shard` with the same options would run, without running it.
            workflows = shard.slice(workflows, found: found)
            text += shard.headline(taken: workflows.count, of: loaded.workflows.count)
        }
        for workflow in workflows {
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
