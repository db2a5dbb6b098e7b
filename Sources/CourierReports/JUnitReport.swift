import CourierEngine
import Foundation

/// JUnit XML as GitLab, Jenkins and GitHub read it: one `<testsuite>` per
/// workflow, one `<testcase>` per step run. Valid against the Jenkins
/// `junit-10.xsd`.
package enum JUnitReport {
    package static func render(_ run: RunResult) -> String {
        var totals = (tests: 0, failures: 0, errors: 0)
        var suites = ""
        for workflow in run.workflows {
            let masker = SecretMasker(secrets: workflow.secrets)
            var counts = (tests: 0, failures: 0, errors: 0, skipped: 0)
            var cases = ""
            for step in workflow.steps {
                counts.tests += 1
                switch step.outcome {
                case .failed: counts.failures += 1
                case .errored: counts.errors += 1
                case .skipped: counts.skipped += 1
                case .passed: break
                }
                cases += testCase(step, workflow: workflow, masker: masker)
            }
            totals.tests += counts.tests
            totals.failures += counts.failures
            totals.errors += counts.errors
            suites += "  <testsuite name=\"\(attr(masker.mask(workflow.name)))\" tests=\"\(counts.tests)\""
                + " failures=\"\(counts.failures)\" errors=\"\(counts.errors)\" skipped=\"\(counts.skipped)\""
                + " time=\"\(seconds(workflow.durationMicroseconds))\" file=\"\(attr(workflow.file))\">\n"
            suites += cases
            suites += "  </testsuite>\n"
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"courier\" tests=\"\(totals.tests)\" failures=\"\(totals.failures)\""
            + " errors=\"\(totals.errors)\" time=\"\(seconds(run.durationMicroseconds))\">\n"
            + suites
            + "</testsuites>\n"
    }

    /// Writes the report through ``ReportWriter``: atomically for files, directly
    /// for FIFOs, devices and `-` (standard output).
    package static func write(_ run: RunResult, to path: String) throws(ReportWriter.Failure) {
        try ReportWriter.write(render(run), to: path)
    }

    private static func testCase(_ step: StepResult, workflow: WorkflowResult, masker: SecretMasker) -> String {
        var xml = "    <testcase name=\"\(attr(masker.mask(step.displayName)))\" classname=\"\(attr(workflow.className))\""
            + " time=\"\(seconds(step.durationMicroseconds))\""
        var body = ""
        switch step.outcome {
        case .passed:
            break
        case .skipped(let reason):
            body += "      <skipped message=\"\(attr(masker.mask(reason)))\"/>\n"
        case .failed(let failures):
            let first = failures.first.map { masker.mask($0.message) } ?? "expectation failed"
            let message = failures.count > 1 ? "\(first) (and \(failures.count - 1) more)" : first
            // Mask the values before diffing them, then the whole text once more
            // (a secret may straddle what the diff split into lines).
            let details = failures.map { masker.mask(FailureText.describe($0, masker: masker)) }.joined(separator: "\n\n")
            body += "      <failure message=\"\(attr(message))\" type=\"assertion\">\(text(details))</failure>\n"
        case .errored(let error):
            var details = error.message
            if let hint = error.hint { details += "\nhint: \(hint)" }
            if let location = error.location { details = "\(location.start.file):\(location.start.line):\(location.start.column): \(details)" }
            if let full = error.details { details = full }
            body += "      <error message=\"\(attr(masker.mask(error.message)))\" type=\"\(attr(error.type))\">\(text(masker.mask(details)))</error>\n"
        }
        // The request and response of failed steps and every attempt of retried ones.
        if step.outcome.isProblem || step.attempts.count > 1 {
            let transcripts = step.attempts.enumerated().map { index, attempt in
                let header = step.attempts.count > 1 ? "--- attempt \(index + 1) of \(step.attempts.count)\n" : ""
                return header + Transcript.render(attempt, masker: masker)
            }
            if !transcripts.isEmpty {
                body += "      <system-out>\(text(transcripts.joined(separator: "\n\n")))</system-out>\n"
            }
        }
        if body.isEmpty { return xml + "/>\n" }
        xml += ">\n" + body + "    </testcase>\n"
        return xml
    }

    private static func attr(_ value: String) -> String { XMLText.escape(value, attribute: true) }
    private static func text(_ value: String) -> String { XMLText.escape(value) }

    /// Seconds with three decimals, as the XSD's SUREFIRE_TIME allows.
    static func seconds(_ microseconds: Int) -> String {
        String(format: "%.3f", Double(max(0, microseconds)) / 1_000_000)
    }
}
