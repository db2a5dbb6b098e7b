import CourierResults
import CourierSecrets

/// A report the user asked for: a format and where it goes (`--junit FILE`).
///
/// Every format is rendered from the same `RunResult` and leaves through the one
/// ``ReportWriter``; a new format (JSON, HTML) is a new `Format` case with its
/// renderer, and the command line's option.
///
///     let request = ReportRequest(format: .junit, path: "reports/junit.xml")
///     try request.write(result, maskingWith: registry)
package struct ReportRequest: Sendable, Equatable {
    package enum Format: String, Sendable, CaseIterable {
        case junit
        case json
        case html

        /// The command-line option that asks for it.
        package var option: String { "--\(rawValue)" }

        /// `JUnit report`, for messages.
        package var title: String {
            switch self {
            case .junit: "JUnit report"
            case .json: "JSON report"
            case .html: "HTML report"
            }
        }

        /// The report's text, every value masked with `policy` (bodies before they are cut)
        /// before it is escaped or embedded; the markup is never masked. Throws when the
        /// results cannot be written in this format: the report is then not written at all.
        package func render(_ run: RunResult, policy: MaskingPolicy, root: ProjectRoot? = nil) throws(JSONReport.EncodingFailure) -> String {
            switch self {
            case .junit: JUnitReport.render(run, policy: policy, root: root)
            case .json: try JSONReport.render(run, policy: policy)
            case .html: HTMLReport.render(run, policy: policy)
            }
        }
    }

    package var format: Format
    /// A file, or `-` for standard output.
    package var path: String

    package init(format: Format, path: String) {
        self.format = format
        self.path = path
    }

    package var toStandardOutput: Bool { path == "-" }

    /// `root`: what workflow files are named against where a format names them (JUnit).
    package func write(_ run: RunResult, maskingWith secrets: SecretRegistry, root: ProjectRoot? = nil) throws(ReportWriter.Failure) {
        // Every format masks value by value: masking its whole text could rewrite its
        // structure (JSON's keys, a JUnit element named `failure`, HTML's `<div>`).
        let text: String
        do {
            text = try format.render(run, policy: secrets.policy, root: root)
        } catch {
            throw ReportWriter.Failure(path: path, reason: error.description)
        }
        try ReportWriter.write(text, to: path, maskingWith: secrets, masking: .byRenderer)
    }
}
