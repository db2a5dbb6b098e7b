import CourierDiagnostics
import CourierResults
import CourierSecrets
import Foundation
import Synchronization

/// Streams a run to a terminal or CI log: a line per step as it finishes, a
/// compiler-style block per failure, and a summary.
///
/// Writes only through a ``MaskedOutput``, one whole block per write (a step
/// line, a workflow's failures and transcripts), so the door masks each block
/// whole and no secret straddles two writes. Bodies and values are masked
/// before they are cut.
package final class ConsoleReporter: Sendable {
    package struct Options: Sendable {
        package var color = false
        /// Only failures and the summary.
        package var quiet = false
        /// Request and response of every step, not only of failed ones.
        package var verbose = false
        package init() {}
    }

    private let options: Options
    private let renderer: DiagnosticRenderer
    private let output: MaskedOutput
    /// Events may arrive from several workflows at once; keep their lines whole.
    /// Holds whether a workflow was already shown, to separate the next one.
    private let lock = Mutex(false)

    package init(options: Options, sources: SourceStore, output: MaskedOutput) {
        self.options = options
        self.renderer = DiagnosticRenderer(sources: sources, color: options.color)
        self.output = output
    }

    package func handle(_ event: RunEvent) {
        let text: String
        switch event {
        case .workflowStarted(let file, let name):
            text = options.quiet ? "" : style("\(file)", .bold) + (name.isEmpty ? "" : " — \(name)") + "\n"
        case .stepFinished(_, let step):
            text = options.quiet ? "" : stepLine(step)
        case .workflowFinished(let workflow):
            text = failureBlocks(workflow) + (options.verbose ? verboseTranscripts(workflow) : "")
        case .warning(_, let message): text = "warning: \(message)\n"
        }
        guard !text.isEmpty else { return }
        lock.withLock { shownAny in
            var block = text
            if case .workflowStarted = event, shownAny { block = "\n" + block }
            shownAny = true
            output.write(block)
        }
    }

    /// Writes the closing lines (see ``summary(_:)``).
    package func writeSummary(_ run: RunResult) {
        output.write(summary(run))
    }

    /// The closing lines: counts per outcome and the wall-clock time.
    package func summary(_ run: RunResult) -> String {
        var passed = 0, failed = 0, errored = 0, skipped = 0
        for step in run.workflows.flatMap(\.steps) {
            switch step.outcome {
            case .passed: passed += 1
            case .failed: failed += 1
            case .errored: errored += 1
            case .skipped: skipped += 1
            }
        }
        let failedWorkflows = run.workflows.filter { !$0.passed }.count
        var text = "\n"
        text += "\(run.workflows.count) workflow\(run.workflows.count == 1 ? "" : "s")"
        text += " (\(run.workflows.count - failedWorkflows) passed, \(failedWorkflows) failed),"
        let steps = passed + failed + errored + skipped
        text += " \(steps) step\(steps == 1 ? "" : "s"): \(passed) passed, \(failed) failed,"
        text += " \(errored) errored, \(skipped) skipped in \(Self.duration(run.durationMicroseconds))\n"
        if run.interrupted {
            let reason = run.interruption?.signalName ?? ""
            text += style("INTERRUPTED", .boldRed) + (reason.isEmpty ? "" : " by \(reason)") + "\n"
        } else {
            text += run.passed ? style("PASSED", .boldGreen) + "\n" : style("FAILED", .boldRed) + "\n"
        }
        return text
    }

    // MARK: - Pieces

    private func stepLine(_ step: StepResult) -> String {
        let status = step.attempts.last?.response.map { String($0.status) } ?? "---"
        let attempts = step.attempts.count > 1 ? " (\(step.attempts.count) attempts)" : ""
        let name = step.displayName
        switch step.outcome {
        case .passed:
            return "  " + style("PASS ", .green) + " \(name)  \(status)  \(Self.duration(step.durationMicroseconds))\(attempts)\n"
        case .failed:
            return "  " + style("FAIL ", .boldRed) + " \(name)  \(status)  \(Self.duration(step.durationMicroseconds))\(attempts)\n"
        case .errored(let error):
            return "  " + style("ERROR", .boldRed) + " \(name)  \(error.type)  \(Self.duration(step.durationMicroseconds))\(attempts)\n"
        case .skipped(let reason):
            return "  " + style("SKIP ", .dim) + " \(name)  (\(reason))\n"
        }
    }

    private func failureBlocks(_ workflow: WorkflowResult) -> String {
        let policy = output.policy
        var out = ""
        for step in workflow.steps where step.outcome.isProblem {
            out += "\n" + style("\(workflow.file) › \(step.displayName)", .bold) + "\n"
            switch step.outcome {
            case .failed(let failures):
                for failure in failures {
                    var diagnostic = renderer.render(Diagnostic.error(failure.message, at: failure.location))
                    for line in FailureText.comparison(expected: failure.expected?.rendered, actual: failure.actual?.rendered, policy: policy) {
                        diagnostic += colourDiffLine(line) + "\n"
                    }
                    out += diagnostic
                }
            case .errored(let error):
                var notes: [Diagnostic] = []
                if let hint = error.hint { notes.append(.note(hint, at: nil)) }
                out += renderer.render(Diagnostic.error(error.message, at: error.location, notes: notes))
            case .passed, .skipped:
                break
            }
            if !options.verbose, let attempt = step.attempts.last {
                out += indent(Transcript.render(attempt, policy: policy, bodyLimit: 2048)) + "\n"
            }
        }
        return out
    }

    private func verboseTranscripts(_ workflow: WorkflowResult) -> String {
        let policy = output.policy
        var out = ""
        for step in workflow.steps {
            for (index, attempt) in step.attempts.enumerated() {
                out += "\n" + style("\(step.displayName) — attempt \(index + 1)", .dim) + "\n"
                out += indent(Transcript.render(attempt, policy: policy)) + "\n"
            }
        }
        return out
    }

    /// Diff lines (`    - …`, `    + …`) in red and green on a terminal.
    private func colourDiffLine(_ line: String) -> String {
        guard options.color, line.hasPrefix("    ") else { return line }
        let body = line.dropFirst(4)
        if body.hasPrefix("- ") { return "    " + style(String(body), .red) }
        if body.hasPrefix("+ ") { return "    " + style(String(body), .green) }
        if body.hasPrefix("@@") { return "    " + style(String(body), .dim) }
        return line
    }

    private func indent(_ text: String) -> String {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { "    \($0)" }.joined(separator: "\n")
    }

    static func duration(_ microseconds: Int) -> String {
        microseconds < 1_000_000
            ? "\(max(0, microseconds) / 1000) ms"
            : String(format: "%.2f s", Double(microseconds) / 1_000_000)
    }

    // MARK: - Colour

    private enum Style: String {
        case bold = "1", dim = "2", red = "31", green = "32", boldGreen = "1;32", boldRed = "1;31"
    }

    private func style(_ text: String, _ style: Style) -> String {
        options.color ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }
}
