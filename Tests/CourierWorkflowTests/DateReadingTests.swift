import CourierJSON
@testable import CourierWorkflow
import Foundation
import Testing

/// Dates read without a format (``DateText``) and with one (``DatePattern``), and written:
/// every form gives the exact instant, whatever the machine's time zone.
@Suite struct DateReadingTests {
    private func rfc3339(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        do throws(DateProblem) {
            return try DateText.instant(text).rfc3339
        } catch {
            Issue.record("'\(text)': \(error.reason)", sourceLocation: sourceLocation)
            return nil
        }
    }

    private func problem(_ text: String) -> String? {
        do throws(DateProblem) {
            _ = try DateText.instant(text)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test(arguments: [
        // ISO 8601 / RFC 3339, extended and basic, with and without offsets and fractions.
        ("2026-11-30", "2026-11-30T00:00:00.000000Z"),
        ("2026-11-30T12:00", "2026-11-30T12:00:00.000000Z"),
        ("2026-11-30T12:00:00Z", "2026-11-30T12:00:00.000000Z"),
        ("2026-11-30t12:00:00z", "2026-11-30T12:00:00.000000Z"),
        ("2026-11-30 12:00:00", "2026-11-30T12:00:00.000000Z"),
        ("2026-11-30T12:00:00+05:30", "2026-11-30T06:30:00.000000Z"),
        ("2026-11-30T12:00:00-0800", "2026-11-30T20:00:00.000000Z"),
        ("2026-11-30T12:00:00+01", "2026-11-30T11:00:00.000000Z"),
        ("2026-12-31T23:30:00-01:00", "2027-01-01T00:30:00.000000Z"),
        ("2026-11-30T12:00:00.5Z", "2026-11-30T12:00:00.500000Z"),
        ("2026-11-30T12:00:00,25+01:00", "2026-11-30T11:00:00.250000Z"),
        ("2026-11-30T12:00:00.123456789Z", "2026-11-30T12:00:00.123456Z"),
        ("2026-11-30T12:00:00.999999999Z", "2026-11-30T12:00:00.999999Z"),
        ("20261130T120000Z", "2026-11-30T12:00:00.000000Z"),
        ("20261130T1200+0100", "2026-11-30T11:00:00.000000Z"),
        ("20261130", "2026-11-30T00:00:00.000000Z"),
        ("2024-02-29T00:00:00Z", "2024-02-29T00:00:00.000000Z"),
        ("2016-12-31T23:59:60Z", "2017-01-01T00:00:00.000000Z"),
        ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00.000000Z"),
        ("1969-12-31T23:59:59.5Z", "1969-12-31T23:59:59.500000Z"),
        ("  2026-11-30T12:00:00Z  ", "2026-11-30T12:00:00.000000Z"),
        // HTTP dates (RFC 9110 §5.6.7): IMF-fixdate, RFC 850, asctime.
        ("Sun, 06 Nov 1994 08:49:37 GMT", "1994-11-06T08:49:37.000000Z"),
        ("Sunday, 06-Nov-94 08:49:37 GMT", "1994-11-06T08:49:37.000000Z"),
        ("Sun Nov  6 08:49:37 1994", "1994-11-06T08:49:37.000000Z"),
        ("Sun Nov 06 08:49:37 1994", "1994-11-06T08:49:37.000000Z"),
        // The cookie form, RFC 5322's one-digit day and numeric zone, UTC, any case.
        ("Thu, 01-Jan-2037 00:00:00 GMT", "2037-01-01T00:00:00.000000Z"),
        ("Sun, 6 Nov 1994 10:49:37 +0200", "1994-11-06T08:49:37.000000Z"),
        ("sun, 06 nov 1994 08:49:37 utc", "1994-11-06T08:49:37.000000Z"),
        // Two-digit years as %y: 69–99 in the 1900s, 00–68 in the 2000s.
        ("Thursday, 01-Jan-70 00:00:00 GMT", "1970-01-01T00:00:00.000000Z"),
        ("Tuesday, 01-Jan-30 00:00:00 GMT", "2030-01-01T00:00:00.000000Z"),
    ])
    func formsWithoutAFormat(text: String, expected: String) {
        #expect(rfc3339(text) == expected)
    }

    @Test(arguments: [
        ("2026-02-29", "February 2026 has 28 days, not 29"),
        ("2026-13-01", "there is no month 13"),
        ("2026-11-30T24:00:00Z", "there is no hour 24"),
        ("2026-11-30T12:60:00Z", "there is no minute 60"),
        ("Mon, 06 Nov 1994 08:49:37 GMT", "6 Nov 1994 is a Sunday, not a Monday"),
        ("Sun Nov  7 08:49:37 1994", "7 Nov 1994 is a Monday, not a Sunday"),
        ("2026-11-30T12:00:00+24:00", "it is not " + DateText.forms),
        ("yesterday", "it is not " + DateText.forms),
        ("2026-11-30T12:00:00Z trailing", "it is not " + DateText.forms),
        ("2026-11-30T12:00:00.Z", "it is not " + DateText.forms),
        ("Sun, 06 Nov 1994 08:49:37 CET", "it is not " + DateText.forms),
        ("2026/11/30", "it is not " + DateText.forms),
        ("", "it is not " + DateText.forms),
    ])
    func badTextSaysWhy(text: String, reason: String) {
        #expect(problem(text) == reason)
    }

    @Test func numbersAreSecondsSince1970() throws {
        #expect(try DateText.instant(of: .number(JSONNumber(1_700_000_000)))?.rfc3339 == "2023-11-14T22:13:20.000000Z")
        #expect(try DateText.instant(ofSeconds: "1700000000.25").rfc3339 == "2023-11-14T22:13:20.250000Z")
        #expect(try DateText.instant(ofSeconds: "-0.5").rfc3339 == "1969-12-31T23:59:59.500000Z")
        #expect(try DateText.instant(of: .bool(true)) == nil)
        #expect(throws: DateProblem.self) { try DateText.instant(ofSeconds: "1e9") }
        #expect(throws: DateProblem.self) { try DateText.instant(ofSeconds: "999999999999") }
    }

    @Test func unixNumbersAreExact() throws {
        #expect(try DateText.instant("2023-11-14T22:13:20Z").unixNumber.text == "1700000000")
        #expect(try DateText.instant("2023-11-14T22:13:20.25Z").unixNumber.text == "1700000000.25")
        #expect(try DateText.instant("1969-12-31T23:59:59.75Z").unixNumber.text == "-0.25")
        #expect(try DateText.instant("1969-12-31T23:59:59Z").unixNumber.text == "-1")
    }

    @Test func theCalendarIsProlepticGregorianToTheDay() {
        // Every day from 1600 to 2400 round-trips through days and back.
        let first = DateInstant.days(year: 1600, month: 1, day: 1)
        let last = DateInstant.days(year: 2400, month: 12, day: 31)
        var previous: (Int, Int, Int)?
        for day in stride(from: first, through: last, by: 1) {
            let civil = DateInstant.civil(days: day)
            if DateInstant.days(year: civil.year, month: civil.month, day: civil.day) != day {
                Issue.record("day \(day) gives \(civil)")
                return
            }
            if let previous { #expect(previous < (civil.year, civil.month, civil.day)) }
            previous = (civil.year, civil.month, civil.day)
        }
        // Foundation agrees on a sample (its Gregorian calendar in UTC).
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for seconds in stride(from: -5_000_000_000, to: 10_000_000_000, by: 123_456_789) {
            let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            let instant = DateInstant(microseconds: Int64(seconds) * 1_000_000)
            #expect(instant.fields.year == parts.year && instant.fields.month == parts.month && instant.fields.day == parts.day)
            #expect(instant.weekday + 1 == parts.weekday)
        }
    }

    // MARK: - Formats

    private func read(_ text: String, _ format: String) throws(DateProblem) -> String {
        try DatePattern.instant(text, format: format).rfc3339
    }

    @Test(arguments: [
        ("30/11/2026", "%d/%m/%Y", "2026-11-30T00:00:00.000000Z"),
        ("30/11/2026 12:00 +0100", "%d/%m/%Y %H:%M %z", "2026-11-30T11:00:00.000000Z"),
        ("2026-11-30T12:00:00.250+05:30", "%Y-%m-%dT%H:%M:%S%.f%:z", "2026-11-30T06:30:00.250000Z"),
        ("2026-11-30T12:00:00+05:30", "%Y-%m-%dT%H:%M:%S%.f%z", "2026-11-30T06:30:00.000000Z"),
        ("20261130", "%Y%m%d", "2026-11-30T00:00:00.000000Z"),
        ("Monday 30 November 2026, 1:05:09 pm", "%A %d %B %Y, %I:%M:%S %p", "2026-11-30T13:05:09.000000Z"),
        ("12:00 AM 1 Jan 26", "%I:%M %p %e %b %y", "2026-01-01T00:00:00.000000Z"),
        ("Sun, 06 Nov 1994 08:49:37 GMT", "%a, %d %b %Y %H:%M:%S %Z", "1994-11-06T08:49:37.000000Z"),
        ("1700000000", "%s", "2023-11-14T22:13:20.000000Z"),
        ("1700000000.5", "%s.%f", "2023-11-14T22:13:20.500000Z"),
        ("2026-334", "%Y-%j", "2026-11-30T00:00:00.000000Z"),
        ("2026-11-30 12:00:00", "%F %T", "2026-11-30T12:00:00.000000Z"),
        ("2026-11-30   12:00", "%Y-%m-%d %H:%M", "2026-11-30T12:00:00.000000Z"),
        ("100% 2026", "100%% %Y", "2026-01-01T00:00:00.000000Z"),
        ("le 30 été 2026", "le %d été %Y", "2026-01-30T00:00:00.000000Z"),
    ])
    func formatsRead(text: String, format: String, expected: String) throws {
        #expect(try read(text, format) == expected)
    }

    @Test(arguments: [
        ("30/11/2026", "%Y-%m-%d", "it does not match the format '%Y-%m-%d' at character 3"),
        ("2026-11-30 extra", "%Y-%m-%d", "it goes on after the format '%Y-%m-%d' ends, at character 11"),
        ("30/11", "%d/%m", "the format gives no year (%Y, %y or %s)"),
        ("31/11/2026", "%d/%m/%Y", "November 2026 has 30 days, not 31"),
        ("Tuesday 30/11/2026", "%A %d/%m/%Y", "30 November 2026 is a Monday, not a Tuesday"),
        ("13:00 PM 2026", "%I:%M %p %Y", "there is no hour 13 on a 12-hour clock"),
        ("2026-11-30", "%Y-%m-%d %Q", "the format has '%Q', which is not a conversion Courier knows; write '%%' for a '%'"),
        ("2026", "%Y%", "the format has a '%' at the end, which is not a conversion Courier knows; write '%%' for a '%'"),
        ("2026 CET", "%Y %Z", "it does not match the format '%Y %Z' at character 6"),
    ])
    func badFormatsSayWhy(text: String, format: String, reason: String) {
        #expect(throws: DateProblem.self) { try read(text, format) }
        do throws(DateProblem) { _ = try read(text, format) } catch { #expect(error.reason == reason) }
    }

    @Test(arguments: [
        ("%Y-%m-%dT%H:%M:%S.%fZ", "2026-11-30T06:30:05.012345Z"),
        ("%a, %d %b %Y %H:%M:%S GMT", "Mon, 30 Nov 2026 06:30:05 GMT"),
        ("%A %-d %B %Y, %I:%M %p", "Monday 30 November 2026, 06:30 AM"),
        ("%s|%3f|%6f|%9f|%.f", "1796020205|012|012345|012345000|.012345"),
        ("%j %u %w %U %W %G-W%V", "334 1 1 48 48 2026-W49"),
        ("%F %T %z %:z %Z", "2026-11-30 06:30:05 +0000 +00:00 UTC"),
        ("%D %R %e %k %l %P %C %y", "11/30/26 06:30 30  6  6 am 20 26"),
        ("%c", "Mon Nov 30 06:30:05 2026"),
        ("100%% été", "100% été"),
    ])
    func formatsWrite(format: String, expected: String) throws {
        let instant = try DateText.instant("2026-11-30T12:00:05.012345+05:30")
        #expect(try DatePattern.text(instant, format: format) == expected)
    }

    /// ISO weeks at the edges of years (the Thursday rule).
    @Test(arguments: [("2021-01-03", "2020-W53-7"), ("2024-12-30", "2025-W01-1"), ("2026-01-01", "2026-W01-4"), ("2027-01-03", "2026-W53-7")])
    func isoWeeks(date: String, expected: String) throws {
        #expect(try DatePattern.text(DateText.instant(date), format: "%G-W%V-%u") == expected)
    }

    @Test func fractionsOfMillisecondsWriteShortest() throws {
        #expect(try DatePattern.text(DateText.instant("2026-11-30T00:00:00Z"), format: "%S%.f") == "00")
        #expect(try DatePattern.text(DateText.instant("2026-11-30T00:00:00.25Z"), format: "%S%.f") == "00.250")
    }

    /// The text `to_date` gives orders like the instants, so `<` in templates agrees with `before`.
    @Test func rfc3339TextOrdersLikeInstants() throws {
        let dates = ["1994-11-06T08:49:37+09:00", "Sun, 06 Nov 1994 08:49:37 GMT", "1994-11-06T08:49:37.000001Z", "2026-01-01",
                     "2025-12-31T23:00:00-02:00"]
        let instants = try dates.map { (text: String) throws(DateProblem) -> DateInstant in try DateText.instant(text) }
        for a in instants {
            for b in instants { #expect((a < b) == (a.rfc3339 < b.rfc3339)) }
        }
    }
}
