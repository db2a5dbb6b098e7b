import CourierResults
import CourierSecrets
import Foundation

/// JUnit XML as GitLab, Jenkins and GitHub read it: one `<testsuite>` per
/// workflow, one `<testcase>` per step run. Valid against the Jenkins
/// `junit-10.xsd`, but for the `file` attribute of `<testcase>` that GitLab reads
/// (the XSD allows `file` on `<testsuite>` only; spec section 12).
///
/// A test case's `classname` and `file` name the workflow against `root` (see
/// ``className(ofProjectPath:)``), so they do not depend on where `courier` was
/// started; without a root (or for a file outside it) the path as given is used.
///
/// Every value (names, messages, transcripts, attributes) is masked with `policy`
/// before it is escaped, bodies before they are cut; the markup never is, so a
/// secret equal to `testcase`, `failure` or `amp` cannot rewrite the document
/// (written with ``ReportWriter/Masking/byRenderer``).
package enum JUnitReport {
    package static func render(_ run: RunResult, policy: MaskingPolicy, root: ProjectRoot? = nil) -> String {
        let attr = { (value: String) in XMLText.escape(policy.mask(value), attribute: true) }
        var totals = (tests: 0, failures: 0, errors: 0)
        var suites = ""
        for workflow in run.workflows {
            let file = root?.relativePath(of: workflow.file).map { ProjectFile(path: $0, isFile: true) }
                ?? ProjectFile(path: workflow.file, isFile: false)
            let counts = workflow.stepCounts
            var cases = ""
            for step in workflow.steps {
                cases += testCase(step, workflow: workflow, file: file, policy: policy)
            }
            totals.tests += counts.total
            totals.failures += counts.failed
            totals.errors += counts.errored
            suites += "  <testsuite name=\"\(attr(workflow.name))\" tests=\"\(counts.total)\""
                + " failures=\"\(counts.failed)\" errors=\"\(counts.errored)\" skipped=\"\(counts.skipped)\""
                + " time=\"\(seconds(workflow.durationMicroseconds))\" file=\"\(attr(file.path))\">\n"
            suites += cases
            suites += "  </testsuite>\n"
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"courier\" tests=\"\(totals.tests)\" failures=\"\(totals.failures)\""
            + " errors=\"\(totals.errors)\" time=\"\(seconds(run.durationMicroseconds))\">\n"
            + suites
            + "</testsuites>\n"
    }

    /// Writes the report through ``ReportWriter``: masked value by value, then atomically
    /// for files, directly for FIFOs, devices and `-` (standard output).
    package static func write(_ run: RunResult, to path: String, maskingWith secrets: SecretRegistry,
                              root: ProjectRoot? = nil) throws(ReportWriter.Failure) {
        try ReportWriter.write(render(run, policy: secrets.policy, root: root), to: path, maskingWith: secrets, masking: .byRenderer)
    }

    /// A workflow's path relative to the project root (`isFile`), or as given when it
    /// has none (no root, outside it, or no file at all: an invalid run's `courier`).
    private struct ProjectFile {
        var path: String
        var isFile: Bool
    }

    /// `wf/smoke.v2.yaml` → `wf.smoke_v2`: the extension dropped, directories joined by
    /// `.`, a `.` inside a name replaced by `_` (Jenkins reads the part before the last
    /// `.` as the package, so `smoke.v2` would be class `v2` of package `smoke`).
    package static func className(ofProjectPath path: String) -> String {
        var path = Substring(path)
        for ext in [".yaml", ".yml"] where path.hasSuffix(ext) {
            path = path.dropLast(ext.count)
            break
        }
        return path.split(separator: "/").map { $0.replacingOccurrences(of: ".", with: "_") }.joined(separator: ".")
    }

    private static func testCase(_ step: StepResult, workflow: WorkflowResult, file: ProjectFile, policy: MaskingPolicy) -> String {
        let attr = { (value: String) in XMLText.escape(policy.mask(value), attribute: true) }
        let text = { (value: String) in XMLText.escape(policy.mask(value)) }
        var xml = "    <testcase name=\"\(attr(step.displayName))\" classname=\"\(attr(className(ofProjectPath: file.path)))\""
            + (file.isFile ? " file=\"\(attr(file.path))\"" : "")
            + " time=\"\(seconds(step.durationMicroseconds))\""
        var body = ""
        switch step.outcome {
        case .passed:
            break
        case .skipped(let reason):
            body += "      <skipped message=\"\(attr(reason.description))\"/>\n"
        case .failed(let failures):
            let message = step.outcome.reason ?? ""
            // Values are masked before they are cut and diffed; `text` masks the
            // whole once more (a secret may straddle what the diff split into lines).
            let details = failures.map { FailureText.describe($0, policy: policy) }.joined(separator: "\n\n")
            body += "      <failure message=\"\(attr(message))\" type=\"assertion\">\(text(details))</failure>\n"
        case .errored(let error):
            var details = error.message
            if let hint = error.hint { details += "\nhint: \(hint)" }
            if let location = error.location { details = "\(location.start.file):\(location.start.line):\(location.start.column): \(details)" }
            if let full = error.details { details = full }
            body += "      <error message=\"\(attr(step.outcome.reason ?? error.message))\" type=\"\(attr(error.type))\">\(text(details))</error>\n"
        }
        // The request and response of failed steps and every attempt of retried ones.
        if step.outcome.isProblem || step.attempts.count > 1 {
            var transcripts = step.attempts.enumerated().map { index, attempt in
                // Each attempt's own duration; the testcase's time is the step's wall clock, waits included.
                let header = step.attempts.count > 1
                    ? "--- attempt \(index + 1) of \(step.attempts.count) (\(seconds(attempt.durationMicroseconds)) s)\n" : ""
                let retry = attempt.retry.map { "\n* \($0.message)" } ?? ""
                return header + Transcript.render(attempt, policy: policy) + retry
            }
            // `--curl`: the command reproducing the deciding attempt, of failed steps only.
            if step.outcome.isProblem, let curl = step.attempts.last?.curl { transcripts.append(curl) }
            if !transcripts.isEmpty {
                body += "      <system-out>\(text(transcripts.joined(separator: "\n\n")))</system-out>\n"
            }
        }
        // `--dry-run`: a passed testcase that sent nothing says so, with the request it built.
        if case .passed = step.outcome, let attempt = step.attempts.last, ConsoleReporter.isOnlyRendered(attempt) {
            body += "      <system-out>\(text("rendered, not sent (--dry-run)\n" + Transcript.render(attempt, policy: policy)))</system-out>\n"
        }
        if body.isEmpty { return xml + "/>\n" }
        xml += ">\n" + body + "    </testcase>\n"
        return xml
    }

    /// Seconds with three decimals, as the XSD's SUREFIRE_TIME allows.
    static func seconds(_ microseconds: Int) -> String {
        DecimalText.fixed(Double(max(0, microseconds)) / 1_000_000, decimals: 3)
    }
}
