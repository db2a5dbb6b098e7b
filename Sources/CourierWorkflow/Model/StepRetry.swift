import CourierDiagnostics

/// `retry:` as written (spec section 10), on a step or in `defaults:`. The engine turns it
/// into a `CourierHTTP.RetryPolicy` plus the workflow's own conditions (`expect`,
/// `abort_if`). Unset fields take the documented defaults
/// through the `effective…` accessors, so the command line (`--retry N`) can
/// still tell "not written" from "written as the default".
package struct StepRetry: Sendable {
    /// Total tries, the first included. Default 1 (no retry).
    package var attempts: Int?
    /// The first wait. Default 200ms.
    package var delay: Duration?
    /// Default exponential.
    package var backoff: Backoff?
    /// Default 2.
    package var factor: Double?
    /// Default 10s (also caps `Retry-After`).
    package var maxDelay: Duration?
    /// Default true.
    package var jitter: Bool?
    /// Default: network, timeout, 429, 502, 503, 504.
    package var on: [RetryCondition]?
    /// When these expectations all hold, stop retrying at once.
    package var abortIf: Expectations?
    package var range: SourceRange

    package init(attempts: Int? = nil, delay: Duration? = nil, backoff: Backoff? = nil, factor: Double? = nil,
                 maxDelay: Duration? = nil, jitter: Bool? = nil, on: [RetryCondition]? = nil,
                 abortIf: Expectations? = nil, range: SourceRange) {
        self.attempts = attempts
        self.delay = delay
        self.backoff = backoff
        self.factor = factor
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.on = on
        self.abortIf = abortIf
        self.range = range
    }

    package static let defaultConditions: [RetryCondition] = [.network, .timeout, .status(429), .status(502), .status(503), .status(504)]

    package var effectiveAttempts: Int { attempts ?? 1 }
    package var effectiveDelay: Duration { delay ?? .milliseconds(200) }
    package var effectiveBackoff: Backoff { backoff ?? .exponential }
    package var effectiveFactor: Double { factor ?? 2 }
    package var effectiveMaxDelay: Duration { maxDelay ?? .seconds(10) }
    package var effectiveJitter: Bool { jitter ?? true }
    package var effectiveConditions: [RetryCondition] { on ?? Self.defaultConditions }
}

package enum Backoff: String, Sendable, Hashable, CaseIterable {
    case constant, linear, exponential
}

package enum RetryCondition: Sendable, Hashable {
    case network
    case timeout
    case status(Int)
    /// `5xx` → 5.
    case statusClass(Int)
    /// Poll until every expectation and capture of the step succeeds.
    case expect
}
