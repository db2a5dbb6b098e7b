import CourierHTTP

/// Why an attempt was followed by another, and the wait in between: what the console
/// prints as it happens (`503, retrying in 2.0 s (Retry-After)`) and reports list.
package struct AttemptRetry: Sendable, Equatable {
    /// What the attempt came to: `503`, `timeout`, `connection refused`, `expectations not met`.
    package var reason: String
    /// The wait before the next attempt.
    package var wait: Duration
    /// Where the wait comes from when it is not the backoff: `Retry-After`, and
    /// what the server asked for when `max_delay` capped it.
    package var note: String?

    package init(reason: String, wait: Duration, note: String? = nil) {
        self.reason = reason
        self.wait = wait
        self.note = note
    }

    /// `503, retrying in 2.0 s (Retry-After)`.
    package var message: String {
        "\(reason), retrying in \(RetryAfter.format(wait))" + (note.map { " (\($0))" } ?? "")
    }

    package var waitMicroseconds: Int { RunClock.microseconds(wait) }
}
