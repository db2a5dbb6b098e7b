import CourierDiagnostics
import CourierJSON
import Foundation

/// The `| filter` functions of section 9 (`default` lives in the evaluator:
/// it must see whether its input is undefined, not just its value).
enum Filters {
    /// `redactingValues`: say "the value" instead of quoting the input (it may be a secret
    /// being computed, which no output may show).
    static func apply(_ name: String, to input: JSONValue, arguments: [JSONValue], at range: SourceRange,
                      redactingValues: Bool = false) throws(EvaluationError) -> JSONValue {
        /// `'abc'` in a message, or `the value` when values must not be shown.
        func quoted(_ text: some StringProtocol) -> String { redactingValues ? "the value" : "'\(text)'" }
        func string() throws(EvaluationError) -> String {
            guard case .string(let s) = input else {
                throw EvaluationError(.type, "filter '\(name)' needs a string, found \(ExpressionEvaluator.describe(input))", at: range)
            }
            return s
        }
        switch name {
        case "upper": return .string(try string().uppercased())
        case "lower": return .string(try string().lowercased())
        case "trim": return .string(try string().trimmingCharacters(in: .whitespacesAndNewlines))
        case "length":
            switch input {
            case .string(let s): return .number(JSONNumber(s.count))
            case .array(let a): return .number(JSONNumber(a.count))
            case .object(let o): return .number(JSONNumber(o.count))
            default:
                throw EvaluationError(.type, "filter 'length' needs a string, an array or an object, found \(ExpressionEvaluator.describe(input))", at: range)
            }
        case "first", "last":
            switch input {
            case .array(let a):
                guard let item = name == "first" ? a.first : a.last else {
                    throw EvaluationError(.undefined, "filter '\(name)' applied to an empty array", at: range)
                }
                return item
            case .string(let s):
                guard let c = name == "first" ? s.first : s.last else {
                    throw EvaluationError(.undefined, "filter '\(name)' applied to an empty string", at: range)
                }
                return .string(String(c))
            default:
                throw EvaluationError(.type, "filter '\(name)' needs an array or a string, found \(ExpressionEvaluator.describe(input))", at: range)
            }
        case "base64_encode":
            return .string(Data(try string().utf8).base64EncodedString())
        case "base64_decode":
            let text = try string()
            guard let data = Data(base64Encoded: Self.padded(text)), let decoded = String(data: data, encoding: .utf8) else {
                throw EvaluationError(.invalid, "filter 'base64_decode': \(quoted(text.prefix(40))) is not base64 of UTF-8 text", at: range)
            }
            return .string(decoded)
        case "url_encode":
            return .string(percentEncode(try string()))
        case "json":
            return .string(input.serialized())
        case "sha256":
            return .string(SHA256.hexDigest(Array(try string().utf8)))
        case "int":
            return try toInteger(input, at: range, redactingValues: redactingValues)
        case "float":
            switch input {
            case .number(let n):
                // A JSON number past a double's range (`1e400`) has no float spelling.
                let d = n.doubleValue
                guard d.isFinite else {
                    throw EvaluationError(.invalid, "filter 'float': \(redactingValues ? "the value" : n.text) does not fit a float", at: range)
                }
                return .number(JSONNumber(d))
            case .string(let s):
                guard let d = Double(s.trimmingCharacters(in: .whitespaces)) else {
                    throw EvaluationError(.invalid, "filter 'float': \(quoted(s)) is not a number", at: range)
                }
                guard d.isFinite else {
                    throw EvaluationError(.invalid, "filter 'float': \(quoted(s)) does not fit a float", at: range)
                }
                return .number(JSONNumber(d))
            default:
                throw EvaluationError(.type, "filter 'float' needs a number or a string, found \(ExpressionEvaluator.describe(input))", at: range)
            }
        case "string":
            return .string(TemplateRenderer.interpolation(input))
        default:
            throw EvaluationError(.invalid, "unknown filter '\(name)'", at: range)
        }
    }

    private static func toInteger(_ input: JSONValue, at range: SourceRange, redactingValues: Bool) throws(EvaluationError) -> JSONValue {
        switch input {
        case .number(let n):
            if let i = n.intValue { return .number(JSONNumber(i)) }
            let d = n.doubleValue.rounded(.towardZero)
            guard let i = Int(exactly: d) else {
                throw EvaluationError(.invalid, "filter 'int': \(redactingValues ? "the value" : n.text) does not fit an integer", at: range)
            }
            return .number(JSONNumber(i))
        case .string(let s):
            let trimmed = s.trimmingCharacters(in: .whitespaces)
            if let i = Int(trimmed) { return .number(JSONNumber(i)) }
            if let d = Double(trimmed), let i = Int(exactly: d.rounded(.towardZero)) { return .number(JSONNumber(i)) }
            throw EvaluationError(.invalid, "filter 'int': \(redactingValues ? "the value" : "'\(s)'") is not a number", at: range)
        case .bool(let b):
            return .number(JSONNumber(b ? 1 : 0))
        default:
            throw EvaluationError(.type, "filter 'int' needs a number, a string or a boolean, found \(ExpressionEvaluator.describe(input))", at: range)
        }
    }

    /// RFC 3986 percent-encoding: everything but unreserved characters.
    static func percentEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    /// Accepts base64 with its `=` padding left off, as JWT parts are written.
    private static func padded(_ text: String) -> String {
        let remainder = text.utf8.count % 4
        return remainder == 0 ? text : text + String(repeating: "=", count: 4 - remainder)
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
