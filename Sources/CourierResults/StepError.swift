import CourierDiagnostics

/// Why a step could not be carried out.
package struct StepError: Sendable, Equatable {
    package var kind: Kind
    package var message: String
    package var hint: String?
    package var location: SourceRange?
    /// Longer text for reports, when the message alone is not the whole story
    /// (every diagnostic of an invalid workflow, rendered).
    package var details: String?

    package init(_ kind: Kind, message: String, hint: String? = nil, location: SourceRange? = nil, details: String? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
        self.location = location
        self.details = details
    }

    /// The kind as reports write it (`connection_refused`, `timeout`, `template`, …).
    package var type: String { kind.description }

    /// What went wrong, for code to branch on: the engine's own kinds, and a failed
    /// transfer in the HTTP client's words.
    package enum Kind: Sendable, Hashable, CustomStringConvertible {
        /// A template could not be evaluated (or a request built from one).
        case template
        /// An included file could not be loaded.
        case include
        /// The run was interrupted or cancelled (a signal, `--fail-fast`) while the step ran.
        case cancelled
        /// The `auth:` flow's login failed.
        case loginFailed
        /// The workflow file is invalid: the run did not start.
        case invalidWorkflow
        /// The transfer failed; the name is the HTTP client's (`HTTPError.Kind`'s description:
        /// `connection_refused`, `timeout`, `tls`, …). A cancelled transfer is ``cancelled``.
        case transfer(String)

        package var description: String {
            switch self {
            case .template: "template"
            case .include: "include"
            case .cancelled: "cancelled"
            case .loginFailed: "login_failed"
            case .invalidWorkflow: "invalid_workflow"
            case .transfer(let name): name
            }
        }

        /// The kind a report names (`merge-reports` reads reports back).
        package init(name: String) {
            switch name {
            case "template": self = .template
            case "include": self = .include
            case "cancelled": self = .cancelled
            case "login_failed": self = .loginFailed
            case "invalid_workflow": self = .invalidWorkflow
            default: self = .transfer(name)
            }
        }
    }
}

extension StepError: Codable {
    private enum CodingKeys: String, CodingKey { case type, message, hint, location, details }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = Kind(name: try container.decode(String.self, forKey: .type))
        message = try container.decode(String.self, forKey: .message)
        hint = try container.decodeIfPresent(String.self, forKey: .hint)
        location = try container.decodeIfPresent(SourceRange.self, forKey: .location)
        details = try container.decodeIfPresent(String.self, forKey: .details)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(hint, forKey: .hint)
        try container.encodeIfPresent(location, forKey: .location)
        try container.encodeIfPresent(details, forKey: .details)
    }
}
