import CourierJSON
import Testing

/// Serialising with a byte budget: cut on a UTF-8 boundary, the rest only counted.
@Suite struct SerializationBudgetTests {
    @Test func underTheBudgetIsWhole() {
        let value: JSONValue = .array([.string("é"), .number(JSONNumber(1))])
        let (text, omitted) = value.serialized(pretty: true, maxBytes: 1000)
        #expect(text == value.serialized(pretty: true))
        #expect(omitted == 0)
    }

    @Test func cutsOnACharacterBoundaryAndCountsTheRest() {
        let value: JSONValue = .string(String(repeating: "é", count: 10))  // 22 bytes with quotes
        let (text, omitted) = value.serialized(maxBytes: 4)  // `"é` is 3 bytes; the next é would end at 5
        #expect(text == "\"é")
        #expect(omitted == 22 - 3)
    }

    @Test func deepValueAtTheLimitRendersWithinTheBudget() throws {
        let deep = try JSONValue.parse(String(repeating: "[", count: NestingLimit.maxDepth) + String(repeating: "]", count: NestingLimit.maxDepth))
        let whole = deep.serialized(pretty: true)
        let (text, omitted) = deep.serialized(pretty: true, maxBytes: 4096)
        #expect(text.utf8.count == 4096)
        #expect(omitted == whole.utf8.count - 4096)
    }
}
