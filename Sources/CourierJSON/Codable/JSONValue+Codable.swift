#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Encoding builds the JSONValue directly (JSONValueEncoder) so members keep their declaration
// order. Decoding goes through JSON text and Foundation's JSONDecoder: one well-tested
// implementation of Codable's decoding rules; the text step costs a serialization, which is
// fine for the sizes captures and request bodies have.

extension JSONValue {
    /// Encodes `value` as a JSON value, object members in the order the type encodes them.
    ///
    /// Foundation types follow `JSONEncoder`'s defaults: `Data` as Base64, `URL` as a string,
    /// `Date` as seconds since 2001. Throws `EncodingError.invalidValue` for NaN and infinity.
    ///
    /// ```swift
    /// struct Login: Codable { var user: String; var remember: Bool }
    /// let body = try JSONValue(encoding: Login(user: "ada", remember: true))
    /// body["user"]   // .string("ada")
    /// ```
    public init(encoding value: some Encodable) throws {
        self = try JSONValueEncoder().encode(value)
    }

    /// Decodes this value as `type` with `JSONDecoder`.
    ///
    /// ```swift
    /// let login = try body.decode(Login.self)
    /// ```
    public func decode<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(type, from: Data(serializedBytes()))
    }
}

extension JSONValue: Codable {
    /// Decodes any JSON value, e.g. a free-form member of a Codable model.
    ///
    /// Numbers arrive through `Decimal` when they are not integers, so their text is as exact
    /// as the decoder allows; integers that fit `Int64`/`UInt64` keep all their digits.
    public init(from decoder: any Decoder) throws {
        // Each level of the input is one more call: bound it like the parser does.
        guard decoder.codingPath.count < NestingLimit.maxDepth else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "value \(NestingLimit.message)"))
        }
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        if let object = try? decoder.container(keyedBy: AnyCodingKey.self) {
            var members = JSONObject()
            for key in object.allKeys { members[key.stringValue] = try object.decode(JSONValue.self, forKey: key) }
            self = .object(members)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let bool = try? single.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? single.decode(Int64.self) {
            self = .number(JSONNumber(uncheckedText: String(int)))
        } else if let uint = try? single.decode(UInt64.self) {
            self = .number(JSONNumber(uncheckedText: String(uint)))
        } else if let decimal = try? single.decode(Decimal.self), let number = JSONNumber(text: "\(decimal)") {
            self = .number(number)
        } else if let double = try? single.decode(Double.self), double.isFinite {
            self = .number(JSONNumber(double))
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .number(let number):
            var single = encoder.singleValueContainer()
            if let int = Int64(number.text) {
                try single.encode(int)
            } else if let uint = UInt64(number.text) {
                try single.encode(uint)
            } else if let decimal = Decimal(string: number.text) {
                try single.encode(decimal)
            } else {
                try single.encode(number.doubleValue)
            }
        case .string(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .array(let elements):
            var array = encoder.unkeyedContainer()
            for element in elements { try array.encode(element) }
        case .object(let object):
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for member in object { try container.encode(member.value, forKey: AnyCodingKey(member.key)) }
        }
    }
}

struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) { stringValue = string }
    init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { self.init(index: intValue) }
}
