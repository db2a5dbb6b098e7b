import CourierDiagnostics
import CourierReports
import Foundation

/// `courier merge-reports OUT IN...`: the JUnit or JSON reports of separate runs
/// (CI shards) as one report, as if one run had run every workflow.
///
/// Every input is read and checked before anything is written: a broken input
/// is named (with its line and column when the problem is in its text) and OUT
/// is left as it was.
enum MergeReportsCommand: CourierCommand {
    static let parser = ArgumentParser(command: "merge-reports", options: [
        .init(names: ["--color"], value: "WHEN", help: "auto, always or never (NO_COLOR is honoured)"),
        .init(names: ["--help", "-h"], value: nil, help: "show this help"),
    ])

    /// `courier merge-reports --help`, also `courier help merge-reports`.
    static var help: String {
        """
        usage: courier merge-reports [options] OUT IN...

        Merges the JUnit reports IN (of runs over different workflows: CI shards) into OUT
        ('-' for standard output): every test case of every input, in order, counts and times summed.
        JSON reports (--json) merge the same way; the inputs must be all JUnit or all JSON.
        A workflow in two inputs is an error; OUT is written only when every input is valid.

        \(parser.optionsHelp)

        """
    }

    static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard let parsed = try parse(arguments) else { return ExitCode.passed }
        guard parsed.positional.count >= 2 else {
            throw UsageError("'courier merge-reports' takes OUT and at least one IN: courier merge-reports OUT IN...")
        }
        let out = parsed.positional[0]
        var inputs: [JUnitMerge.Input] = []
        var unreadable: [Diagnostic] = []
        for path in parsed.positional.dropFirst() {
            do {
                inputs.append(.init(path: path, bytes: try BoundedFileReader.read(path, limit: maxReportBytes, what: "reports")))
            } catch {
                unreadable.append(.error("cannot read the report '\(path)': \(error.reasonText)", at: nil))
            }
        }
        let sources = SourceStore()
        let color = Output.useColor(parsed.last("--color"), fileDescriptor: 2)
        let renderer = DiagnosticRenderer(sources: sources, color: color)
        guard unreadable.isEmpty else {
            Output.err(renderer.styled(unreadable))
            return ExitCode.invalid
        }
        switch ReportMerge.merge(inputs) {
        case .invalid(let problems):
            for input in inputs where problems.contains(where: { $0.file == input.path }) {
                _ = sources.register(path: input.path, text: String(decoding: input.bytes, as: UTF8.self))
            }
            let diagnostics = problems.map { problem -> Diagnostic in
                let notes = problem.related.map { [Diagnostic.note("first in \($0.file)\($0.line.map { ":\($0)" } ?? "")", at: nil)] } ?? []
                guard let line = problem.line, let column = problem.column else {
                    return .error("\(problem.file): \(problem.message)", at: nil, notes: notes)
                }
                return .error(problem.message, at: SourceRange(at: SourceLocation(file: problem.file, line: line, column: column)), notes: notes)
            }
            Output.err(renderer.styled(diagnostics))
            let files = Set(problems.map(\.file)).count
            Output.err("\(problems.count) error\(problems.count == 1 ? "" : "s") in \(files) of \(inputs.count) report\(inputs.count == 1 ? "" : "s"); '\(out)' not written\n")
            return ExitCode.invalid
        case .merged(let text):
            do {
                try ReportWriter.write(text, to: out, maskingWith: Output.secrets)
            } catch {
                Output.err(renderer.styled(Diagnostic.error(error.description, at: nil)))
                return ExitCode.invalid
            }
            return ExitCode.passed
        }
    }

    /// A report far larger than any run writes is a mistake (a wrong file), not one to hold in memory.
    static let maxReportBytes = 512 * 1024 * 1024
}
