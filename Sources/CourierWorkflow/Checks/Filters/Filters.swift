import CourierDiagnostics
import CourierJSON
import Foundation

/// The `| filter` functions of section 9, each defined once with its evaluation.
package enum Filters {
    /// As the docs and `courier schema` list them (`known filters: …` sorts the names).
    package static let all: [FilterDefinition] = [
        `default`, upper, lower, trim, length, first, last, nth, base64Encode, base64Decode, urlEncode, json, sha256, int, float, string,
        toDate, formatDate, unix, daysBeforeNow, daysAfterNow,
    ]

    private static let byName: [String: FilterDefinition] = Dictionary(uniqueKeysWithValues: all.map { ($0.shape.name, $0) })

    package static func named(_ name: String) -> FilterDefinition? { byName[name] }

    /// Names and argument counts, for the parser's checks.
    package static let arities: [String: ClosedRange<Int>] = byName.mapValues(\.shape.arguments)

    static let `default` = FilterDefinition(
        CallShape(name: "default", arguments: 1...1, input: "any value, or none",
                  description: "Its argument when the input is undefined or null; a name under it is never an error.",
                  example: "{{ region | default('eu') }}"),
        evaluation: nil)

    static let upper = text("upper", "Upper case.", example: "{{ name | upper }}") { $0.uppercased() }
    static let lower = text("lower", "Lower case.", example: "{{ name | lower }}") { $0.lowercased() }
    static let trim = text("trim", "Without leading and trailing white space.", example: "{{ name | trim }}") {
        $0.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    static let base64Encode = text("base64_encode", "Base64 of the UTF-8 text.", example: "{{ 'user:pass' | base64_encode }}") {
        Data($0.utf8).base64EncodedString()
    }
    static let urlEncode = text("url_encode", "Percent-encoded (RFC 3986: everything but unreserved characters).",
                                example: "{{ query | url_encode }}", transform: percentEncode)
    static let sha256 = text("sha256", "The SHA-256 digest of the UTF-8 text, in hex.", example: "{{ body | sha256 }}") {
        SHA256.hexDigest(Array($0.utf8))
    }

    static let length = FilterDefinition(
        CallShape(name: "length", input: "a string, an array or an object", description: "The number of characters, items or keys.",
                  example: "{{ items | length }}")
    ) { input, _, call throws(EvaluationError) in
        guard let size = input.size else {
            throw EvaluationError(.type, "filter 'length' needs a string, an array or an object, found \(input.kindDescription)", at: call.range)
        }
        return .number(JSONNumber(size))
    }

    static let first = end("first", "The first item of an array or character of a string.", example: "{{ items | first }}")
    static let last = end("last", "The last item of an array or character of a string.", example: "{{ items | last }}")

    static let nth = FilterDefinition(
        CallShape(name: "nth", arguments: 1...1, input: "an array",
                  description: "The item at an index from 0; a negative one counts from the end (-1 is the last). "
                      + "A header sent several times is an array of its values.",
                  example: "{{ steps.login.headers['set-cookie'] | nth(1) }}")
    ) { input, arguments, call throws(EvaluationError) in
        guard case .array(let items) = input else {
            var hint = ""
            if case .string = input { hint = " (a header sent once is a string, not an array)" }
            throw EvaluationError(.type, "filter 'nth' needs an array, found \(input.kindDescription)\(hint)", at: call.range)
        }
        guard case .number(let number) = arguments[0], let index = number.intValue else {
            throw EvaluationError(.type, "filter 'nth' needs a whole number for its index, found \(arguments[0].kindDescription)", at: call.range)
        }
        let position = index < 0 ? items.count + index : index
        guard items.indices.contains(position) else {
            throw EvaluationError(.undefined, "filter 'nth': index \(index) is out of range (\(items.count) items)", at: call.range)
        }
        return items[position]
    }

    static let base64Decode = FilterDefinition(
        CallShape(name: "base64_decode", input: "a string", description: "The UTF-8 text of base64 (its `=` padding may be left off).",
                  example: "{{ part | base64_decode }}")
    ) { input, _, call throws(EvaluationError) in
        let text = try call.string(input)
        guard let data = Data(base64Encoded: padded(text)), let decoded = String(data: data, encoding: .utf8) else {
            throw EvaluationError(.invalid, "filter 'base64_decode': \(call.quoted(text.prefix(40))) is not base64 of UTF-8 text", at: call.range)
        }
        return .string(decoded)
    }

    static let json = FilterDefinition(
        CallShape(name: "json", input: "any value", description: "The value as compact JSON text.", example: "{{ user | json }}")
    ) { input, _, _ in
        .string(input.serialized())
    }

    static let int = FilterDefinition(
        CallShape(name: "int", input: "a number, a string or a boolean", description: "An integer (fractions cut towards zero).",
                  example: "{{ '42' | int }}")
    ) { input, _, call throws(EvaluationError) in
        try toInteger(input, call)
    }

    static let float = FilterDefinition(
        CallShape(name: "float", input: "a number or a string", description: "A floating-point number.", example: "{{ '1.5' | float }}")
    ) { input, _, call throws(EvaluationError) in
        switch input {
        case .number(let n):
            // A JSON number past a double's range (`1e400`) has no float spelling.
            let d = n.doubleValue
            guard d.isFinite else {
                throw EvaluationError(.invalid, "filter 'float': \(call.redactingValues ? "the value" : n.text) does not fit a float", at: call.range)
            }
            return .number(JSONNumber(d))
        case .string(let s):
            guard let d = Double(s.trimmingCharacters(in: .whitespaces)) else {
                throw EvaluationError(.invalid, "filter 'float': \(call.quoted(s)) is not a number", at: call.range)
            }
            guard d.isFinite else {
                throw EvaluationError(.invalid, "filter 'float': \(call.quoted(s)) does not fit a float", at: call.range)
            }
            return .number(JSONNumber(d))
        default:
            throw EvaluationError(.type, "filter 'float' needs a number or a string, found \(input.kindDescription)", at: call.range)
        }
    }

    static let string = FilterDefinition(
        CallShape(name: "string", input: "any value", description: "The value as text, as it reads inside a longer string.",
                  example: "{{ id | string }}")
    ) { input, _, _ in
        .string(input.interpolationText)
    }

    // MARK: - Families

    /// A filter from a string to a string.
    private static func text(_ name: String, _ description: String, example: String,
                             transform: @escaping @Sendable (String) -> String) -> FilterDefinition {
        FilterDefinition(CallShape(name: name, input: "a string", description: description, example: example)) { input, _, call throws(EvaluationError) in
            .string(transform(try call.string(input)))
        }
    }

    /// `first` and `last`.
    private static func end(_ name: String, _ description: String, example: String) -> FilterDefinition {
        FilterDefinition(CallShape(name: name, input: "an array or a string", description: description, example: example)) { input, _, call throws(EvaluationError) in
            let isFirst = name == "first"
            switch input {
            case .array(let a):
                guard let item = isFirst ? a.first : a.last else {
                    throw EvaluationError(.undefined, "filter '\(name)' applied to an empty array", at: call.range)
                }
                return item
            case .string(let s):
                guard let c = isFirst ? s.first : s.last else {
                    throw EvaluationError(.undefined, "filter '\(name)' applied to an empty string", at: call.range)
                }
                return .string(String(c))
            default:
                throw EvaluationError(.type, "filter '\(name)' needs an array or a string, found \(input.kindDescription)", at: call.range)
            }
        }
    }

    private static func toInteger(_ input: JSONValue, _ call: FilterCall) throws(EvaluationError) -> JSONValue {
        switch input {
        case .number(let n):
            if let i = n.intValue { return .number(JSONNumber(i)) }
            let d = n.doubleValue.rounded(.towardZero)
            guard let i = Int(exactly: d) else {
                throw EvaluationError(.invalid, "filter 'int': \(call.redactingValues ? "the value" : n.text) does not fit an integer", at: call.range)
            }
            return .number(JSONNumber(i))
        case .string(let s):
            let trimmed = s.trimmingCharacters(in: .whitespaces)
            if let i = Int(trimmed) { return .number(JSONNumber(i)) }
            if let d = Double(trimmed), let i = Int(exactly: d.rounded(.towardZero)) { return .number(JSONNumber(i)) }
            throw EvaluationError(.invalid, "filter 'int': \(call.redactingValues ? "the value" : "'\(s)'") is not a number", at: call.range)
        case .bool(let b):
            return .number(JSONNumber(b ? 1 : 0))
        default:
            throw EvaluationError(.type, "filter 'int' needs a number, a string or a boolean, found \(input.kindDescription)", at: call.range)
        }
    }

    // MARK: - Helpers

    /// RFC 3986 percent-encoding: everything but unreserved characters.
    package static func percentEncode(_ text: String) -> String {
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
