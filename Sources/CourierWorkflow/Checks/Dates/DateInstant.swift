import CourierDiagnostics
import CourierJSON

/// A moment in time to the microsecond, in UTC: what the date filters (`to_date`, `unix`,
/// `format_date`, `days_before_now`, `days_after_now`) and the `before`/`after` predicates
/// compute with.
///
/// Whole microseconds since 1970 in an `Int64`, so every date of years 0000–9999 is exact
/// (a `Date`'s `Double` is not at the microsecond), and the calendar is worked out here in
/// proleptic Gregorian UTC: no time zone of the machine, no locale, nothing `TZ` can move.
package struct DateInstant: Sendable, Hashable, Comparable {
    package let microseconds: Int64

    package init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    package static func < (a: DateInstant, b: DateInstant) -> Bool { a.microseconds < b.microseconds }

    /// The years an instant may fall in: those RFC 3339 writes with four digits, so that the
    /// text `to_date` gives orders like the instants (`<` and `>` on two such strings agree
    /// with `before` and `after`).
    package static let years = 0...9999

    /// The instant of a civil date and time at `offsetSeconds` east of UTC, or nil when
    /// it falls outside ``years``. The fields must be in range (``DateFields/problem``).
    init?(_ fields: DateFields) {
        let days = Int64(Self.days(year: fields.year, month: fields.month, day: fields.day))
        let seconds = days * 86_400 + Int64(fields.hour * 3600 + fields.minute * 60 + fields.second) - Int64(fields.offsetSeconds)
        self.init(seconds: seconds, microsecond: fields.microsecond)
    }

    /// Nil outside ``years``.
    init?(seconds: Int64, microsecond: Int = 0) {
        guard seconds >= Self.earliestSecond, seconds <= Self.latestSecond else { return nil }
        microseconds = seconds * 1_000_000 + Int64(microsecond)
    }

    private static let earliestSecond = Int64(days(year: years.lowerBound, month: 1, day: 1)) * 86_400
    private static let latestSecond = Int64(days(year: years.upperBound + 1, month: 1, day: 1)) * 86_400 - 1

    // MARK: - Reading it back

    /// Whole seconds since 1970, rounded towards the past (so `-0.5` s is second -1).
    var seconds: Int64 { microseconds >= 0 ? microseconds / 1_000_000 : -((-microseconds + 999_999) / 1_000_000) }
    /// 0 to 999 999.
    var microsecond: Int { Int(microseconds - seconds * 1_000_000) }

    /// The civil date and time in UTC.
    var fields: DateFields {
        let secs = seconds
        let days = secs >= 0 ? secs / 86_400 : -((-secs + 86_399) / 86_400)
        let inDay = Int(secs - days * 86_400)
        let (year, month, day) = Self.civil(days: Int(days))
        return DateFields(year: year, month: month, day: day, hour: inDay / 3600, minute: inDay / 60 % 60,
                          second: inDay % 60, microsecond: microsecond)
    }

    /// RFC 3339 in UTC with six fraction digits (`2026-11-30T12:00:00.000000Z`): one spelling
    /// per instant, so equal instants give equal text and the text orders like the instants.
    package var rfc3339: String {
        let f = fields
        let date = "\(zeroPadded(f.year, 4))-\(zeroPadded(f.month, 2))-\(zeroPadded(f.day, 2))"
        let time = "\(zeroPadded(f.hour, 2)):\(zeroPadded(f.minute, 2)):\(zeroPadded(f.second, 2)).\(zeroPadded(f.microsecond, 6))"
        return date + "T" + time + "Z"
    }

    /// Seconds since 1970 as an exact decimal: `1700000000`, or `1700000000.25` with a fraction.
    package var unixNumber: JSONNumber {
        let fraction = microsecond
        guard fraction != 0 else { return JSONNumber(Int(seconds)) }
        // Written from the magnitude so that -0.25 s reads `-0.25`, not `-1.75`.
        let magnitude = microseconds.magnitude
        var digits = zeroPadded(Int(magnitude % 1_000_000), 6)
        while digits.hasSuffix("0") { digits.removeLast() }
        let text = (microseconds < 0 ? "-" : "") + "\(magnitude / 1_000_000).\(digits)"
        return JSONNumber(text: text) ?? JSONNumber(Int(seconds))
    }

    /// 0 for Sunday to 6 for Saturday.
    var weekday: Int {
        let days = Int(seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400))
        return ((days + 4) % 7 + 7) % 7  // 1970-01-01 was a Thursday
    }

    // MARK: - The proleptic Gregorian calendar

    /// Days from 1970-01-01 to a civil date.
    static func days(year: Int, month: Int, day: Int) -> Int { CivilCalendar.days(year: year, month: month, day: day) }

    /// The civil date of a day counted from 1970-01-01.
    static func civil(days: Int) -> (year: Int, month: Int, day: Int) { CivilCalendar.civil(days: days) }

    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func daysIn(month: Int, year: Int) -> Int {
        [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }
}

/// A civil date and time as read from text, before it becomes an instant.
struct DateFields {
    var year: Int
    var month: Int
    var day: Int
    var hour = 0
    var minute = 0
    var second = 0
    var microsecond = 0
    /// East of UTC.
    var offsetSeconds = 0

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                             "October", "November", "December"]
    static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// What is out of range, in words; nil when every field fits (a second of 60 is a leap
    /// second, RFC 3339, and counts as the first second of the next minute).
    var problem: String? {
        guard (1...12).contains(month) else { return "there is no month \(month)" }
        let monthDays = DateInstant.daysIn(month: month, year: year)
        guard (1...monthDays).contains(day) else {
            return "\(Self.monthNames[month - 1]) \(year) has \(monthDays) days, not \(day)"
        }
        guard (0...23).contains(hour) else { return "there is no hour \(hour)" }
        guard (0...59).contains(minute) else { return "there is no minute \(minute)" }
        guard (0...60).contains(second) else { return "there is no second \(second)" }
        guard abs(offsetSeconds) < 24 * 3600 else { return "a UTC offset is less than 24 hours" }
        return nil
    }
}

/// `0042` for `zeroPadded(42, 4)`.
func zeroPadded(_ value: Int, _ width: Int) -> String {
    let digits = String(value.magnitude)
    let padded = digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    return value < 0 ? "-" + padded : padded
}
