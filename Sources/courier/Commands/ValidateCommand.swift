import CourierDiagnostics
import CourierWorkflow
import Foundation

/// `courier validate [PATH...]`: parse and check, send nothing.
///
/// Besides the structure, it checks what can be known before a run: included
/// files (and include cycles), literal file paths, and template names (see
/// `VariableChecker`). Given `--var NAME[=VALUE]` or `--vars-file` (the names
/// `courier run` will get), any other unknown name is an error, as in `run`.
/// Without them, a name the workflow does not define may come from the
/// command line: it is a warning, unless it is close to a defined name
/// (`tokne` for `token`), which is an error.
enum ValidateCommand: CourierCommand {
    static let parser = ArgumentParser(command: "validate", options: [
        .init(names: ["--var"], value: "NAME[=VALUE]", help: "NAME or NAME=VALUE: a variable the run will get from the command line (repeatable)"),
        .init(names: ["--vars-file"], value: "FILE", help: "a YAML map of variables the run will get"),
        .init(names: ["--exclude"], value: "GLOB", help: "leave out files and directories below PATH matching GLOB (gitignore syntax; repeatable)"),
        .init(names: ["--color"], value: "WHEN", help: "auto, always or never (NO_COLOR is honoured)"),
        .init(names: ["--quiet", "-q"], value: nil, help: "print only diagnostics"),
        .init(names: ["--help", "-h"], value: nil, help: "show this help"),
    ])

    /// `courier validate --help`, also `courier help validate`.
    static var help: String {
        """
        usage: courier validate [options] [PATH...]

        Checks the workflows named, and those found below each directory (default: .), sending nothing.

        \(parser.optionsHelp)

        """
    }

    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard let parsed = try parse(arguments) else { return ExitCode.passed }
        let found = try discover(parsed)
        let sources = SourceStore()
        // Each step is checked as it is decoded, then dropped: nothing here runs them.
        var loaded = load(found, sources: sources, quiet: parsed.has("--quiet"), keepingSteps: false)
        let skipped = Set(loaded.skipped)
        let files = found.candidates.map(\.path).filter { !skipped.contains($0) }
        WorkflowLoading.registerLiteralSecrets(of: loaded.workflows, in: Output.secrets)
        var externalNames = Set<String>()
        for assignment in parsed.all("--var") {
            let name = assignment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            guard !name.isEmpty else { throw UsageError("--var takes NAME or NAME=VALUE, not '\(assignment)'") }
            externalNames.insert(name)
        }
        for path in parsed.all("--vars-file") {
            switch loadVarsFile(path: path, sources: sources) {
            case .success(let definitions): externalNames.formUnion(definitions.map(\.name))
            case .failure(let list): loaded.diagnostics += list.diagnostics
            }
        }
        let commandLineKnown = !parsed.all("--var").isEmpty || !parsed.all("--vars-file").isEmpty
        loaded.diagnostics += WorkflowLoading.checkNames(loaded.facts, externalNames: externalNames, commandLineKnown: commandLineKnown,
                                                         environment: .init(ProcessInfo.processInfo.environment, isTheRunsEnvironment: false))
        if loaded.workflows.count == files.count && !loaded.workflows.isEmpty {
            loaded.diagnostics += UnusedVariables.check(loaded.facts, commandLineNames: parsed.all("--var").map {
                $0.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            })
        }
        let color = Output.useColor(parsed.last("--color"), fileDescriptor: 2)
        WorkflowLoading.report(loaded.diagnostics, sources: sources, color: color)
        let errors = loaded.diagnostics.filter { $0.severity == .error }.count
        if errors > 0 {
            let badFiles = Set(loaded.diagnostics.filter { $0.severity == .error }.compactMap { $0.range?.file })
            let plural = errors == 1 ? "" : "s"
            if badFiles.isEmpty {
                // Only errors without a place in a file (an unused --var).
                Output.err("\(errors) error\(plural) on the command line\n")
            } else if badFiles.isSubset(of: files) {
                Output.err("\(errors) error\(plural) in \(badFiles.count) of \(files.count) file\(files.count == 1 ? "" : "s")\n")
            } else {
                Output.err("\(errors) error\(plural) in \(badFiles.count) file\(badFiles.count == 1 ? "" : "s") (counting included files)\n")
            }
            return ExitCode.invalid
        }
        if files.isEmpty {
            // Validating nothing must not pass as "0 workflows valid".
            Output.err("error: " + EmptySelection.message(found: found, skipped: loaded.skipped.count, workflows: 0, criteria: .init()) + "\n")
            return ExitCode.invalid
        }
        if !parsed.has("--quiet") {
            Output.out("\(files.count) workflow\(files.count == 1 ? "" : "s") valid\n")
        }
        return ExitCode.passed
    }
}
