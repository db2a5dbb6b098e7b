import Foundation
import Testing
import CourierJSON

/// ``JSONValueDecoder``: Codable decoding straight from a parsed value, so a `JSONValue`
/// member keeps a number's text (JSONDecoder fails on `1e400` and rounds 40 digits), and a
/// number that does not fit a typed member is a `DecodingError`, never a trap.
@Suite struct JSONValueDecoderTests {
    struct Record: Codable, Equatable {
        var count: Int
        var ratio: Double
        var name: String
        var note: String?
        var data: JSONValue
        var items: [Int8]
    }

    static func value(_ text: String) throws -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    @Test("a JSONValue member is the value itself: numbers keep their text")
    func keepsNumberText() throws {
        let text = #"{"count": 1e3, "ratio": 0.5, "name": "n", "data": [1e400, -1e-400, 1234567890123456789012345678901234567890], "items": [1, -2]}"#
        let record = try JSONValueDecoder().decode(Record.self, from: try Self.value(text))
        #expect(record.count == 1000 && record.ratio == 0.5 && record.name == "n" && record.note == nil && record.items == [1, -2])
        #expect(record.data.arrayValue?.compactMap { $0.numberValue?.text } == ["1e400", "-1e-400", "1234567890123456789012345678901234567890"])
        // What the encoder writes reads back equal.
        #expect(try JSONValueDecoder().decode(Record.self, from: try JSONValue(encoding: record)) == record)
    }

    @Test("numbers that do not fit a typed member, and wrong types, are DecodingErrors with the path",
          arguments: [
              (#""count": 9223372036854775808"#, "count"), (#""count": 1e400"#, "count"), (#""count": 1.5"#, "count"),
              (#""ratio": 1e400"#, "ratio"), (#""count": "7""#, "count"), (#""items": [300]"#, "items"),
          ])
    func misfits(member: String, key: String) throws {
        var fields = [#""count": 1"#, #""ratio": 1"#, #""name": "n""#, #""data": null"#, #""items": []"#]
        let name = member.split(separator: ":")[0]
        fields.removeAll { $0.hasPrefix(name + ":") }
        fields.append(member)
        #expect {
            _ = try JSONValueDecoder().decode(Record.self, from: try Self.value("{" + fields.joined(separator: ", ") + "}"))
        } throws: { error in
            guard let error = error as? DecodingError else { return false }
            switch error {
            case .typeMismatch(_, let context), .dataCorrupted(let context):
                return context.codingPath.first?.stringValue == key
            default:
                return false
            }
        }
    }

    @Test("a missing member is keyNotFound")
    func missingMember() throws {
        #expect(throws: DecodingError.self) {
            _ = try JSONValueDecoder().decode(Record.self, from: try Self.value(#"{"count": 1}"#))
        }
    }
}
