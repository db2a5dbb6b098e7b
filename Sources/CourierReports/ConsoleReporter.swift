import CourierDiagnostics
import CourierResults
import CourierSecrets
import Foundation
import CourierSync

/// Streams a run to a terminal or CI log: a line per step as it finishes, a
/// compiler-style block per failure, and a summary.
///
/// Workflows may run at once (`--jobs`): each workflow's lines form one block, and
/// blocks never interleave. The oldest running workflow streams live (one long
/// workflow, or `-v`, shows progress as it happens); the others are kept and
/// printed whole, in the order they started (the run's path order), when every
/// workflow before them has been printed. On a terminal, a status line under the
/// output says what is running; it is erased before each write.
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
        /// A live line saying what is running, erased before each write: only on a terminal.
        package var statusLine = false
        /// `--dry-run`: step lines say RENDER with the request built, the summary counts requests rendered.
        package var dryRun = false
        package init() {}
    }

    private let options: Options
    private let renderer: DiagnosticRenderer
    private let output: MaskedOutput
    /// Events arrive from several workflows at once: the blocks not printed yet, in start order.
    private let state = PthreadLock(Blocks())
    /// With -v, login steps whose exchanges are not shown yet, per workflow file.
    private let deferredLogins = PthreadLock<[String: [StepResult]]>([:])
    /// With -v, the attempts shown as they happened, per workflow file and step: not shown again.
    private let shownAttempts = PthreadLock<[String: Set<Int>]>([:])

    /// A started workflow's block. The first one is live: its text is written as it comes.
    private struct Block {
        var file: String
        /// Written, not kept, while the block is live.
        var pending = TerminalText()
        /// It has a header line (not in quiet mode), to be set apart from the block before.
        var hasHeader: Bool
        var finished = false
    }

    private struct Blocks {
        var list: [Block] = []
        /// Something was written already: the next header gets a blank line before it.
        var shownAny = false
        var statusShown = false
        /// The status line as last written, so an unchanged one is not written again.
        var status = TerminalText()
        var finishedCount = 0
    }

    package init(options: Options, sources: SourceStore, output: MaskedOutput) {
        self.options = options
        self.renderer = DiagnosticRenderer(sources: sources, color: options.color)
        self.output = output
    }

    package func handle(_ event: RunEvent) {
        // Rendered outside the lock: transcripts of large bodies take time.
        switch event {
        case .stepFinished where options.quiet && !options.verbose,
             .attemptRetried where options.quiet && !options.verbose,
             .attemptFinished where options.quiet && !options.verbose:
            // `-q` without `-v` shows nothing of a step or an attempt as it happens: returned
            // before anything is taken out of the event (which copied the whole step result).
            return
        case .workflowStarted(let file, let name):
            let header: TerminalText = options.quiet ? "" : style("\(file)", .bold) + (name.isEmpty ? "" : " — \(name)") + "\n"
            state.withLock { state in
                var out = TerminalText()
                state.list.append(Block(file: file, hasHeader: !header.isEmpty))
                add(header, toBlockAt: state.list.count - 1, isHeader: true, in: &state, out: &out)
                write(out, state: &state)
            }
        case .stepFinished(let file, let step):
            append(stepText(step, of: file), toWorkflow: file)
        case .workflowFinished(let workflow):
            finish(workflow, with: (options.verbose ? takeDeferredLogins(of: workflow.file) : TerminalText()) + failureBlocks(workflow))
        case .warning(let file, let message):
            append("warning: \(message)\n", toWorkflow: file)
        case .attemptRetried(let file, let step, let retry):
            // As it happens, before the step's own line: a long wait is never a silent one.
            append(options.quiet ? "" : "  " + style("RETRY", .dim) + " \(step)  \(retry.message)\n", toWorkflow: file)
        case .attemptFinished(let file, let step, let phase, let number, let attempt):
            // With -v, an attempt that is retried is shown at once, its RETRY line next: a step
            // retried for minutes shows each exchange as it happens. The deciding attempt follows
            // the step's line; a login's wait like the rest of the login (below).
            guard options.verbose && phase != .auth && attempt.retry != nil else { return }
            shownAttempts.withLock { _ = $0[Self.key(step, file), default: []].insert(number) }
            // `-q` has no RETRY lines: the transcript says why it was retried.
            append(takeDeferredLogins(of: file) + attemptTranscript(attempt, number: number, of: step, withRetry: options.quiet),
                   toWorkflow: file)
        }
    }

    /// A finished step's line and, with -v, its exchanges.
    private func stepText(_ step: StepResult, of file: String) -> TerminalText {
        // With -v the step's exchanges follow its line at once, not at the workflow's end,
        // except a login's (below): they are shown with the next event of the workflow.
        let deferred = options.verbose ? takeDeferredLogins(of: file) : ""
        // `-q -v`: no step lines, the exchanges still (failure blocks leave them to -v).
        let line = options.quiet ? "" : stepLine(step)
        if options.verbose && step.phase == .auth {
            deferLogin(step, of: file)
            return deferred + line
        }
        let shown = options.verbose ? takeShownAttempts(of: step.displayName, in: file) : []
        return deferred + line + (options.verbose ? verboseTranscripts(step, except: shown) : TerminalText())
    }

    /// Adds `text` to the running workflow `file`'s block. Nothing to show (`-q`, the usual
    /// case of attempts) leaves the blocks and the status line as they are: nothing to lock for.
    private func append(_ text: TerminalText, toWorkflow file: String) {
        guard !text.isEmpty else { return }
        state.withLock { state in
            var out = TerminalText()
            add(text, toBlockAt: state.list.firstIndex { $0.file == file && !$0.finished }, in: &state, out: &out)
            write(out, state: &state)
        }
    }

    /// The workflow's last text, then the blocks after it that can be printed now.
    private func finish(_ workflow: WorkflowResult, with text: TerminalText) {
        state.withLock { state in
            var out = TerminalText()
            let index = state.list.firstIndex { $0.file == workflow.file && !$0.finished }
            add(text, toBlockAt: index, in: &state, out: &out)
            if let index { state.list[index].finished = true }
            state.finishedCount += 1
            // The live block is done: the next ones are printed, whole if they are done too.
            while state.list.first?.finished == true {
                state.list.removeFirst()
                guard !state.list.isEmpty else { break }
                out += separated(state.list[0].pending, hasHeader: state.list[0].hasHeader, state: &state)
                state.list[0].pending = TerminalText()
            }
            write(out, state: &state)
        }
    }

    /// A login's captures become credentials when `apply` puts them on the next request:
    /// only then does the masking policy know them (a capture need not say `secret: true`).
    /// So a login's exchanges wait for the workflow's next event, when they are masked.
    private func deferLogin(_ step: StepResult, of file: String) {
        deferredLogins.withLock { $0[file, default: []].append(step) }
    }

    private func takeDeferredLogins(of file: String) -> TerminalText {
        let steps = deferredLogins.withLock { $0.removeValue(forKey: file) } ?? []
        return steps.map { verboseTranscripts($0) }.reduce(TerminalText(), +)
    }

    private func takeShownAttempts(of step: String, in file: String) -> Set<Int> {
        shownAttempts.withLock { $0.removeValue(forKey: Self.key(step, file)) } ?? []
    }

    private static func key(_ step: String, _ file: String) -> String { file + "\u{0}" + step }

    /// Adds `text` to a block: written at once when the block is live (or unknown), else kept.
    private func add(_ text: TerminalText, toBlockAt index: Int?, isHeader: Bool = false, in state: inout Blocks, out: inout TerminalText) {
        guard !text.isEmpty else { return }
        guard let index, index > 0 else {
            out += separated(text, hasHeader: isHeader, state: &state)
            return
        }
        state.list[index].pending += text
    }

    /// A block's text with a blank line before its header when something was shown already.
    private func separated(_ text: TerminalText, hasHeader: Bool, state: inout Blocks) -> TerminalText {
        guard !text.isEmpty else { return TerminalText() }
        defer { state.shownAny = true }
        return hasHeader && state.shownAny ? "\n" + text : text
    }

    /// One write: the status line erased, the text, the status line again.
    private func write(_ text: TerminalText, state: inout Blocks) {
        guard options.statusLine else {
            if !text.isEmpty { output.write(text) }
            return
        }
        let running = state.list.filter { !$0.finished }.map(\.file)
        var status = TerminalText()
        if !running.isEmpty {
            var names = running.prefix(3).joined(separator: ", ")
            if running.count > 3 { names += " +\(running.count - 3)" }
            var line = "running \(running.count) (\(state.finishedCount) done): \(names)"
            // One terminal line, so that erasing it erases all of it (counted before escaping:
            // a name's control characters make it longer, never shorter).
            if line.count > 76 { line = String(line.prefix(75)) + "…" }
            status = style(line, .dim)
        }
        guard !text.isEmpty || status != state.status else { return }
        output.write((state.statusShown ? Self.eraseLine : TerminalText()) + text + status)
        state.statusShown = !status.isEmpty
        state.status = status
    }

    /// Carriage return, then erase the line: where the status line was.
    private static let eraseLine = TerminalText.control(.eraseLine)

    /// Writes the closing lines (see ``summary(_:)``).
    package func writeSummary(_ run: RunResult) {
        let erase = state.withLock { state -> Bool in
            defer { state.statusShown = false; state.status = TerminalText() }
            return state.statusShown
        }
        output.write((erase ? Self.eraseLine : TerminalText()) + summary(run))
    }

    /// The closing lines: the recap of failed steps, counts per outcome, the
    /// wall-clock time and the requests sent.
    package func summary(_ run: RunResult) -> TerminalText {
        recap(run) + counts(run)
    }

    /// One line per failed or errored step (`file:line  workflow › step  — reason`),
    /// so that a long log needs no scrolling back to find what failed.
    package func recap(_ run: RunResult) -> TerminalText {
        var lines = ""
        for workflow in run.workflows {
            for step in workflow.steps {
                guard let reason = step.outcome.reason else { continue }
                let place = step.location.map { "\($0.start.file):\($0.start.line)" } ?? workflow.file
                let title = workflow.name.isEmpty ? workflow.file : workflow.name
                // The reason is the run's text: masked like every line (the door masks again).
                lines += "  \(place)  \(title) › \(step.displayName)  — \(output.policy.mask(reason))\n"
            }
        }
        return lines.isEmpty ? TerminalText() : "\n" + style("Failed:", .bold) + "\n" + TerminalText(lines)
    }

    /// `, 12 requests (40.1/s)`: every request sent, redirects and retries included.
    static func requestRate(_ run: RunResult) -> String {
        let requests = run.requestsSent
        let seconds = Double(max(1, run.durationMicroseconds)) / 1_000_000
        return ", \(requests) request\(requests == 1 ? "" : "s") (\(DecimalText.fixed(Double(requests) / seconds, decimals: 1))/s)"
    }

    /// Counts per outcome, time and requests, then PASSED, FAILED or INTERRUPTED.
    private func counts(_ run: RunResult) -> TerminalText {
        let counts = run.stepCounts
        let (passed, failed, errored, skipped) = (counts.passed, counts.failed, counts.errored, counts.skipped)
        // Workflows `--fail-fast` never started are neither passed nor failed.
        let workflows = run.workflowCounts
        var text: TerminalText = "\n"
        text += "\(workflows.total) workflow\(workflows.total == 1 ? "" : "s")"
        text += " (\(workflows.passed) passed, \(workflows.failed) failed"
        text += (workflows.cancelled > 0 ? ", \(workflows.cancelled) cancelled" : "")
        text += (workflows.notRun > 0 ? ", \(workflows.notRun) not run" : "") + "),"
        let steps = counts.total
        text += " \(steps) step\(steps == 1 ? "" : "s"): \(passed) \(options.dryRun ? "rendered" : "passed"), \(failed) failed,"
        let cancelled = run.stepsCancelledByFailFast
        text += " \(errored) errored, \(skipped) skipped" + (cancelled > 0 ? " (\(cancelled) cancelled by --fail-fast)" : "")
        text += " in \(Self.duration(run.durationMicroseconds))"
        // A dry run sent nothing: a request rate would read as if it had.
        text += (options.dryRun ? "" : Self.requestRate(run)) + "\n"
        if options.dryRun && !run.interrupted {
            // Not PASSED: nothing was checked against the API.
            let rendered = run.workflows.flatMap(\.steps).flatMap(\.attempts).filter(Self.isOnlyRendered).count
            let line = "DRY RUN: \(rendered) request\(rendered == 1 ? "" : "s") rendered, 0 sent"
                + (errored > 0 ? ", \(errored) step\(errored == 1 ? "" : "s") did not render" : "")
            text += style(line, run.passed ? .boldGreen : .boldRed) + "\n"
        } else if run.interrupted {
            let reason = run.interruption?.signalName ?? ""
            text += style("INTERRUPTED", .boldRed) + (reason.isEmpty ? "" : " by \(reason)") + "\n"
        } else {
            text += run.passed ? style("PASSED", .boldGreen) + "\n" : style("FAILED", .boldRed) + "\n"
        }
        return text
    }

    // MARK: - Pieces

    private func stepLine(_ step: StepResult) -> TerminalText {
        let status = step.attempts.last?.response.map { String($0.status) } ?? "---"
        let attempts = step.attempts.count > 1 ? "\(step.attempts.count) attempts  " : ""
        let name = step.displayName
        switch step.outcome {
        case .passed:
            if options.dryRun, let attempt = step.attempts.last, Self.isOnlyRendered(attempt) {
                // Nothing was sent, so no status and no time: what would have been sent.
                return "  " + label("RENDER", .green) + " \(name)  \(attempt.request.method) \(attempt.request.url)\n"
            }
            return "  " + label("PASS", .green) + " \(name)  \(status)  \(attempts)\(Self.duration(step.durationMicroseconds))\n"
        case .failed:
            return "  " + label("FAIL", .boldRed) + " \(name)  \(status)  \(attempts)\(Self.duration(step.durationMicroseconds))\n"
        case .errored(let error):
            return "  " + label("ERROR", .boldRed) + " \(name)  \(error.type)  \(attempts)\(Self.duration(step.durationMicroseconds))\n"
        case .skipped(let reason):
            return "  " + label("SKIP", .dim) + " \(name)  (\(reason))\n"
        }
    }

    /// A step line's outcome word, padded so names line up (one wider in a dry run, for RENDER).
    private func label(_ word: String, _ style: TerminalControl) -> TerminalText {
        let width = options.dryRun ? 6 : 5
        return self.style(word.padding(toLength: max(width, word.count), withPad: " ", startingAt: 0), style)
    }

    /// An attempt with neither response nor error: built, never sent (`--dry-run`).
    static func isOnlyRendered(_ attempt: Attempt) -> Bool {
        attempt.response == nil && attempt.error == nil
    }

    private func failureBlocks(_ workflow: WorkflowResult) -> TerminalText {
        let policy = output.policy
        var out = TerminalText()
        // By index: `for step in` copied every step result (and all it holds) to look at its outcome.
        for index in workflow.steps.indices where workflow.steps[index].outcome.isProblem {
            let step = workflow.steps[index]
            out += "\n" + style("\(workflow.file) › \(step.displayName)", .bold) + "\n"
            switch step.outcome {
            case .failed(let failures):
                for failure in failures {
                    var diagnostic = renderer.styled(Diagnostic.error(failure.message, at: failure.location))
                    for line in FailureText.comparison(expected: failure.expected?.rendered, actual: failure.actual?.rendered, policy: policy) {
                        diagnostic += colourDiffLine(line) + "\n"
                    }
                    out += diagnostic
                }
            case .errored(let error):
                var notes: [Diagnostic] = []
                if let hint = error.hint { notes.append(.note(hint, at: nil)) }
                out += renderer.styled(Diagnostic.error(error.message, at: error.location, notes: notes))
            case .passed, .skipped:
                break
            }
            if !options.verbose, let attempt = step.attempts.last {
                out += indent(Transcript.render(attempt, policy: policy, bodyLimit: 2048)) + "\n"
            }
            if let curl = step.attempts.last?.curl { out += indent(curl) + "\n" }
        }
        return out
    }

    /// Every attempt's exchange but those shown already (as they happened).
    private func verboseTranscripts(_ step: StepResult, except shown: Set<Int> = []) -> TerminalText {
        var out = TerminalText()
        for (index, attempt) in step.attempts.enumerated() where !shown.contains(index + 1) {
            out += attemptTranscript(attempt, number: index + 1, of: step.displayName, withRetry: true)
        }
        return out
    }

    /// `name — attempt N`, the exchange, and (`withRetry`) why it was retried.
    private func attemptTranscript(_ attempt: Attempt, number: Int, of step: String, withRetry: Bool) -> TerminalText {
        var out: TerminalText = "\n" + style("\(step) — attempt \(number)", .dim) + "\n"
        out += indent(Transcript.render(attempt, policy: output.policy, verbose: true)) + "\n"
        if withRetry, let retry = attempt.retry { out += indent("* " + retry.message) + "\n" }
        return out
    }

    /// Diff lines (`    - …`, `    + …`) in red and green on a terminal.
    private func colourDiffLine(_ line: String) -> TerminalText {
        guard options.color, line.hasPrefix("    ") else { return TerminalText(line) }
        let body = line.dropFirst(4)
        if body.hasPrefix("- ") { return "    " + style(String(body), .red) }
        if body.hasPrefix("+ ") { return "    " + style(String(body), .green) }
        if body.hasPrefix("@@") { return "    " + style(String(body), .dim) }
        return TerminalText(line)
    }

    private func indent(_ text: String) -> String {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { "    \($0)" }.joined(separator: "\n")
    }

    static func duration(_ microseconds: Int) -> String {
        microseconds < 1_000_000
            ? "\(max(0, microseconds) / 1000) ms"
            : DecimalText.fixed(Double(microseconds) / 1_000_000, decimals: 2) + " s"
    }

    // MARK: - Colour

    private func style(_ text: String, _ style: TerminalControl) -> TerminalText {
        .styled(TerminalText(text), style, when: options.color)
    }
}
