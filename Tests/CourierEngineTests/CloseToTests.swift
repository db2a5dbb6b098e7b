@testable import CourierEngine
import CourierJSON
import CourierResults
import Testing

/// `close_to: { value: V, within: W }`: a number whose distance from V is at most W.
@Suite struct CloseToTests {
    private func failures(_ predicate: String, body: String = #"{"sum":0.30000000000000004,"n":9.5,"s":"x","big":1e400}"#,
                          path: String = "$.sum", vars: String = "{}") async throws -> [ExpectationResult] {
        let yaml = """
            vars: \(vars)
            steps:
              - request: { url: http://h/x }
                expect:
                  json:
                    \(path): \(predicate)
            """
        return try await runStep(yaml, response: jsonResponse(200, body)).failures()
    }

    @Test(arguments: [
        "{ close_to: { value: 0.3, within: 1e-9 } }",
        "{ close_to: { value: 0.30000000000000004, within: 0 } }",
        "{ close_to: { within: 0.5, value: 0 } }",
        "{ close_to: { value: \"{{ target }}\", within: \"{{ tolerance }}\" } }",
    ])
    func passesWithinTheTolerance(predicate: String) async throws {
        let found = try await failures(predicate, vars: "{ target: 0.25, tolerance: 0.1 }")
        #expect(found.map(\.message) == [])
    }

    /// The floating-point sum that `eq` cannot meet, and `close_to` can.
    @Test func aFloatingPointSumIsCloseToItsDecimal() async throws {
        #expect(try await failures("{ eq: 0.3 }").map(\.message) == ["json $.sum: expected 0.3, got 0.30000000000000004"])
        #expect(try await failures("{ close_to: { value: 0.3, within: 1e-9 } }").isEmpty)
    }

    @Test func failureSaysHowFarFromWhatAndRecordsTheExpectedValue() async throws {
        let found = try await failures("{ close_to: { value: 9, within: 0.25 } }", path: "$.n")
        #expect(found.map(\.message) == ["json $.n: expected within 0.25 of 9, got 9.5"])
        #expect(found.first?.expected?.rendered == "within 0.25 of 9")
        #expect(found.first?.actual?.rendered == "9.5")
    }

    @Test func aValueThatIsNotANumberFails() async throws {
        let found = try await failures("{ close_to: { value: 1, within: 1 } }", path: "$.s")
        #expect(found.map(\.message) == ["json $.s: 'close_to' needs a number, but the value is a string"])
    }

    /// A number past a double's range is infinitely far from every finite value.
    @Test func aNumberPastADoublesRangeIsNeverClose() async throws {
        let found = try await failures("{ close_to: { value: 1e300, within: 1e300 } }", path: "$.big")
        #expect(found.map(\.message) == ["json $.big: expected within 1e300 of 1e300, got 1e400"])
    }

    /// Templated operands are checked against the shape once rendered, as literal ones are at load.
    @Test func aTemplatedOperandThatIsNotANumberFailsTheStep() async throws {
        let found = try await failures("{ close_to: { value: 1, within: \"{{ tolerance }}\" } }", vars: "{ tolerance: -1 }")
        #expect(found.map(\.message) == ["json $.sum: 'close_to': 'within' must be at least 0, found -1"])
        let text = try await failures("{ close_to: { value: \"{{ target }}\", within: 1 } }", vars: "{ target: abc }")
        #expect(text.map(\.message) == ["json $.sum: 'close_to': expected a number for 'value', found a string"])
    }

    @Test func missingValueIsTheUsualNoValueFailure() async throws {
        let found = try await failures("{ close_to: { value: 1, within: 1 } }", path: "$.missing")
        #expect(found.map(\.message) == ["json $.missing: there is no value to check"])
    }
}
