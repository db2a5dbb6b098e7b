import CourierDiagnostics

/// How a step ended.
package enum StepOutcome: Sendable, Equatable {
    case passed
    /// Expectations or captures did not hold (JUnit `<failure>`): the failed ones, in order.
    case failed([ExpectationResult])
    /// The step could not be carried out: transport, TLS, template, file errors (JUnit `<error>`).
    case errored(StepError)
    /// Not run; the reason is shown as is (``SkipReason`` names the fixed ones).
    case skipped(reason: String)

    package var isProblem: Bool {
        switch self {
        case .failed, .errored: true
        case .passed, .skipped: false
        }
    }

    /// Why the step was skipped; nil when it ran.
    package var skipReason: String? {
        if case .skipped(let reason) = self { reason } else { nil }
    }
}

/// The skip reasons reports and tools may recognise. A skip reason stays text
/// (`interrupted by SIGTERM`, `condition is false`) because several carry details;
/// these are the fixed ones the engine and `--fail-fast` use.
package enum SkipReason {
    package static let conditionFalse = "condition is false"
    package static let setupFailed = "setup failed"
    package static let earlierStepFailed = "an earlier step failed"
    /// A running workflow's remaining steps when another workflow failed under `--fail-fast`.
    package static let failFastCancelled = "cancelled: --fail-fast"
    /// A workflow not started because another failed under `--fail-fast`.
    package static let failFastNotRun = "not run: --fail-fast"
    /// A valid workflow of a run that did not start because another workflow is invalid.
    package static let anotherWorkflowInvalid = "not run: another workflow is invalid"
}

extension StepOutcome: Codable {
    private enum CodingKeys: String, CodingKey { case kind, failures, error, reason }
    private enum Kind: String, Codable { case passed, failed, errored, skipped }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Kind.self, forKey: .kind) {
        case .passed: self = .passed
        case .failed: self = .failed(try container.decode([ExpectationResult].self, forKey: .failures))
        case .errored: self = .errored(try container.decode(StepError.self, forKey: .error))
        case .skipped: self = .skipped(reason: try container.decode(String.self, forKey: .reason))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .passed:
            try container.encode(Kind.passed, forKey: .kind)
        case .failed(let failures):
            try container.encode(Kind.failed, forKey: .kind)
            try container.encode(failures, forKey: .failures)
        case .errored(let error):
            try container.encode(Kind.errored, forKey: .kind)
            try container.encode(error, forKey: .error)
        case .skipped(let reason):
            try container.encode(Kind.skipped, forKey: .kind)
            try container.encode(reason, forKey: .reason)
        }
    }
}

/// Why a step could not be carried out.
package struct StepError: Sendable, Codable, Equatable {
    /// A short machine-readable kind (`connection_refused`, `timeout`, `template`, …).
    package var type: String
    package var message: String
    package var hint: String?
    package var location: SourceRange?
    /// Longer text for reports, when the message alone is not the whole story
    /// (every diagnostic of an invalid workflow, rendered).
    package var details: String?

    package init(type: String, message: String, hint: String? = nil, location: SourceRange? = nil, details: String? = nil) {
        self.type = type
        self.message = message
        self.hint = hint
        self.location = location
        self.details = details
    }
}
