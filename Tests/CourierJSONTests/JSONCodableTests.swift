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
