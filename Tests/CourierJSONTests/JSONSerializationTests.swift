import Testing
@testable import CourierJSON

@Suite("JSON serialization and equality")
struct JSONSerializationTests {
    @Test func compactKeepsOrderAndText() throws {
        let text = #"{"z":[1,2.50,-0,1E+2],"a":{"n":null,"t":true,"f":false},"s":"x"}"#
        #expect(try JSONValue.parse(text).serialized() == text)
    }

    @Test func prettyUsesTwoSpaces() {
        let value: JSONValue = ["a": [1, ["b": nil]], "e": [], "o": [:]]
        #expect(value.serialized(pretty: true) == """
            {
              "a": [
                1,
                {
                  "b": null
                }
              ],
              "e": [],
              "o": {}
            }
            """)
    }

    @Test func escapesOnlyWhatJSONRequires() {
        let value = JSONValue.string("q\"b\\n\n\r\t\u{8}\u{c}\u{1}\u{1f}/é😀")
        #expect(value.serialized() == #""q\"b\\n\n\r\t\b\f\u0001\u001f/é😀""#)
    }

    @Test func roundTripsThroughTheParser() throws {
        let value: JSONValue = ["k": ["\u{0}x", 1.5, 12345678901234567890.0, true, nil, ["nested": []]]]
        #expect(try JSONValue.parse(value.serialized()) == value)
        #expect(try JSONValue.parse(value.serialized(pretty: true)) == value)
    }

    @Test func equalityIsJSONEquality() {
        #expect(JSONValue.number(JSONNumber(1)) == JSONValue.number(JSONNumber(text: "1.0")!))
        #expect(JSONValue(dictionaryLiteral: ("a", 1), ("b", 2)) == ["b": 2, "a": 1])
        #expect(JSONValue.array([1, 2]) != [2, 1])
        #expect(JSONValue.null != false)
        #expect(JSONValue.number(JSONNumber(0)) != false)
        #expect(JSONValue.string("1") != 1)
        let set: Set<JSONValue> = [1, 1.0, ["a": 1, "b": 2], ["b": 2, "a": 1]]
        #expect(set.count == 2)
    }

    @Test func typeNames() {
        let values: [JSONValue] = [nil, true, 1, "s", [], [:]]
        #expect(values.map(\.typeName) == ["null", "boolean", "number", "string", "array", "object"])
    }

    @Test func constructedNumbersUseCanonicalText() {
        #expect(JSONNumber(42).text == "42")
        #expect(JSONNumber(0.1).text == "0.1")
        #expect(JSONNumber(1.0).text == "1.0")
        #expect(JSONNumber(text: JSONNumber(1e300).text) != nil)
        #expect(JSONNumber(text: JSONNumber(-Double.leastNonzeroMagnitude).text) != nil)
    }
}
