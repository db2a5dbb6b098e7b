import Foundation

/// Why an attempt was followed by another, and the wait in between: what the console
/// prints as it happens (`503, retrying in 2.0 s (Retry-After)`) and reports list.
package struct AttemptRetry: Sendable, Codable, Equatable {
    /// What the attempt came to: `503`, `timeout`, `connection refused`, `200, json $.state not met`.
    package var reason: String
    /// The wait before the next attempt.
    package var waitMicroseconds: Int
    /// Where the wait comes from when it is not the backoff: `Retry-After`, and
    /// what the server asked for when `max_delay` capped it.
    package var note: String?

    package init(reason: String, waitMicroseconds: Int, note: String? = nil) {
        self.reason = reason
        self.waitMicroseconds = waitMicroseconds
        self.note = note
    }

    package init(reason: String, wait: Duration, note: String? = nil) {
        self.init(reason: reason, waitMicroseconds: wait.saturatingMicroseconds, note: note)
    }

    package var wait: Duration { .microseconds(waitMicroseconds) }

    /// `503, retrying in 2.0 s (Retry-After)`.
    package var message: String {
        "\(reason), retrying in \(Self.format(microseconds: waitMicroseconds))" + (note.map { " (\($0))" } ?? "")
    }

    /// `2.0 s`, `250 ms`: how a wait is shown. A wait longer than microseconds hold (a
    /// server's `Retry-After: 9223372036854775807`) is shown in whole seconds.
    package static func format(_ wait: Duration) -> String {
        let microseconds = wait.saturatingMicroseconds
        guard microseconds != .max else { return "\(wait.components.seconds) s" }
        return format(microseconds: microseconds)
    }

    /// `2.0 s`, `250 ms`: how a wait is shown.
    package static func format(microseconds: Int) -> String {
        if microseconds < 1_000_000 { return "\(Int((Double(microseconds) / 1000).rounded())) ms" }
        return String(format: "%.1f s", Double(microseconds) / 1_000_000)
    }
}

extension AttemptRetry {
    /// An attempt's ``Attempt/stopped`` when `retry.abort_if` held: polling stopped there,
    /// not because the attempts ran out. Every report says it with the attempt.
    package static let abortIfHeld = "abort_if held: stopped polling"
}
