import Foundation

/// The `Retry-After` response header (RFC 9110 §10.2.3): a number of seconds or an HTTP date.
public enum RetryAfter {
    /// The wait the header asks for, from `now`; a date in the past is zero.
    /// Nil when the value is neither form (`-1`, `1.5`, `soon`, a malformed date):
    /// an invalid header is ignored, the backoff decides then.
    public static func parse(_ value: String, now: Date = Date()) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        if text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // delay-seconds = 1*DIGIT; one past Int64 is as good as forever. The policy caps
            // it at `maxDelay` before any arithmetic; converting it saturates.
            return .seconds(Int64(text) ?? Int64.max)
        }
        guard let date = httpDate(text) else { return nil }
        let seconds = date.timeIntervalSince(now)
        return seconds <= 0 ? .zero : RetryPolicy.duration(seconds: seconds)
    }

    /// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), and the obsolete RFC 850 and
    /// asctime forms a recipient must accept too.
    static func httpDate(_ text: String) -> Date? {
        for format in ["EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            formatter.isLenient = false
            // asctime pads a one-digit day with a space: `Nov  6`.
            let normalized = format.hasPrefix("EEE MMM") ? text.split(separator: " ").joined(separator: " ") : text
            if let date = formatter.date(from: normalized) { return date }
        }
        return nil
    }

    /// `2.0 s`, `250 ms`: for the policy's own messages (the deadline).
    static func format(_ duration: Duration) -> String {
        let seconds = RetryPolicy.seconds(duration)
        if seconds < 1 { return "\(Int((seconds * 1000).rounded())) ms" }
        return String(format: "%.1f s", seconds)
    }
}
