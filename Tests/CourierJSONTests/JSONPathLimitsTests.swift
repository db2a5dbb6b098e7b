import CourierJSON
import Testing

/// JSONPath nesting: filters inside filters and the descendant segment over the deepest value.
@Suite struct JSONPathLimitsTests {
    static func nestedFilters(_ count: Int) -> String {
        "$" + String(repeating: "[?@", count: count) + String(repeating: "]", count: count)
    }

    @Test func nestedFiltersUpToTheLimit() throws {
        let query = try JSONPath(Self.nestedFilters(128))
        #expect(query.evaluate(.array([.array([.number(JSONNumber(1))])])).isEmpty)
        do {
            _ = try JSONPath(Self.nestedFilters(129))
            Issue.record("129 nested filters were accepted")
        } catch {
            #expect(error.message == "filter expression nested too deeply, limit 128")
            // Just after the 129th `[?`.
            #expect(error.offset == 3 * 128 + 3)
        }
    }

    @Test func descendantsOfTheDeepestParsableValue() throws {
        let depth = NestingLimit.maxDepth
        let value = try JSONValue.parse(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        // Every array but the outermost is a descendant.
        #expect(try JSONPath("$..*").evaluate(value).count == depth - 1)
    }
}
