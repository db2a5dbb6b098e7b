import CourierJSON
import Testing

/// Numbers are ordered by their exact decimal values, whatever their text.
@Suite struct JSONNumberOrderTests {
    @Test(arguments: [
        ("1", "1", 0), ("1", "1.0", 0), ("-0", "0", 0), ("1e2", "100", 0),
        ("2", "10", -1), ("10", "2", 1), ("-5", "3", -1),
        ("9007199254740993", "9007199254740992", 1),
        ("0.1", "0.10000000000000001", -1), ("1e400", "1e399", 1),
        ("99999999999999999999", "100000000000000000000", -1),
    ])
    func orderIsByExactValue(a: String, b: String, expected: Int) throws {
        let x = try #require(JSONValue.parse(a).numberValue), y = try #require(JSONValue.parse(b).numberValue)
        #expect(JSONNumber.order(x, y) == expected)
        #expect(JSONNumber.order(y, x) == -expected)
        #expect((x < y) == (expected < 0))
        #expect((x == y) == (expected == 0))
    }
}
