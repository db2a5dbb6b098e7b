/// The strftime formats of `to_date(format)` (reading) and `format_date(format)` (writing).
///
/// The conversions are read and written here, not by glibc's `strptime`/`strftime`: glibc's
/// `%s` goes through the machine's time zone (`mktime`) in both, which would make a verdict
/// depend on `TZ`; its `strptime` has no fractions of a second; and its names follow the
/// locale. Here names are English and every date is in UTC unless the text has an offset.
///
/// Conversions: `%Y %C %y %m %d %e %j %H %k %I %l %M %S %p %P %b %h %B %a %A %u %w %z %:z %Z
/// %s %f %3f %6f %9f %.f %U %W %G %V %T %D %F %R %r %c %x %X %n %t %%`; `%-d` (any numeric
/// one) writes no padding. `%f` is the fraction of a second (up to 9 digits read, 6 written),
/// `%.f` an optional `.` and fraction (as Hurl's `toDate` reads it). Reading, white space in
/// the format matches any white space, `%Z` reads `GMT`, `UTC`, `UT` or `Z`, and a format
/// without a year (`%Y`, `%y` or `%s`) is an error: it would silently mean some year.
package enum DatePattern {
    /// The instant `text` gives read with `format`.
    package static func instant(_ text: String, format: String) throws(DateProblem) -> DateInstant {
        var reader = PatternReader(scanner: DateScanner(text))
        for token in try tokens(format) {
            let start = reader.scanner.index
            guard reader.read(token) else { throw DateProblem("it does not match the format '\(format)' at character \(start + 1)") }
        }
        guard reader.scanner.atEnd else {
            throw DateProblem("it goes on after the format '\(format)' ends, at character \(reader.scanner.index + 1)")
        }
        return try reader.instant()
    }

    /// `instant` written with `format`, in UTC.
    package static func text(_ instant: DateInstant, format: String) throws(DateProblem) -> String {
        let writer = PatternWriter(instant: instant)
        var out: [UInt8] = []
        for token in try tokens(format) { writer.write(token, into: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: - Tokens

    enum Token: Equatable {
        case literal(UInt8)
        /// White space in the format: written as it is, matching any white space when read.
        case space(UInt8)
        /// A conversion by its name (`Y`, `:z`, `.f`, `3f`); `unpadded` for `%-d`.
        case conversion(String, unpadded: Bool)
    }

    static let simple = Set("YCymdejHkIlMSpPbhBaAuwzZsfUWGVnt%".map(String.init))
    static let composite: [String: String] = [
        "T": "%H:%M:%S", "D": "%m/%d/%y", "F": "%Y-%m-%d", "R": "%H:%M", "r": "%I:%M:%S %p",
        "c": "%a %b %e %H:%M:%S %Y", "x": "%m/%d/%y", "X": "%H:%M:%S",
    ]

    static func tokens(_ format: String) throws(DateProblem) -> [Token] {
        var tokens: [Token] = []
        let bytes = Array(format.utf8)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            i += 1
            guard b == UInt8(ascii: "%") else {
                tokens.append(DateScanner.isSpace(b) ? .space(b) : .literal(b))
                continue
            }
            let unpadded = i < bytes.count && bytes[i] == UInt8(ascii: "-")
            if unpadded { i += 1 }
            // `%:z`, `%.f` and `%3f` are two characters; the rest one.
            var name = i < bytes.count ? String(UnicodeScalar(bytes[i])) : ""
            if [":", ".", "3", "6", "9"].contains(name), i + 1 < bytes.count {
                name += String(UnicodeScalar(bytes[i + 1]))
            }
            i += name.utf8.count
            if let expansion = composite[name] {
                tokens += try self.tokens(expansion)
            } else if simple.contains(name) || ["3f", "6f", "9f", ".f", ":z"].contains(name) {
                tokens.append(.conversion(name, unpadded: unpadded))
            } else {
                let shown = name.isEmpty ? "a '%' at the end" : "'%\(unpadded ? "-" : "")\(name)'"
                throw DateProblem("the format has \(shown), which is not a conversion Courier knows; write '%%' for a '%'")
            }
        }
        return tokens
    }
}

/// Reads a text as a format's tokens say, collecting the fields.
private struct PatternReader {
    var scanner: DateScanner
    var year: Int?
    var month: Int?
    var day: Int?
    var dayOfYear: Int?
    var hour = 0
    var hour12: Int?
    var pm: Bool?
    var minute = 0
    var second = 0
    var microsecond = 0
    var offset = 0
    var epoch: DateInstant?
    var weekday: Int?

    mutating func read(_ token: DatePattern.Token) -> Bool {
        switch token {
        case .literal(let byte):
            return scanner.take(byte: byte)
        case .space:
            scanner.skipSpaces()
            return true
        case .conversion(let name, _):
            return convert(name)
        }
    }

    private mutating func convert(_ name: String) -> Bool {
        switch name {
        case "Y": return set(&year, scanner.number(1...4))
        case "y": return set(&year, scanner.number(2...2).map(DateScanner.fullYear))
        case "m": return set(&month, scanner.number(1...2))
        case "d": return set(&day, scanner.number(1...2))
        case "e": scanner.skipSpaces(); return set(&day, scanner.number(1...2))
        case "j": return set(&dayOfYear, scanner.number(1...3))
        case "H": return assign(&hour, scanner.number(1...2))
        case "k": scanner.skipSpaces(); return assign(&hour, scanner.number(1...2))
        case "I": return set(&hour12, scanner.number(1...2))
        case "l": scanner.skipSpaces(); return set(&hour12, scanner.number(1...2))
        case "M": return assign(&minute, scanner.number(1...2))
        case "S": return assign(&second, scanner.number(1...2))
        case "p", "P":
            switch scanner.word().lowercased() {
            case "am": pm = false
            case "pm": pm = true
            default: return false
            }
            return true
        case "b", "h", "B": return set(&month, DateScanner.month(named: scanner.word()).map { $0 + 1 })
        case "a", "A": return set(&weekday, DateScanner.weekday(named: scanner.word()))
        case "u": return set(&weekday, scanner.number(1...1).flatMap { (1...7).contains($0) ? $0 % 7 : nil })
        case "w": return set(&weekday, scanner.number(1...1).flatMap { (0...6).contains($0) ? $0 : nil })
        case "z", ":z": return assign(&offset, scanner.offset())
        case "Z":
            guard ["GMT", "UTC", "UT", "Z"].contains(scanner.word().uppercased()) else { return false }
            return true
        case "s":
            let negative = scanner.take("-")
            guard let seconds = scanner.number(1...12) else { return false }
            epoch = DateInstant(seconds: Int64(negative ? -seconds : seconds))
            return epoch != nil
        case "f": return assign(&microsecond, scanner.fraction())
        case "3f": return assign(&microsecond, scanner.fraction(3...3))
        case "6f": return assign(&microsecond, scanner.fraction(6...6))
        case "9f": return assign(&microsecond, scanner.fraction(9...9))
        case ".f":
            if scanner.take(".") { return assign(&microsecond, scanner.fraction()) }
            return true
        case "n", "t":
            scanner.skipSpaces()
            return true
        case "%": return scanner.take("%")
        default:
            // `%C`, `%U`, `%W`, `%G`, `%V`: written, not read (they do not name a day alone).
            return false
        }
    }

    private func set(_ field: inout Int?, _ value: Int?) -> Bool {
        guard let value else { return false }
        field = value
        return true
    }

    private func assign(_ field: inout Int, _ value: Int?) -> Bool {
        guard let value else { return false }
        field = value
        return true
    }

    /// The instant the fields name.
    func instant() throws(DateProblem) -> DateInstant {
        if let epoch {
            let instant = DateInstant(microseconds: epoch.microseconds + Int64(microsecond))
            return instant
        }
        guard let year else { throw DateProblem("the format gives no year (%Y, %y or %s)") }
        var fields = DateFields(year: year, month: month ?? 1, day: day ?? 1)
        if let dayOfYear, month == nil, day == nil {
            let days = DateInstant.days(year: year, month: 1, day: 1) + dayOfYear - 1
            guard (1...(DateInstant.isLeap(year) ? 366 : 365)).contains(dayOfYear) else {
                throw DateProblem("\(year) has no day \(dayOfYear)")
            }
            let civil = DateInstant.civil(days: days)
            fields.month = civil.month
            fields.day = civil.day
        }
        if let hour12 {
            guard (1...12).contains(hour12) else { throw DateProblem("there is no hour \(hour12) on a 12-hour clock") }
            fields.hour = hour12 % 12 + (pm == true ? 12 : 0)
        } else {
            fields.hour = hour
        }
        fields.minute = minute
        fields.second = second
        fields.microsecond = microsecond
        fields.offsetSeconds = offset
        if let problem = fields.problem { throw DateProblem(problem) }
        if let weekday {
            let written = ((DateInstant.days(year: fields.year, month: fields.month, day: fields.day) + 4) % 7 + 7) % 7
            guard written == weekday else {
                throw DateProblem("\(fields.day) \(DateFields.monthNames[fields.month - 1]) \(fields.year) is a "
                                  + "\(DateFields.weekdayNames[written]), not a \(DateFields.weekdayNames[weekday])")
            }
        }
        return try DateText.instant(of: fields)
    }
}

/// Writes an instant's conversions, in UTC.
private struct PatternWriter {
    let instant: DateInstant
    let fields: DateFields
    /// 1 for January 1st.
    let dayOfYear: Int

    init(instant: DateInstant) {
        self.instant = instant
        fields = instant.fields
        dayOfYear = DateInstant.days(year: fields.year, month: fields.month, day: fields.day)
            - DateInstant.days(year: fields.year, month: 1, day: 1) + 1
    }

    /// Bytes, not characters: a literal of the format may be one byte of a UTF-8 sequence.
    func write(_ token: DatePattern.Token, into out: inout [UInt8]) {
        switch token {
        case .literal(let byte): out.append(byte)
        case .space(let byte): out.append(byte)
        case .conversion(let name, let unpadded): out += text(name, unpadded: unpadded).utf8
        }
    }

    private func text(_ name: String, unpadded: Bool) -> String {
        func number(_ value: Int, _ width: Int, pad: Character = "0") -> String {
            if unpadded { return String(value) }
            let digits = String(value)
            return digits.count >= width ? digits : String(repeating: pad, count: width - digits.count) + digits
        }
        let f = fields
        let hour12 = f.hour % 12 == 0 ? 12 : f.hour % 12
        switch name {
        case "Y": return number(f.year, 4)
        case "C": return number(f.year / 100, 2)
        case "y": return number(f.year % 100, 2)
        case "m": return number(f.month, 2)
        case "d": return number(f.day, 2)
        case "e": return number(f.day, 2, pad: " ")
        case "j": return number(dayOfYear, 3)
        case "H": return number(f.hour, 2)
        case "k": return number(f.hour, 2, pad: " ")
        case "I": return number(hour12, 2)
        case "l": return number(hour12, 2, pad: " ")
        case "M": return number(f.minute, 2)
        case "S": return number(f.second, 2)
        case "p": return f.hour < 12 ? "AM" : "PM"
        case "P": return f.hour < 12 ? "am" : "pm"
        case "b", "h": return String(DateFields.monthNames[f.month - 1].prefix(3))
        case "B": return DateFields.monthNames[f.month - 1]
        case "a": return String(DateFields.weekdayNames[instant.weekday].prefix(3))
        case "A": return DateFields.weekdayNames[instant.weekday]
        case "u": return String(instant.weekday == 0 ? 7 : instant.weekday)
        case "w": return String(instant.weekday)
        case "z": return "+0000"
        case ":z": return "+00:00"
        case "Z": return "UTC"
        case "s": return String(instant.seconds)
        case "f", "6f": return number(f.microsecond, 6)
        case "3f": return number(f.microsecond / 1000, 3)
        case "9f": return number(f.microsecond, 6) + "000"
        case ".f":
            // As few digits as say it exactly: none, milliseconds or microseconds.
            if f.microsecond == 0 { return "" }
            return f.microsecond % 1000 == 0 ? "." + number(f.microsecond / 1000, 3) : "." + number(f.microsecond, 6)
        case "U": return number((dayOfYear - 1 + 7 - instant.weekday) / 7, 2)
        case "W": return number((dayOfYear - 1 + 7 - (instant.weekday + 6) % 7) / 7, 2)
        case "G": return number(isoWeek.year, 4)
        case "V": return number(isoWeek.week, 2)
        case "n": return "\n"
        case "t": return "\t"
        default: return "%"
        }
    }

    /// ISO 8601's week-numbering year and week (1–53): week 1 holds the year's first Thursday.
    private var isoWeek: (year: Int, week: Int) {
        let isoWeekday = instant.weekday == 0 ? 7 : instant.weekday
        let week = (dayOfYear - isoWeekday + 10) / 7
        if week < 1 { return (fields.year - 1, Self.weeks(in: fields.year - 1)) }
        if week > Self.weeks(in: fields.year) { return (fields.year + 1, 1) }
        return (fields.year, week)
    }

    private static func weeks(in year: Int) -> Int {
        func p(_ y: Int) -> Int { (y + y / 4 - y / 100 + y / 400) % 7 }
        return p(year) == 4 || p(year - 1) == 3 ? 53 : 52
    }
}
