/// Why a step was not run: one case per rule that skips, shown as its text.
package enum SkipReason: Sendable, Equatable, CustomStringConvertible {
    /// The step's `if` is false.
    case conditionFalse
    case setupFailed
    case earlierStepFailed
    /// The `auth:` flow's login failed: every request after it would fail the same way.
    case loginFailed
    /// The workflow's `vars:` or `secrets:` could not be evaluated.
    case variablesFailed
    /// The run was interrupted (`interrupted by SIGTERM`), or its task cancelled.
    case interrupted(Interruption)
    /// After an interruption, teardown ran until its deadline, `grace` after the interruption.
    case teardownDeadline(Interruption, grace: Duration)
    /// A running workflow's remaining steps when another workflow failed under `--fail-fast`.
    case failFastCancelled
    /// A workflow not started because another failed under `--fail-fast`.
    case failFastNotRun
    /// A valid workflow of a run that did not start because another workflow is invalid.
    case anotherWorkflowInvalid
    /// `--dry-run`: what the step decides on (`if`, `for_each`, `include var token`,
    /// `include path`) reads a capture, which holds a placeholder.
    case notRendered(what: String, capture: String)
    /// A reason this version does not know, as read from another program's report (`merge-reports`).
    case recorded(String)

    package var description: String {
        switch self {
        case .conditionFalse: "condition is false"
        case .setupFailed: "setup failed"
        case .earlierStepFailed: "an earlier step failed"
        case .loginFailed: "login failed"
        case .variablesFailed: "the workflow's variables could not be evaluated"
        case .interrupted(let interruption): interruption.description
        case .teardownDeadline(let interruption, let grace):
            "\(interruption.description); teardown stopped at its \(Self.format(grace)) deadline"
        case .failFastCancelled: "cancelled: --fail-fast"
        case .failFastNotRun: "not run: --fail-fast"
        case .anotherWorkflowInvalid: "not run: another workflow is invalid"
        case .notRendered(let what, let capture): "not rendered (--dry-run): \(what) depends on capture \(capture)"
        case .recorded(let text): text
        }
    }

    /// The reason a report gives: the fixed ones by their text, any other kept as written
    /// (its text is all a report keeps of it).
    package init(text: String) {
        self = Self.fixedByText[text] ?? .recorded(text)
    }

    /// The reasons without details, by the text reports write (`merge-reports` reads one per skipped step).
    private static let fixedByText: [String: SkipReason] = Dictionary(uniqueKeysWithValues: [
        SkipReason.conditionFalse, .setupFailed, .earlierStepFailed, .loginFailed, .variablesFailed,
        .failFastCancelled, .failFastNotRun, .anotherWorkflowInvalid,
    ].map { ($0.description, $0) })

    /// `10 s`, `1500 ms`.
    private static func format(_ grace: Duration) -> String {
        let (seconds, attoseconds) = grace.components
        return attoseconds == 0 ? "\(seconds) s" : "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
    }
}
