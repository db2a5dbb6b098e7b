import CourierResults
import CourierSecrets
import Foundation

/// The HTML report (`--html FILE`): one self-contained page a person opens to see
/// what passed, what failed and why.
///
/// A summary at the top; one collapsible `<details>` per workflow and per step
/// run, opened when it failed, with its diagnostics, every attempt (retries
/// listed with their reason and wait), each request and response with its
/// redirect hops, and a timing bar per request. Nothing is fetched: the style
/// and script are inline, allowed by the page's Content-Security-Policy.
///
/// Every value is masked with `policy`, then HTML-escaped; the markup, style and
/// script never are, so a secret equal to `div`, `class` or a word of the script
/// cannot break the page (written with ``ReportWriter/Masking/byRenderer``).
package enum HTMLReport {
    /// Bodies of failed and retried steps are cut here (as in JUnit); passed
    /// steps show less, so a page of 1,000 steps stays small enough to open.
    static let problemBodyLimit = Transcript.defaultBodyLimit
    static let passedBodyLimit = 2 * 1024

    package static func render(_ run: RunResult, policy: MaskingPolicy) -> String {
        let context = Context(policy: policy, slowest: slowestRequest(run))
        var page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(HTMLAssets.contentSecurityPolicy)">
            <meta name="referrer" content="no-referrer">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Courier report: \(context.text(title(run)))</title>
            <style>\(HTMLAssets.style)</style>
            </head><body>

            """
        page += summary(run, context)
        page += "<main>\n"
        for (index, workflow) in run.workflows.enumerated() {
            page += self.workflow(workflow, index: index, context)
        }
        page += "</main>\n<script>\(HTMLAssets.script)</script>\n</body></html>\n"
        return page
    }

    /// Writes the report through ``ReportWriter``: masked value by value, then atomically
    /// for files, directly for FIFOs, devices and `-` (standard output).
    package static func write(_ run: RunResult, to path: String, maskingWith secrets: SecretRegistry) throws(ReportWriter.Failure) {
        try ReportWriter.write(render(run, policy: secrets.policy), to: path, maskingWith: secrets, masking: .byRenderer)
    }

    // MARK: - Summary

    private static func title(_ run: RunResult) -> String {
        let counts = run.stepCounts
        let verdict = run.interrupted ? "interrupted" : (run.passed ? "passed" : "failed")
        return "\(verdict), \(counts.total) steps"
    }

    private static func summary(_ run: RunResult, _ context: Context) -> String {
        let counts = run.stepCounts
        let workflows = run.workflowCounts
        let requests = run.requestsSent
        var html = "<header>\n<h1>Courier report: \(run.interrupted ? "interrupted" : (run.passed ? "passed" : "failed"))</h1>\n"
        html += "<div class=\"counts\">"
        var workflowNotes: [String] = []
        if workflows.failed > 0 { workflowNotes.append("\(workflows.failed) failed") }
        if workflows.cancelled > 0 { workflowNotes.append("\(workflows.cancelled) cancelled") }
        if workflows.notRun > 0 { workflowNotes.append("\(workflows.notRun) not run") }
        html += "<span>\(workflows.total) workflow\(workflows.total == 1 ? "" : "s")"
            + (workflowNotes.isEmpty ? "" : " (\(workflowNotes.joined(separator: ", ")))") + "</span>"
        html += "<span class=\"n-ok\">\(counts.passed) passed</span>"
        html += "<span class=\"n-fail\">\(counts.failed) failed</span>"
        html += "<span class=\"n-err\">\(counts.errored) errored</span>"
        html += "<span class=\"n-skip\">\(counts.skipped) skipped</span>"
        html += "</div>\n"
        // Sent, as the console counts them: redirects and retries included, a dry run's none.
        var meta = "\(requests) request\(requests == 1 ? "" : "s") sent · \(duration(run.durationMicroseconds))"
        if run.startedAt != .zero { meta += " · started \(run.startedAt.iso8601)" }
        html += "<div class=\"meta\">\(context.text(meta))</div>\n"
        if let interruption = run.interruption {
            html += "<div class=\"banner\">The run was \(context.text(interruption.description)): the steps that ran are reported, the rest are skipped.</div>\n"
        }
        html += recap(run, context)
        // Shown by the script: without it, the page is still whole (every <details> opens by hand).
        html += "<nav hidden><button data-act=\"open\">expand all</button><button data-act=\"close\">collapse all</button>"
            + "<button data-act=\"problems\">only failures</button></nav>\n"
        html += "</header>\n"
        return html
    }

    /// At most this many failed steps are linked from the top; the rest are counted.
    static let recapLimit = 50

    /// One line per failed or errored step, linking to it, so a failure among 1,000
    /// steps is one click away (in-page links only: `#s0-12`).
    private static func recap(_ run: RunResult, _ context: Context) -> String {
        var lines: [String] = []
        var more = 0
        for (index, workflow) in run.workflows.enumerated() {
            for (number, step) in workflow.steps.enumerated() where step.outcome.isProblem {
                guard lines.count < recapLimit else { more += 1; continue }
                let reason = step.outcome.reason ?? ""
                let shown = MaskedCut.cut(reason, maxBytes: 160, policy: context.policy)
                // One text, masked whole: a secret may straddle the two names.
                lines.append("<li><a href=\"#\(anchor(index, number))\">\(context.text("\(workflow.name) › \(step.displayName)"))</a>"
                    + " <span class=\"dim\">\(context.text(shown))</span></li>")
            }
        }
        guard !lines.isEmpty else { return "" }
        if more > 0 { lines.append("<li class=\"dim\">and \(more) more</li>") }
        return "<ol class=\"recap\">" + lines.joined() + "</ol>\n"
    }

    /// The id of a failed step's `<details>`: made of numbers only, never of a name.
    private static func anchor(_ workflow: Int, _ step: Int) -> String { "s\(workflow)-\(step)" }

    // MARK: - Workflows and steps

    private static func workflow(_ workflow: WorkflowResult, index: Int, _ context: Context) -> String {
        let counts = workflow.stepCounts
        let kind = workflow.passed ? (counts.total > 0 && counts.skipped == counts.total ? "skipped" : "ok") : "failed"
        var html = "<details class=\"wf \(kind)\"\(workflow.passed ? "" : " open")><summary>"
        html += "<span class=\"b\">\(workflow.passed ? "PASS" : "FAIL")</span>\(context.text(workflow.name))"
        html += "<span class=\"dim\">\(context.text(workflow.file)) · \(counts.passed)/\(counts.total) passed"
        if counts.failed + counts.errored > 0 { html += " · \(counts.failed + counts.errored) failed" }
        if counts.skipped > 0 { html += " · \(counts.skipped) skipped" }
        html += " · \(duration(workflow.durationMicroseconds))</span></summary>\n"
        if let description = workflow.description, !description.isEmpty {
            html += "<div class=\"meta\">\(context.text(description))</div>\n"
        }
        for (number, step) in workflow.steps.enumerated() {
            html += self.step(step, id: anchor(index, number), context)
        }
        html += "</details>\n"
        return html
    }

    private static func step(_ step: StepResult, id: String, _ context: Context) -> String {
        let (kind, badge): (String, String) = switch step.outcome {
        case .passed: ("ok", "PASS")
        case .failed: ("failed", "FAIL")
        case .errored: ("errored", "ERROR")
        case .skipped: ("skipped", "SKIP")
        }
        var html = "<details class=\"step \(kind)\"\(step.outcome.isProblem ? " id=\"\(id)\" open" : "")><summary>"
        html += "<span class=\"b\">\(badge)</span>\(context.text(step.displayName))"
        var dim: [String] = []
        if step.phase != .steps { dim.append(step.phase.rawValue) }
        if let last = step.attempts.last {
            var request = "\(last.request.method) \(last.request.url)"
            if let status = last.response?.status { request += " → \(status)" }
            dim.append(request)
        }
        if step.attempts.count > 1 { dim.append("\(step.attempts.count) attempts") }
        if case .skipped(let reason) = step.outcome { dim.append(reason.description) }
        if !step.attempts.isEmpty || step.durationMicroseconds > 0 { dim.append(duration(step.durationMicroseconds)) }
        if let location = step.location { dim.append("\(location.start.file):\(location.start.line)") }
        if !dim.isEmpty { html += "<span class=\"dim\">\(context.text(dim.joined(separator: " · ")))</span>" }
        html += "</summary>\n"
        html += diagnostics(step.outcome, context)
        let bodyLimit = step.outcome.isProblem || step.attempts.count > 1 ? problemBodyLimit : passedBodyLimit
        for (index, attempt) in step.attempts.enumerated() {
            html += self.attempt(attempt, number: index + 1, of: step.attempts.count, bodyLimit: bodyLimit, context)
        }
        if !step.captures.isEmpty {
            let lines = step.captures.map { capture in
                let value = capture.secret ? "***" : capture.value.serialized(pretty: false, maxBytes: 512).0
                return "\(capture.name) = \(value)"
            }
            html += "<div class=\"hop\">captured</div><pre>\(context.text(lines.joined(separator: "\n")))</pre>\n"
        }
        html += "</details>\n"
        return html
    }

    /// The failures of a failed step, or the error of an errored one, as the console words them.
    private static func diagnostics(_ outcome: StepOutcome, _ context: Context) -> String {
        switch outcome {
        case .passed, .skipped:
            return ""
        case .failed(let failures):
            let text = failures.map { FailureText.describe($0, policy: context.policy) }.joined(separator: "\n\n")
            return "<div class=\"diag\"><pre>\(context.text(text))</pre></div>\n"
        case .errored(let error):
            var text = "\(error.type): \(error.message)"
            if let hint = error.hint { text += "\nhint: \(hint)" }
            if let location = error.location {
                text = "\(location.start.file):\(location.start.line):\(location.start.column): \(text)"
            }
            if let details = error.details { text = details }
            return "<div class=\"diag\"><pre>\(context.text(text))</pre></div>\n"
        }
    }

    // MARK: - Helpers

    /// What every fragment needs: the masking policy, and the slowest request
    /// (timing bars are drawn to one scale across the page).
    struct Context {
        let policy: MaskingPolicy
        let slowest: Int

        /// A value from the run: masked, then escaped.
        func text(_ value: String) -> String { HTMLText.escape(policy.mask(value)) }
    }

    private static func slowestRequest(_ run: RunResult) -> Int {
        var slowest = 0
        for workflow in run.workflows {
            for step in workflow.steps {
                for attempt in step.attempts {
                    slowest = max(slowest, attempt.response?.timings.total ?? 0)
                }
            }
        }
        return slowest
    }

    /// `12 ms`, `1.25 s`.
    static func duration(_ microseconds: Int) -> String {
        let value = max(0, microseconds)
        if value < 1000 { return "\(value) µs" }
        if value < 1_000_000 { return String(format: "%.0f ms", Double(value) / 1000) }
        return String(format: "%.2f s", Double(value) / 1_000_000)
    }
}
