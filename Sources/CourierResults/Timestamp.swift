import CourierDiagnostics
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A wall-clock instant, in microseconds since 1970-01-01T00:00:00Z.
///
/// Encoded as ISO 8601 text in UTC with six fraction digits
/// (`2026-11-30T17:46:43.123456Z`): readable, sortable as text, and exact, so an
/// encoded result decodes back equal and golden reports made with a fixed time
/// are byte for byte stable. (`Date` would round-trip through a binary double.)
package struct Timestamp: Sendable, Hashable, Comparable {
    package var microsecondsSince1970: Int

    package init(microsecondsSince1970: Int) {
        self.microsecondsSince1970 = microsecondsSince1970
    }

    /// The Unix epoch: what a result that never ran (a skipped step) carries.
    package static let zero = Timestamp(microsecondsSince1970: 0)

    /// Now, from the system's real-time clock.
    package static func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(microsecondsSince1970: Int(spec.tv_sec) * 1_000_000 + Int(spec.tv_nsec) / 1000)
    }

    /// `microseconds` later.
    package func adding(microseconds: Int) -> Timestamp {
        Timestamp(microsecondsSince1970: microsecondsSince1970 + microseconds)
    }

    package static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.microsecondsSince1970 < rhs.microsecondsSince1970
    }

    /// `2026-11-30T17:46:43.123456Z`.
    package var iso8601: String {
        let (seconds, micros) = microsecondsSince1970.quotientAndRemainder(dividingBy: 1_000_000)
        let (whole, fraction) = micros < 0 ? (seconds - 1, micros + 1_000_000) : (seconds, micros)
        let (days, secondOfDay) = whole.quotientAndRemainder(dividingBy: 86_400)
        let (day, second) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
        let (year, month, dayOfMonth) = CivilCalendar.civil(days: day)
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(dayOfMonth, 2))T\(pad(second / 3600, 2)):\(pad(second / 60 % 60, 2)):\(pad(second % 60, 2)).\(pad(fraction, 6))Z"
    }

    /// Parses what ``iso8601`` writes (six fraction digits are required: the form is exact).
    package init?(iso8601 text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 27, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A,
              bytes[16] == 0x3A, bytes[19] == 0x2E, bytes[26] == 0x5A else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for byte in bytes[from..<(from + count)] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
              let minute = number(14, 2), let second = number(17, 2), let fraction = number(20, 6),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        let days = CivilCalendar.days(year: year, month: month, day: day)
        microsecondsSince1970 = ((days * 86_400 + hour * 3600 + minute * 60 + second) * 1_000_000) + fraction
    }

}

extension Timestamp: Codable {
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let parsed = Timestamp(iso8601: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a time like 2026-11-30T17:46:43.123456Z")
        }
        self = parsed
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }
}
