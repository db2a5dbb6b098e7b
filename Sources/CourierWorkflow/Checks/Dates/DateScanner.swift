/// Reads the parts of a date from its text, one ASCII byte at a time: numbers with a given
/// count of digits, names, fractions and UTC offsets. Shared by ``DateText`` (the forms read
/// without a format) and ``DatePattern`` (`to_date('%d/%m/%Y')`).
struct DateScanner {
    private let bytes: [UInt8]
    private(set) var index = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    var atEnd: Bool { index == bytes.count }
    var next: UInt8? { index < bytes.count ? bytes[index] : nil }

    var nextIsDigit: Bool { next.map(Self.isDigit) ?? false }
    var nextIsLetter: Bool { next.map(Self.isLetter) ?? false }

    static func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }
    static func isLetter(_ byte: UInt8) -> Bool { (65...90).contains(byte) || (97...122).contains(byte) }
    static func isSpace(_ byte: UInt8) -> Bool { byte == 32 || (9...13).contains(byte) }

    /// Consumes `character` (ASCII) when it comes next.
    mutating func take(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue, next == ascii else { return false }
        index += 1
        return true
    }

    /// Consumes `byte` when it comes next.
    mutating func take(byte: UInt8) -> Bool {
        guard next == byte else { return false }
        index += 1
        return true
    }

    /// Consumes white space; how much there was.
    @discardableResult
    mutating func skipSpaces() -> Int {
        let start = index
        while let b = next, Self.isSpace(b) { index += 1 }
        return index - start
    }

    /// A number of `digits.lowerBound` to `digits.upperBound` digits (as many as there are,
    /// up to the most), or nil, consuming nothing, when there are fewer than the least.
    mutating func number(_ digits: ClosedRange<Int>) -> Int? {
        let start = index
        var value = 0
        while index - start < digits.upperBound, let b = next, Self.isDigit(b) {
            value = value * 10 + Int(b - 48)
            index += 1
        }
        guard index - start >= digits.lowerBound else {
            index = start
            return nil
        }
        return value
    }

    /// Letters, as they are written.
    mutating func word() -> String {
        let start = index
        while let b = next, Self.isLetter(b) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// The digits of a fraction of a second (after its `.`), as microseconds: digits past
    /// the sixth are cut, never rounded up into the next second. Nil without a digit.
    mutating func fraction(_ digits: ClosedRange<Int> = 1...9) -> Int? {
        let start = index
        var micro = 0
        while index - start < digits.upperBound, let b = next, Self.isDigit(b) {
            if index - start < 6 { micro = micro * 10 + Int(b - 48) }
            index += 1
        }
        let count = index - start
        guard count >= digits.lowerBound else {
            index = start
            return nil
        }
        for _ in count..<max(count, 6) { micro *= 10 }
        return micro
    }

    /// A UTC offset in seconds east: `Z`, `+05:30`, `+0530` or `+05`; nil, consuming
    /// nothing, when none comes next.
    mutating func offset() -> Int? {
        let start = index
        if take("Z") || take("z") { return 0 }
        let sign: Int
        if take("+") { sign = 1 } else if take("-") { sign = -1 } else { return nil }
        guard let hours = number(2...2) else {
            index = start
            return nil
        }
        var minutes = 0
        if take(":") {
            guard let m = number(2...2) else {
                index = start
                return nil
            }
            minutes = m
        } else if let m = number(2...2) {
            minutes = m
        }
        guard hours <= 23, minutes <= 59 else {
            index = start
            return nil
        }
        return sign * (hours * 3600 + minutes * 60)
    }

    /// The index (0–11) of a month written as its name or its first three letters, any case.
    static func month(named word: String) -> Int? {
        name(word, among: DateFields.monthNames)
    }

    /// The index (0 for Sunday) of a weekday written as its name or its first three letters.
    static func weekday(named word: String) -> Int? {
        name(word, among: DateFields.weekdayNames)
    }

    private static func name(_ word: String, among names: [String]) -> Int? {
        let lower = word.lowercased()
        return names.firstIndex { $0.lowercased() == lower || (lower.count == 3 && $0.lowercased().hasPrefix(lower)) }
    }

    /// A two-digit year as POSIX `strptime` reads `%y`: 69–99 are 1969–1999, 00–68 are
    /// 2000–2068. RFC 9110 asks for "within 50 years of now" instead; a fixed rule keeps a
    /// check's verdict from depending on the day it runs (in 2026 the two differ only for 69–76).
    static func fullYear(twoDigits year: Int) -> Int { year >= 69 ? 1900 + year : 2000 + year }
}
