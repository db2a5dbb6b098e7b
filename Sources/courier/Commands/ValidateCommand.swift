import CourierDiagnostics
import Foundation

/// `courier validate [PATH...]`: parse and check, send nothing.
enum ValidateCommand {
    static let parser = ArgumentParser(command: "validate", options: [
        .init(names: ["--color"], takesValue: true, help: "auto, always or never (NO_COLOR is honoured)"),
        .init(names: ["--quiet", "-q"], takesValue: false, help: "print only diagnostics"),
        .init(names: ["--help", "-h"], takesValue: false, help: "show this help"),
    ])

    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        let parsed = try parser.parse(arguments)
        if parsed.has("--help") {
            Output.out("usage: courier validate [options] [PATH...]\n\n\(parser.optionsHelp)\n")
            return ExitCode.passed
        }
        let files = try WorkflowDiscovery.files(in: parsed.positional)
        let sources = SourceStore()
        let loaded = WorkflowLoading.load(files, sources: sources)
        let color = Output.useColor(parsed.last("--color"), fileDescriptor: 2)
        WorkflowLoading.report(loaded.diagnostics, sources: sources, color: color)
        let errors = loaded.diagnostics.filter { $0.severity == .error }.count
        if errors > 0 {
            let badFiles = Set(loaded.diagnostics.compactMap { $0.range?.file }).count
            Output.err("\(errors) error\(errors == 1 ? "" : "s") in \(badFiles) of \(files.count) file\(files.count == 1 ? "" : "s")\n")
            return ExitCode.invalid
        }
        if !parsed.has("--quiet") {
            Output.out("\(files.count) workflow\(files.count == 1 ? "" : "s") valid\n")
        }
        return ExitCode.passed
    }
}
