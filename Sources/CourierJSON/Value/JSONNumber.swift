/// A JSON number that keeps the text it was written with.
///
/// Integers stay integers, big integers and long decimals are never rounded, and two numbers
/// compare by their exact decimal value, so `1`, `1.0` and `10e-1` are equal while
/// `100000000000000000001` and `100000000000000000000` are not.
///
/// ```swift
/// let n = JSONNumber(text: "12345678901234567890")!
/// n.isInteger   // true
/// n.intValue    // nil: does not fit in Int
/// ```
public struct JSONNumber: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The number as written in the source, or a canonical spelling for constructed numbers.
    public private(set) var text: String

    /// Creates a number from JSON number text (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`);
    /// returns `nil` when `text` does not follow that grammar.
    public init?(text: String) {
        guard JSONNumber.isValidGrammar(text.utf8) else { return nil }
        self.text = text
    }

    /// Creates a number from text already checked against the JSON number grammar.
    init(uncheckedText text: String) {
        self.text = text
    }

    public init(_ value: Int) {
        self.text = String(value)
    }

    /// Creates a number from a finite `Double`, spelled with the shortest text that reads back
    /// as the same `Double` (`0.1`, `1.0`, `1e+16`).
    ///
    /// - Precondition: `value.isFinite`; JSON has no spelling for NaN or infinity.
    public init(_ value: Double) {
        precondition(value.isFinite, "JSON numbers cannot represent \(value)")
        self.text = value.description
    }

    public var description: String { text }

    /// The nearest `Double`; very large magnitudes become `±infinity`.
    public var doubleValue: Double {
        Double(text) ?? (text.hasPrefix("-") ? -.infinity : .infinity)
    }

    /// The value as an `Int` when it is an integer (see ``isInteger``) that fits; otherwise `nil`.
    public var intValue: Int? {
        if let plain = Int(text) { return plain }
        let decimal = ExactDecimal(text)
        guard decimal.exponent >= 0, decimal.digits.count + decimal.exponent <= 19 else {
            return decimal.digits.isEmpty ? 0 : nil
        }
        var result = 0
        for digit in decimal.digits {
            let (m, o1) = result.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int(digit))
            if o1 || o2 { return nil }
            result = a
        }
        for _ in 0..<decimal.exponent {
            let (m, o) = result.multipliedReportingOverflow(by: 10)
            if o { return nil }
            result = m
        }
        return decimal.negative ? -result : result
    }

    /// Whether the number is mathematically an integer.
    ///
    /// Like JSON Schema's `integer` type, this looks at the value, not the spelling: `1.0`,
    /// `1e3` and `1e400` are integers, `1.5` and `1e-3` are not.
    public var isInteger: Bool {
        if !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }) {
            return true
        }
        let decimal = ExactDecimal(text)
        return decimal.digits.isEmpty || decimal.exponent >= 0
    }

    /// Numeric equality on the exact decimal values (`-0 == 0`, `1 == 1.0`).
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        if lhs.text == rhs.text { return true }
        return ExactDecimal(lhs.text) == ExactDecimal(rhs.text)
    }

    /// Numeric order on the exact decimal values.
    public static func < (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        order(lhs, rhs) < 0
    }

    /// -1, 0 or 1 by the exact decimal values, each number read once: integers that fit an
    /// `Int` are compared as such, others as exact decimals (`gt:`, `<` in templates).
    package static func order(_ lhs: JSONNumber, _ rhs: JSONNumber) -> Int {
        if lhs.text == rhs.text { return 0 }
        if let l = Int(lhs.text), let r = Int(rhs.text) { return l < r ? -1 : (l == r ? 0 : 1) }
        let l = ExactDecimal(lhs.text), r = ExactDecimal(rhs.text)
        return l < r ? -1 : (l == r ? 0 : 1)
    }

    public func hash(into hasher: inout Hasher) {
        let decimal = ExactDecimal(text)
        hasher.combine(decimal.negative)
        hasher.combine(decimal.digits)
        hasher.combine(decimal.exponent)
    }

    static func isValidGrammar(_ bytes: some Collection<UInt8>) -> Bool {
        var i = bytes.startIndex
        func peek() -> UInt8? { i < bytes.endIndex ? bytes[i] : nil }
        func isDigit(_ b: UInt8?) -> Bool { b.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
        if peek() == UInt8(ascii: "-") { bytes.formIndex(after: &i) }
        if peek() == UInt8(ascii: "0") {
            bytes.formIndex(after: &i)
        } else if isDigit(peek()) {
            while isDigit(peek()) { bytes.formIndex(after: &i) }
        } else {
            return false
        }
        if peek() == UInt8(ascii: ".") {
            bytes.formIndex(after: &i)
            guard isDigit(peek()) else { return false }
            while isDigit(peek()) { bytes.formIndex(after: &i) }
        }
        if let e = peek(), e | 0x20 == UInt8(ascii: "e") {
            bytes.formIndex(after: &i)
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { bytes.formIndex(after: &i) }
            guard isDigit(peek()) else { return false }
            while isDigit(peek()) { bytes.formIndex(after: &i) }
        }
        return i == bytes.endIndex
    }
}

