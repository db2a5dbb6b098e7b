/// YAML 1.2 core schema resolution for scalars.
///
/// Plain scalars are typed by their text (`yes`/`no`/`on`/`off` stay strings:
/// that is YAML 1.2, not 1.1); quoted and block scalars are strings; explicit
/// tags win over both.
enum CoreSchema {
    static let strTag = "tag:yaml.org,2002:str"
    static let intTag = "tag:yaml.org,2002:int"
    static let floatTag = "tag:yaml.org,2002:float"
    static let boolTag = "tag:yaml.org,2002:bool"
    static let nullTag = "tag:yaml.org,2002:null"
    static let seqTag = "tag:yaml.org,2002:seq"
    static let mapTag = "tag:yaml.org,2002:map"

    /// Why an explicitly tagged scalar cannot have its tag's type.
    enum TagError: Error {
        case mismatch(expected: String)
        case unsupported
    }

    /// The value of a scalar with the given style and (resolved) tag.
    static func resolve(_ text: String, style: YAMLScalar.Style, tag: String?) -> Result<YAMLScalarValue, TagError> {
        switch tag {
        case nil:
            return .success(style == .plain ? resolvePlain(text) : .string)
        case "!":
            // The non-specific tag: "not a plain scalar", i.e. a string.
            return .success(.string)
        case strTag?:
            return .success(.string)
        case nullTag?:
            let value = resolvePlain(text)
            if case .null = value { return .success(.null) }
            return .failure(.mismatch(expected: "null"))
        case boolTag?:
            if case .bool(let b) = resolvePlain(text) { return .success(.bool(b)) }
            return .failure(.mismatch(expected: "a boolean"))
        case intTag?:
            if case .integer(let t) = resolvePlain(text) { return .success(.integer(text: t)) }
            return .failure(.mismatch(expected: "an integer"))
        case floatTag?:
            switch resolvePlain(text) {
            case .float(let t): return .success(.float(text: t))
            case .integer(let t): return .success(.float(text: t))
            default: return .failure(.mismatch(expected: "a float"))
            }
        default:
            return .failure(.unsupported)
        }
    }

    /// Core-schema resolution of a plain scalar's text.
    static func resolvePlain(_ text: String) -> YAMLScalarValue {
        let utf8 = text.utf8
        guard let first = utf8.first else { return .null }
        // Fast path: most plain scalars start with a letter that cannot begin a
        // null/bool/number (`application/json`, `POST`, `/users`).
        switch first {
        case UInt8(ascii: "~"):
            return utf8.count == 1 ? .null : .string
        case UInt8(ascii: "n"), UInt8(ascii: "N"):
            return text == "null" || text == "Null" || text == "NULL" ? .null : .string
        case UInt8(ascii: "t"), UInt8(ascii: "T"):
            return text == "true" || text == "True" || text == "TRUE" ? .bool(true) : .string
        case UInt8(ascii: "f"), UInt8(ascii: "F"):
            return text == "false" || text == "False" || text == "FALSE" ? .bool(false) : .string
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
            // Plain decimal integers (ids, status codes) are already in JSON spelling.
            if utf8.allSatisfy(isDigit), first != UInt8(ascii: "0") || utf8.count == 1 {
                return .integer(text: text)
            }
            return resolveNumber(text, Array(utf8)) ?? .string
        default:
            return .string
        }
    }

    private static func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }

    private static func resolveNumber(_ text: String, _ bytes: [UInt8]) -> YAMLScalarValue? {
        switch text {
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .float(text: ".inf")
        case "-.inf", "-.Inf", "-.INF": return .float(text: "-.inf")
        case ".nan", ".NaN", ".NAN": return .float(text: ".nan")
        default: break
        }
        // 0o17 and 0x1F: unsigned in the core schema.
        if bytes.count > 2, bytes[0] == UInt8(ascii: "0") {
            let digits = String(decoding: bytes[2...], as: UTF8.self)
            if bytes[1] == UInt8(ascii: "o") {
                guard digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 55 }) else { return nil }
                return .integer(text: decimalText(digits, radix: 8))
            }
            if bytes[1] == UInt8(ascii: "x") {
                guard digits.utf8.allSatisfy({ isDigit($0) || (65...70).contains($0) || (97...102).contains($0) }) else { return nil }
                return .integer(text: decimalText(digits, radix: 16))
            }
        }
        // [-+]? ( \.[0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
        var i = 0
        var negative = false
        if bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        let intStart = i
        while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        let intDigits = bytes[intStart..<i]
        var fraction: ArraySlice<UInt8>?
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            let fracStart = i
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
            fraction = bytes[fracStart..<i]
        }
        if intDigits.isEmpty && (fraction?.isEmpty ?? true) { return nil }
        var exponent: ArraySlice<UInt8>?
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            let expStart = i
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
            let digitsStart = i
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
            if i == digitsStart { return nil }
            exponent = bytes[expStart..<i]
        }
        guard i == bytes.count else { return nil }

        // Normalise to JSON spelling: no `+`, no leading zeros, digits on both sides of `.`.
        var integerPart = String(decoding: intDigits.drop { $0 == UInt8(ascii: "0") }, as: UTF8.self)
        if integerPart.isEmpty { integerPart = "0" }
        let sign = negative ? "-" : ""
        if fraction == nil, exponent == nil {
            return .integer(text: integerPart == "0" ? "0" : sign + integerPart)
        }
        var out = sign + integerPart
        if let fraction {
            out += "." + (fraction.isEmpty ? "0" : String(decoding: fraction, as: UTF8.self))
        }
        if let exponent {
            // Keep the exponent as written (`E`, `+`): both are valid JSON.
            out += String(decoding: exponent, as: UTF8.self)
        }
        return .float(text: out)
    }

    /// Decimal text of an unsigned number in another radix, without overflow limits.
    private static func decimalText(_ digits: String, radix: Int) -> String {
        if let value = UInt64(digits, radix: radix) { return String(value) }
        // Beyond 64 bits: schoolbook conversion on decimal digit arrays.
        var decimal: [Int] = [0]  // least significant first
        for ch in digits.unicodeScalars {
            guard let d = Int(String(ch), radix: radix) else { continue }
            var carry = d
            for k in decimal.indices {
                let v = decimal[k] * radix + carry
                decimal[k] = v % 10
                carry = v / 10
            }
            while carry > 0 { decimal.append(carry % 10); carry /= 10 }
        }
        return String(decimal.reversed().map { Character(String($0)) })
    }
}
