@testable import CourierEngine
@testable import CourierHTTP
import CourierJSON
import CourierResults
import CourierWorkflow
import Testing

/// Numbers as users mean them: equality on exact decimal values, `type: float` by the number's
/// text, `type: integer` by its value.
@Suite struct NumberTests {
    private func failures(_ check: String, body: String) async throws -> [String] {
        let yaml = "vars: { third: 0.3 }\nsteps:\n  - request: { url: http://h/x }\n    expect:\n      json: { $.x: \(check) }\n"
        return try await runStep(yaml, response: jsonResponse(200, body)).failures().map(\.message)
    }

    @Test(arguments: [
        ("0.3", #"{"x":0.3}"#), ("0.3", #"{"x":0.30}"#), ("0.3", #"{"x":3e-1}"#), ("0.3", #"{"x":3.0E-1}"#),
        ("\"{{ third }}\"", #"{"x":0.3}"#), ("{ eq: 0.3 }", #"{"x":0.300}"#),
        ("9007199254740993", #"{"x":9007199254740993}"#), ("{ gt: 9007199254740992 }", #"{"x":9007199254740993}"#),
        ("{ lt: 0.30000000000000004 }", #"{"x":0.3}"#), ("100", #"{"x":1e2}"#), ("{ lt: 1e401, gt: 1e399 }", #"{"x":1e400}"#),
    ])
    /// Equality and order on the exact decimals: past a double's precision and range too.
    func exactDecimalsCompare(check: String, body: String) async throws {
        #expect(try await failures(check, body: body) == [])
    }

    /// Doubles would call these equal; the decimals differ.
    @Test(arguments: [
        ("0.3", #"{"x":0.30000000000000004}"#, "json $.x: expected 0.3, got 0.30000000000000004"),
        ("9007199254740992", #"{"x":9007199254740993}"#, "json $.x: expected 9007199254740992, got 9007199254740993"),
        ("{ ne: 0.1 }", #"{"x":1e-1}"#, "json $.x: expected anything but 0.1"),
    ])
    func differentDecimalsAreNot(check: String, body: String, message: String) async throws {
        #expect(try await failures(check, body: body) == [message])
    }

    @Test func closeToMeetsFloatingPointResults() async throws {
        #expect(try await failures("{ close_to: { value: 0.3, within: 1e-9 } }", body: #"{"x":0.30000000000000004}"#) == [])
    }

    @Test(arguments: [
        (#"{"x":-3.0}"#, true, true), (#"{"x":1e3}"#, true, true), (#"{"x":2.5}"#, false, true),
        (#"{"x":7}"#, true, false), (#"{"x":-1E-2}"#, false, true),
    ])
    func integerByValueFloatByText(body: String, isInteger: Bool, isFloat: Bool) async throws {
        #expect(try await failures("{ type: integer }", body: body) == (isInteger ? [] : ["json $.x: expected an integer, got a number"]))
        #expect(try await failures("{ type: float }", body: body) == (isFloat ? [] : ["json $.x: expected a float, got a number"]))
        #expect(try await failures("{ type: number }", body: body) == [])
    }

    @Test func collection() async throws {
        #expect(try await failures("{ type: collection }", body: #"{"x":[]}"#) == [])
        #expect(try await failures("{ type: collection }", body: #"{"x":{}}"#) == [])
        #expect(try await failures("{ type: collection }", body: #"{"x":null}"#) == ["json $.x: expected a collection, got null"])
        #expect(try await failures("{ type: collection }", body: #"{"x":"[]"}"#) == ["json $.x: expected a collection, got a string"])
    }
}
