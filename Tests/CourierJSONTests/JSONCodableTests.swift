import Foundation
import Testing
import CourierJSON

@Suite("Codable conversions")
struct JSONCodableTests {
    struct Order: Codable, Equatable {
        var id: Int
        var total: Double
        var customer: String?
        var tags: [String]
        var lines: [Line]
        struct Line: Codable, Equatable {
            var sku: String
            var quantity: Int
        }
    }

    let order = Order(id: 7, total: 19.5, customer: "Ada", tags: ["a", "b"], lines: [.init(sku: "X-1", quantity: 2)])

    @Test func encodesIntoAValue() throws {
        let value = try JSONValue(encoding: order)
        #expect(value["id"] == 7)
        #expect(value["total"] == 19.5)
        #expect(value["lines"]?[0]?["sku"] == "X-1")
        #expect(value["tags"] == ["a", "b"])
        #expect(value.objectValue?.keys == ["id", "total", "customer", "tags", "lines"])
    }

    @Test func encodesFoundationTypesLikeJSONEncoder() throws {
        struct Payload: Codable, Equatable {
            var data: Data
            var url: URL
            var date: Date
            var amount: Decimal
            var big: UInt64
            var small: Int8
            var ratio: Float
            var missing: String?
        }
        let payload = Payload(
            data: Data([1, 2, 3]), url: URL(string: "https://example.com/a?b=c")!, date: Date(timeIntervalSinceReferenceDate: 12.5),
            amount: Decimal(string: "12345678901234567890.25")!, big: .max, small: -8, ratio: 0.5, missing: nil)
        let value = try JSONValue(encoding: payload)
        #expect(value.serialized() == #"{"data":"AQID","url":"https://example.com/a?b=c","date":12.5,"amount":12345678901234567890.25,"big":18446744073709551615,"small":-8,"ratio":0.5}"#)
        #expect(try value.decode(Payload.self) == payload)
        let viaFoundation = try JSONValue.parse(JSONEncoder().encode(payload))
        #expect(viaFoundation == value)
    }

    @Test func rejectsNonFiniteNumbers() {
        #expect(throws: EncodingError.self) { try JSONValue(encoding: [Double.nan]) }
        #expect(throws: EncodingError.self) { try JSONValue(encoding: ["x": Float.infinity]) }
    }

    @Test func encodesNestedAndCustomContainers() throws {
        struct Custom: Encodable {
            enum Keys: String, CodingKey { case outer, list }
            enum Inner: String, CodingKey { case z, a }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                var inner = container.nestedContainer(keyedBy: Inner.self, forKey: .outer)
                try inner.encode(1, forKey: .z)
                try inner.encodeNil(forKey: .a)
                var list = container.nestedUnkeyedContainer(forKey: .list)
                try list.encode("x")
                var nested = list.nestedUnkeyedContainer()
                try nested.encode(true)
                try list.encodeNil()
            }
        }
        #expect(try JSONValue(encoding: Custom()).serialized() == #"{"outer":{"z":1,"a":null},"list":["x",[true],null]}"#)
        #expect(try JSONValue(encoding: [String: Int]()) == [:])
        #expect(try JSONValue(encoding: "fragment") == "fragment")
    }

    @Test func decodesFromAValue() throws {
        let value: JSONValue = [
            "id": 7, "total": 19.5, "customer": "Ada", "tags": ["a", "b"],
            "lines": [["sku": "X-1", "quantity": 2]],
        ]
        #expect(try value.decode(Order.self) == order)
        #expect(try JSONValue(encoding: order).decode(Order.self) == order)
    }

    @Test func decodingReportsTypeMismatches() {
        let value: JSONValue = ["id": "seven"]
        #expect(throws: DecodingError.self) { try value.decode(Order.self) }
    }

    @Test func jsonValueIsItselfCodable() throws {
        let original = try JSONValue.parse(#"{"n":12345678901234567890,"d":0.1,"s":"x","a":[true,null],"o":{}}"#)
        let data = try JSONEncoder().encode(original)
        let decoded = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(decoded == original)
        struct Envelope: Codable { var payload: JSONValue }
        let envelope = try JSONValue(encoding: Envelope(payload: original))
        #expect(envelope["payload"] == original)
    }
}