// MARK: - Exact decimal arithmetic

/// A JSON number reduced to sign, significant digits and exponent: the value is
/// `digits × 10^exponent` with no leading or trailing zeros in `digits` (zero has no digits and
/// no sign). Exponents are clamped to ±2^40, far beyond anything a document can mean.
struct ExactDecimal: Equatable, Comparable {
    var negative: Bool
    var digits: [UInt8]
    var exponent: Int

    init(_ text: String) {
        var negative = false
        var digits: [UInt8] = []
        var fractionDigits = 0
        var exponent = 0
        var iterator = text.utf8.makeIterator()
        var byte = iterator.next()
        if byte == UInt8(ascii: "-") {
            negative = true
            byte = iterator.next()
        }
        var inFraction = false
        while let b = byte {
            if b >= 0x30 && b <= 0x39 {
                if !(digits.isEmpty && b == 0x30) { digits.append(b - 0x30) }
                if inFraction { fractionDigits += 1 }
            } else if b == UInt8(ascii: ".") {
                inFraction = true
            } else {
                break
            }
            byte = iterator.next()
        }
        if let e = byte, e | 0x20 == UInt8(ascii: "e") {
            var expNegative = false
            var b = iterator.next()
            if b == UInt8(ascii: "-") || b == UInt8(ascii: "+") {
                expNegative = b == UInt8(ascii: "-")
                b = iterator.next()
            }
            let limit = 1 << 40
            while let d = b, d >= 0x30 && d <= 0x39 {
                if exponent < limit { exponent = exponent * 10 + Int(d - 0x30) }
                b = iterator.next()
            }
            if expNegative { exponent = -exponent }
        }
        // Leading zeros of the fraction were skipped above but still count as fraction digits.
        exponent -= fractionDigits
        while let last = digits.last, last == 0 {
            digits.removeLast()
            exponent += 1
        }
        if digits.isEmpty {
            negative = false
            exponent = 0
        }
        self.negative = negative
        self.digits = digits
        self.exponent = exponent
    }

    static func < (lhs: ExactDecimal, rhs: ExactDecimal) -> Bool {
        if lhs.negative != rhs.negative { return lhs.negative }
        let magnitudeLess = lessMagnitude(lhs, rhs)
        if lhs.negative {
            return lessMagnitude(rhs, lhs)
        }
        return magnitudeLess
    }

    private static func lessMagnitude(_ lhs: ExactDecimal, _ rhs: ExactDecimal) -> Bool {
        if lhs.digits.isEmpty { return !rhs.digits.isEmpty }
        if rhs.digits.isEmpty { return false }
        // Position of the most significant digit decides first.
        let lScale = lhs.digits.count + lhs.exponent
        let rScale = rhs.digits.count + rhs.exponent
        if lScale != rScale { return lScale < rScale }
        return lhs.digits.lexicographicallyPrecedes(rhs.digits)
    }
}
