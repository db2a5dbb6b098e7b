extension Duration {
    /// The shortest duration a workflow may state: 1 ms.
    ///
    /// libcurl reads a 0 ms timeout as "no limit", so `timeout: 0` (or
    /// `0.5ms`, which rounds to 0 ms) would wait forever; waits and
    /// predicates share the rule so every duration means what it says.
    package static let shortestAllowed = Duration.milliseconds(1)

    /// Parses `250ms`, `2s`, `1.5s`, `1m`, `1h`, or a bare number of seconds.
    ///
    /// Returns nil for anything else (negative values included); the decoder
    /// turns that into a diagnostic that shows the accepted forms.
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
              let value = Double(number), value.isFinite else { return nil }
        let microseconds = (value * millisecondsPerUnit * 1000).rounded()
        guard microseconds < 9.0e18 else { return nil }
        return .microseconds(Int64(microseconds))
    }

    /// Whole milliseconds, rounded down.
    package var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
