/// The date check of `iso_date`.
extension PredicateDefinition {
    /// A full date (`2026-11-30`) or an RFC 3339 date-time, with every field in range
    /// (Foundation's formatter would roll `2024-02-30` over to March).
    static func isISODate(_ s: String) -> Bool {
        let digits = Array(s.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= digits.count else { return nil }
            var value = 0
            for byte in digits[from..<(from + count)] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        func byte(_ index: Int) -> UInt8? { index < digits.count ? digits[index] : nil }
        guard let year = number(0, 4), byte(4) == UInt8(ascii: "-"), let month = number(5, 2),
              byte(7) == UInt8(ascii: "-"), let day = number(8, 2), (1...12).contains(month) else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...monthDays).contains(day) else { return false }
        if digits.count == 10 { return true }

        guard let t = byte(10), t == UInt8(ascii: "T") || t == UInt8(ascii: "t"),
              let hour = number(11, 2), byte(13) == UInt8(ascii: ":"), let minute = number(14, 2),
              byte(16) == UInt8(ascii: ":"), let second = number(17, 2),
              hour <= 23, minute <= 59, second <= 60 else { return false }
        var index = 19
        if byte(index) == UInt8(ascii: ".") {
            index += 1
            let start = index
            while let b = byte(index), (48...57).contains(b) { index += 1 }
            guard index > start else { return false }
        }
        guard let zone = byte(index) else { return false }
        if zone == UInt8(ascii: "Z") || zone == UInt8(ascii: "z") { return index + 1 == digits.count }
        guard zone == UInt8(ascii: "+") || zone == UInt8(ascii: "-"), let offsetHours = number(index + 1, 2),
              byte(index + 3) == UInt8(ascii: ":"), let offsetMinutes = number(index + 4, 2) else { return false }
        return offsetHours <= 23 && offsetMinutes <= 59 && index + 6 == digits.count
    }
}
