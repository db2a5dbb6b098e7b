import CourierDiagnostics

/// How a step ended.
package enum StepOutcome: Sendable, Equatable {
    case passed
    /// Expectations or captures did not hold (JUnit `<failure>`): the failed ones, in order.
    case failed([ExpectationResult])
    /// The step could not be carried out: transport, TLS, template, file errors (JUnit `<error>`).
    case errored(StepError)
    /// Not run, and why.
    case skipped(reason: SkipReason)

    package var isProblem: Bool {
        switch self {
        case .failed, .errored: true
        case .passed, .skipped: false
        }
    }

    /// Why the step was skipped; nil when it ran.
    package var skipReason: SkipReason? {
        if case .skipped(let reason) = self { reason } else { nil }
    }
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
        case .skipped: self = .skipped(reason: SkipReason(text: try container.decode(String.self, forKey: .reason)))
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
            try container.encode(reason.description, forKey: .reason)
        }
    }
}
