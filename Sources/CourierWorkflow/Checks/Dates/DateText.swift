import CourierJSON

/// Why a text is not a date, in words that do not quote it (the caller quotes it, or says
/// "the value" when values must not be shown).
package struct DateProblem: Error, Sendable {
    package let reason: String

    init(_ reason: String) {
        self.reason = reason
    }
}

/// The dates Courier reads without a format (`to_date`, and the input of `unix`,
/// `format_date`, `days_before_now`, `days_after_now`, `before` and `after`):
///
/// - ISO 8601 / RFC 3339: `2026-11-30`, `2026-11-30T12:00`, `2026-11-30T12:00:00.250+05:30`,
///   `2026-11-30 12:00:00Z`, basic `20261130T120000Z`; offsets `Z`, `±HH:MM`, `±HHMM`, `±HH`.
///   A date-time without an offset is UTC, never the machine's zone.
/// - HTTP dates (RFC 9110 §5.6.7): IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, RFC 850
///   `Sunday, 06-Nov-94 08:49:37 GMT`, asctime `Sun Nov  6 08:49:37 1994`; also the cookie
///   form `Sun, 06-Nov-1994 08:49:37 GMT`, a one-digit day and `UTC` or `+0200` for the zone
///   (RFC 5322). A weekday that does not match the date is an error.
/// - A number: seconds since 1970 (``DateText/instant(ofSeconds:)``).
package enum DateText {
    /// The forms, for messages.
    static let forms = "ISO 8601 (2026-11-30T12:00:00+01:00) or an HTTP date (Sun, 06 Nov 1994 08:49:37 GMT, RFC 850 or asctime)"

    /// The instant `text` names, or why it names none.
    package static func instant(_ text: String) throws(DateProblem) -> DateInstant {
        var scanner = DateScanner(text)
        scanner.skipSpaces()
        let fields: DateFields?
        if scanner.nextIsDigit {
            fields = iso8601(&scanner)
        } else if scanner.nextIsLetter {
            fields = try httpDate(&scanner)
        } else {
            fields = nil
        }
        scanner.skipSpaces()
        guard let fields, scanner.atEnd else { throw DateProblem("it is not \(forms)") }
        return try instant(of: fields)
    }

    /// The instant a JSON value names: a string in one of the forms above, or a number of
    /// seconds since 1970 (read from its decimal text, so a fraction is exact). Nil for any
    /// other kind of value.
    package static func instant(of value: JSONValue) throws(DateProblem) -> DateInstant? {
        switch value {
        case .string(let text): return try instant(text)
        case .number(let number): return try instant(ofSeconds: number.text)
        default: return nil
        }
    }

    /// Seconds since 1970, with a fraction to the microsecond (further digits cut).
    package static func instant(ofSeconds text: String) throws(DateProblem) -> DateInstant {
        var scanner = DateScanner(text)
        let negative = scanner.take("-")
        guard let whole = scanner.number(1...12) else { throw DateProblem("it is not a number of seconds since 1970") }
        var micro = 0
        if scanner.take(".") {
            guard let fraction = scanner.fraction(1...64) else { throw DateProblem("it is not a number of seconds since 1970") }
            micro = fraction
        }
        guard scanner.atEnd else { throw DateProblem("it is not a number of seconds since 1970 (write it without an exponent)") }
        let total = Int64(whole) * 1_000_000 + Int64(micro)
        let signed = negative ? -total : total
        let instant = DateInstant(microseconds: signed)
        guard DateInstant(seconds: instant.seconds) != nil else { throw outOfRange }
        return instant
    }

    /// The instant of fields read from a text, or what is out of range.
    static func instant(of fields: DateFields) throws(DateProblem) -> DateInstant {
        if let problem = fields.problem { throw DateProblem(problem) }
        guard let instant = DateInstant(fields) else { throw outOfRange }
        return instant
    }

    static let outOfRange = DateProblem("it is outside the years 0000–9999")

    // MARK: - ISO 8601

    private static func iso8601(_ s: inout DateScanner) -> DateFields? {
        guard let year = s.number(4...4) else { return nil }
        let extended = s.take("-")
        guard let month = s.number(2...2), !extended || s.take("-"), let day = s.number(2...2) else { return nil }
        var fields = DateFields(year: year, month: month, day: day)
        if s.atEnd { return fields }
        guard s.take("T") || s.take("t") || s.take(" ") else { return nil }
        guard let hour = s.number(2...2), !extended || s.take(":"), let minute = s.number(2...2) else { return nil }
        fields.hour = hour
        fields.minute = minute
        if extended ? s.take(":") : s.nextIsDigit {
            guard let second = s.number(2...2) else { return nil }
            fields.second = second
            if s.take(".") || s.take(",") {
                guard let micro = s.fraction() else { return nil }
                fields.microsecond = micro
            }
        }
        if let offset = s.offset() { fields.offsetSeconds = offset }
        return fields
    }

    // MARK: - HTTP dates

    private static func httpDate(_ s: inout DateScanner) throws(DateProblem) -> DateFields? {
        guard let weekday = DateScanner.weekday(named: s.word()) else { return nil }
        var fields: DateFields
        if s.take(",") {
            // IMF-fixdate, RFC 850, the cookie form and RFC 5322: day month year time zone.
            s.skipSpaces()
            guard let day = s.number(1...2) else { return nil }
            let dashed = s.take("-")
            if !dashed { guard s.skipSpaces() > 0 else { return nil } }
            guard let month = DateScanner.month(named: s.word()) else { return nil }
            if dashed { guard s.take("-") else { return nil } } else { guard s.skipSpaces() > 0 else { return nil } }
            guard let year = fullYear(&s) else { return nil }
            fields = DateFields(year: year, month: month + 1, day: day)
            guard s.skipSpaces() > 0, time(&s, into: &fields) else { return nil }
            s.skipSpaces()
            guard let offset = zone(&s) else { return nil }
            fields.offsetSeconds = offset
        } else {
            // asctime: `Sun Nov  6 08:49:37 1994`, in UTC.
            guard s.skipSpaces() > 0, let month = DateScanner.month(named: s.word()), s.skipSpaces() > 0,
                  let day = s.number(1...2) else { return nil }
            fields = DateFields(year: 0, month: month + 1, day: day)
            guard s.skipSpaces() > 0, time(&s, into: &fields), s.skipSpaces() > 0, let year = s.number(4...4) else { return nil }
            fields.year = year
        }
        let instant = try instant(of: fields)
        guard instant.weekday == weekday else {
            let written = "\(fields.day) \(DateFields.monthNames[fields.month - 1].prefix(3)) \(fields.year)"
            throw DateProblem("\(written) is a \(DateFields.weekdayNames[instant.weekday]), not a \(DateFields.weekdayNames[weekday])")
        }
        return fields
    }

    /// Four digits, or two read as `%y` is.
    private static func fullYear(_ s: inout DateScanner) -> Int? {
        guard let first = s.number(2...2) else { return nil }
        guard let rest = s.number(2...2) else { return s.nextIsDigit ? nil : DateScanner.fullYear(twoDigits: first) }
        return s.nextIsDigit ? nil : first * 100 + rest
    }

    /// `HH:MM:SS`.
    private static func time(_ s: inout DateScanner, into fields: inout DateFields) -> Bool {
        guard let hour = s.number(2...2), s.take(":"), let minute = s.number(2...2), s.take(":"),
              let second = s.number(2...2) else { return false }
        fields.hour = hour
        fields.minute = minute
        fields.second = second
        return true
    }

    /// `GMT` (what RFC 9110 requires), `UTC`, `UT`, `Z` or a numeric offset.
    private static func zone(_ s: inout DateScanner) -> Int? {
        if s.nextIsLetter {
            switch s.word().uppercased() {
            case "GMT", "UTC", "UT", "Z": return 0
            default: return nil
            }
        }
        return s.offset()
    }
}
