import CourierDiagnostics
import CourierHTTP
import CourierResults
import CourierWorkflow
import Foundation

/// `retry:` (a step's, else `defaults:`) and `--retry N` as an attempt policy: the HTTP
/// conditions and waits are `CourierHTTP.RetryPolicy`'s; polling (`on: [expect]`) and
/// `abort_if` are the workflow's own, decided here on top of it.
struct RetryAttempts: AttemptPolicy {
    let http: RetryPolicy
    /// `on:` has `expect`: an attempt whose expectations or captures fail is tried again.
    let polls: Bool
    /// Only `--retry N` asked (no `retry:` in the workflow): responses and timeouts are
    /// retried for idempotent methods only; failures before the request was sent for any.
    let fromCommandLine: Bool
    let clock: any EngineClock
    private let firstStart: Duration
    private var random: RetryRandom

    /// The policy for a step, or nil when nothing asks for more than one attempt.
    init?(written: StepRetry?, commandLineAttempts: Int?, seed: UInt64?, clock: any EngineClock) {
        let attempts = written?.attempts ?? commandLineAttempts ?? 1
        guard attempts > 1 else { return nil }
        let retry = written ?? StepRetry(range: SourceRange(at: SourceLocation(file: "<command line>", line: 1, column: 1)))
        let backoff: RetryPolicy.Backoff = switch retry.effectiveBackoff {
        case .constant: .constant
        case .linear: .linear
        case .exponential: .exponential(factor: retry.effectiveFactor)
        }
        var conditions: [RetryPolicy.Condition] = []
        var polls = false
        for condition in retry.effectiveConditions {
            switch condition {
            case .network: conditions.append(.network)
            case .timeout: conditions.append(.timeout)
            case .status(let code): conditions.append(.status(code))
            case .statusClass(let digit): conditions.append(.statusClass(digit))
            case .expect: polls = true
            }
        }
        http = RetryPolicy(attempts: attempts, delay: retry.effectiveDelay, backoff: backoff, maxDelay: retry.effectiveMaxDelay,
                           jitter: retry.effectiveJitter, conditions: conditions)
        self.polls = polls
        fromCommandLine = written == nil
        self.clock = clock
        firstStart = clock.now()
        random = RetryRandom(seed: seed)
    }

    mutating func decide(after outcome: AttemptOutcome, number: Int) -> AttemptDecision {
        // Done, told to stop, or nothing was sent (a template error happens again the same way).
        guard !outcome.succeeded, !outcome.abortMatched, let method = outcome.method else { return .stop }
        let failure: RetryPolicy.Failure
        let reason: String
        if let kind = outcome.transportError {
            guard let retriable = RetryPolicy.Failure(kind) else { return .stop }
            failure = retriable
            reason = kind.description.replacingOccurrences(of: "_", with: " ")
        } else if let status = outcome.status {
            failure = .status(status)
            reason = "\(status)"
        } else {
            return .stop
        }

        var retried = http.retries(failure)
        // `--retry N` sends again after a response or a timeout only what may be sent twice.
        if fromCommandLine && !RetryPolicy.isIdempotent(method) {
            retried = failure == .network(requestSent: false)
        }
        var shownReason = reason
        if !retried && polls && outcome.status != nil && !outcome.failures.isEmpty {
            retried = true
            shownReason = "\(reason), \(outcome.failures[0].subject) not met"
        }
        guard retried else { return .stop }

        switch http.wait(after: failure, attempt: number, elapsed: clock.now() - firstStart, retryAfter: outcome.retryAfter,
                         using: &random) {
        case .stop:
            return .stop
        case .retry(let wait):
            var note: String? = nil
            if case .retryAfter(let requested) = wait.source {
                note = wait.wasCapped ? "Retry-After: the server asked for \(AttemptRetry.format(requested)), capped at max_delay"
                                      : "Retry-After"
            }
            return .again(AttemptRetry(reason: shownReason, wait: wait.duration, note: note))
        }
    }
}

/// The jitter's random source: seeded in tests, the system's otherwise.
struct RetryRandom: RandomNumberGenerator {
    private var seeded: SeededRandomNumberGenerator?

    init(seed: UInt64?) {
        seeded = seed.map { SeededRandomNumberGenerator(seed: $0) }
    }

    mutating func next() -> UInt64 {
        if var generator = seeded {
            defer { seeded = generator }
            return generator.next()
        }
        var system = SystemRandomNumberGenerator()
        return system.next()
    }
}
