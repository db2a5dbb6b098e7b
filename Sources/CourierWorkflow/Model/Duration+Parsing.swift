extension Duration {
    /// The shortest duration a workflow may state: 1 ms.
    ///
    /// libcurl reads a 0 ms timeout as "no limit", so `timeout: 0` (or
    /// `0.5ms`, which rounds to 0 ms) would wait forever; waits and
    /// predicates share the rule so every duration means what it says.
    package static let shortestAllowed = Duration.milliseconds(1)

    /// The longest duration a workflow or the command line may state: 1,000,000 s (11.6 days).
    ///
    /// Far beyond any wait or timeout a test means, and far below what the arithmetic on
    /// durations holds (nanoseconds in 64 bits end at 292 years, a backoff multiplies), so a
    /// typo like `delay: 10000000000` is an error at load, never a trap at the first retry.
    package static let longestAllowed = Duration.seconds(1_000_000)

    /// How ``longestAllowed`` reads in messages and the contract.
    package static let longestAllowedText = "1000000s (11.6 days)"

    /// Parses `250ms`, `2s`, `1.5s`, `1m`, `1h`, or a bare number of seconds.
    ///
    /// Returns nil for anything else (negative values included); the decoder
    /// turns that into a diagnostic that shows the accepted forms. A number too large for
    /// a `Duration` (`1` and 400 zeros) is `Int64.max` seconds, longer than ``longestAllowed``.
    package static func parse(_ text: String) -> Duration? {
        var number = Substring(text)
        var millisecondsPerUnit = 1000.0
        // `ms` before `m` and `s`: the longest suffix wins.
        for (suffix, scale) in [("ms", 1.0), ("s", 1000.0), ("m", 60_000.0), ("h", 3_600_000.0)] where text.hasSuffix(suffix) {
            number = text.dropLast(suffix.count)
            millisecondsPerUnit = scale
            break
        }
        guard !number.isEmpty,
              number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              let value = Double(number) else { return nil }
        let microseconds = (value * millisecondsPerUnit * 1000).rounded()
        guard microseconds < 9.0e18 else { return .seconds(Int64.max) }
        return .microseconds(Int64(microseconds))
    }

    /// Whole milliseconds, rounded down; saturating at `Int64.max` (a duration past
    /// ``longestAllowed`` is refused before it gets here, but no conversion may trap).
    package var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflowed) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflowed else { return seconds < 0 ? .min : .max }
        let (sum, carried) = whole.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        return carried ? (seconds < 0 ? .min : .max) : sum
    }
}
