import CourierJSON
import CourierHTTP
import CourierResults

/// What one attempt at a step's request came to, kept apart from the workflow's
/// scope: an attempt changes no variable. Only the deciding attempt is committed
/// (its captures and `steps.<id>`), so a failed poll or a refused request never
/// leaks a capture into the steps after it.
///
/// Secrets an attempt meets are registered at once all the same: the registry is
/// what masks output, and a failed attempt's transcript must be masked too.
struct AttemptOutcome {
    /// What was sent and what came back; nil when the request could not be built.
    var record: Attempt?
    /// Why the attempt could not be carried out (template, transport, TLS…).
    var error: StepError?
    /// Every expectation and capture checked, passed ones too.
    var expectations: [ExpectationResult] = []
    /// The captures that succeeded, in declaration order.
    var captures: [CapturedValue] = []
    /// `steps.<id>` for later steps, when a response came back.
    var stepValue: JSONValue?
    /// Warnings to emit if this attempt is the one committed (a short secret capture).
    var warnings: [String] = []
    /// Every expectation of the step's `retry.abort_if` held: no more attempts.
    var abortMatched = false
    /// What policies decide on, kept apart from the record (whose shape is the reports'):
    /// the method sent (nil when nothing could be built), the response's status and
    /// `Retry-After`, or why the transfer failed.
    var method: String?
    var status: Int?
    var retryAfter: String?
    var transportError: HTTPError.Kind?

    /// Expectations and captures that did not hold.
    var failures: [ExpectationResult] { expectations.filter { $0.outcome == .failed } }

    /// Every expectation and capture held.
    var succeeded: Bool {
        // Matched, not compared with nil (which copied the error), and the stored outcome
        // read rather than `failed`, a getter of another module, to which each was copied.
        guard case .none = error else { return false }
        return !anyFailed
    }

    var stepOutcome: StepOutcome {
        if let error { return .errored(error) }
        // Asked first: `failures` copies every expectation it keeps, and most steps pass.
        return anyFailed ? .failed(failures) : .passed
    }

    /// By index and by pattern: `contains` handed each expectation over as a copy, and `==`
    /// on another module's enum went through its generic witness.
    private var anyFailed: Bool {
        for index in expectations.indices {
            if case .failed = expectations[index].outcome { return true }
        }
        return false
    }
}

/// After each attempt: stop, or wait and try again.
enum AttemptDecision: Equatable {
    case stop
    /// Another attempt after the retry's wait; it says why, for the console and reports.
    case again(AttemptRetry)
}

/// Decides whether a step gets another attempt. Retries (`retry:`, `--retry`),
/// polling (`on: [expect]`, `abort_if`) and the auth flow's refresh on 401 are
/// policies: the loop in `WorkflowRunner` asks after every attempt and sleeps on
/// the engine's ``Sleeper`` before the next one.
protocol AttemptPolicy {
    /// `outcome` is attempt number `number` (1-based).
    mutating func decide(after outcome: AttemptOutcome, number: Int) -> AttemptDecision
}

/// One attempt per step: a step without `retry:` (and no `--retry N`).
struct SingleAttempt: AttemptPolicy {
    func decide(after outcome: AttemptOutcome, number: Int) -> AttemptDecision { .stop }
}
