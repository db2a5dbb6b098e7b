@testable import CourierEngine
@testable import CourierHTTP
import CourierJSON
import CourierResults
import CourierWorkflow
import Foundation
import Testing

private let fixtureBody = #"""
{"id":42,"name":"Ada Lovelace","price":9.5,"count":3.0,"tags":["a","b"],"items":[{"price":1},{"price":2}],
 "empty":[],"blank":"","uuid":"123e4567-e89b-12d3-a456-426614174000","date":"2024-01-02T03:04:05Z",
 "millis":"2024-01-02T03:04:05.123+02:00","day":"2024-01-02","flag":true,"nothing":null,"obj":{"kind":"x","size":1}}
"""#

/// The YAML of a one-step workflow whose only expectation is `line` under `expect.json`
/// (so `line` is line 5 of the file, starting at column 9).
private func jsonExpectationWorkflow(_ line: String) -> String {
    """
    steps:
      - request: { url: http://h/x }
        expect:
          json:
            \(line)
    """
}

private func checkJSON(_ line: String, body: String = fixtureBody) async throws -> [ExpectationResult] {
    let outcome = try await runStep(jsonExpectationWorkflow(line), response: jsonResponse(200, body))
    return outcome.failures()
}

/// A failing case: the exact message, and where in the expectation line the failure points.
struct FailingCase: Sendable, CustomTestStringConvertible {
    var line: String
    var message: String
    /// Text in `line` at which the failure's location starts.
    var at: String
    /// Which occurrence of `at` in the line (`$.uuid: { uuid: … }` points at the second `uuid:`).
    var occurrence = 1
    var testDescription: String { line }
}

private func expectSingleFailure(_ failures: [ExpectationResult], _ c: FailingCase,
                                 sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    #expect(failures.map(\.message) == [c.message], sourceLocation: sourceLocation)
    guard let failure = failures.first else { return }
    starts(failure.location, at: c.at, in: jsonExpectationWorkflow(c.line), occurrence: c.occurrence, sourceLocation: sourceLocation)
}

// MARK: - Predicates

@Suite struct PredicateTests {
    @Test(arguments: [
        "$.id: 42",
        "$.id: 42.0",
        "$.count: 3",
        "$.price: 9.5",
        "$.name: Ada Lovelace",
        "$.flag: true",
        "$.nothing: null",
        "$.tags: [a, b]",
        "$.obj: { size: 1, kind: x }",  // key order ignored
        "$.id: { eq: 42.0 }",
        "$.obj: { eq: { kind: x, size: 1 } }",
        "$.id: { ne: 41 }",
        "$.id: { ne: \"42\" }",
        "$.id: { gt: 41 }",
        "$.id: { gte: 42 }",
        "$.id: { lt: 42.5 }",
        "$.id: { lte: 42 }",
        "$.id: { gt: 0, lt: 100 }",
        "$.name: { gt: Ab, lt: Ae }",
        "$.id: { in: [1, 42] }",
        "$.id: { not_in: [1, 2] }",
        "$.name: { contains: Love }",
        "$.tags: { contains: a }",
        "$.obj: { contains: kind }",
        "$.name: { not_contains: Bob }",
        "$.tags: { not_contains: c }",
        "$.name: { starts_with: Ada }",
        "$.name: { ends_with: lace }",
        #"$.name: { matches: "^Ada \\w+$" }"#,
        #"$.name: { not_matches: "^\\d+$" }"#,
        "$.id: { exists: true }",
        "$.nothing: { exists: true }",
        "$.missing: { exists: false }",
        "$.id: { type: integer }",
        "$.count: { type: integer }",
        "$.id: { type: number }",
        "$.price: { type: number }",
        "$.name: { type: string }",
        "$.flag: { type: boolean }",
        "$.tags: { type: array }",
        "$.obj: { type: object }",
        "$.nothing: { type: \"null\" }",
        "$.price: { type: float }",
        "$.count: { type: float }",  // 3.0: written with a fraction, so a float, and an integer too
        "$.tags: { type: collection }",
        "$.obj: { type: collection }",
        "$.tags: { length: 2 }",
        "$.name: { length: { gte: 12 } }",
        "$.obj: { length: 2 }",
        "$.empty: { empty: true }",
        "$.blank: { empty: true }",
        "$.tags: { empty: false }",
        "$.items[*].price: { each: { gt: 0 } }",
        "$.items: { each: { type: object } }",
        "$.empty: { each: { gt: 100 } }",
        "$.uuid: { uuid: true }",
        "$.name: { uuid: false }",
        "$.date: { iso_date: true }",
        "$.millis: { iso_date: true }",
        "$.day: { iso_date: true }",
        "$.name: { iso_date: false }",
        "$.id: { not: { eq: 41 } }",
        "$.name: { not: { starts_with: Bob } }",
    ])
    func passes(_ line: String) async throws {
        let failures = try await checkJSON(line)
        #expect(failures.map(\.message) == [])
    }

    @Test(arguments: [
        FailingCase(line: "$.id: 43", message: "json $.id: expected 43, got 42", at: "43"),
        FailingCase(line: "$.id: \"42\"", message: #"json $.id: expected "42", got 42"#, at: "\"42\""),
        FailingCase(line: "$.obj: { kind: x, size: 2 }", message: #"json $.obj: expected {"kind":"x","size":2}, got {"kind":"x","size":1}"#, at: "{ kind"),
        FailingCase(line: "$.id: { eq: 41 }", message: "json $.id: expected 41, got 42", at: "eq:"),
        FailingCase(line: "$.id: { ne: 42 }", message: "json $.id: expected anything but 42", at: "ne:"),
        FailingCase(line: "$.id: { gt: 42 }", message: "json $.id: expected > 42, got 42", at: "gt:"),
        FailingCase(line: "$.id: { gte: 43 }", message: "json $.id: expected >= 43, got 42", at: "gte:"),
        FailingCase(line: "$.id: { lt: 42 }", message: "json $.id: expected < 42, got 42", at: "lt:"),
        FailingCase(line: "$.id: { lte: 41.5 }", message: "json $.id: expected <= 41.5, got 42", at: "lte:"),
        FailingCase(line: "$.id: { in: [1, 2] }", message: "json $.id: expected one of [1,2], got 42", at: "in:"),
        FailingCase(line: "$.id: { not_in: [42, 43] }", message: "json $.id: expected none of [42,43], got 42", at: "not_in:"),
        FailingCase(line: "$.name: { contains: Bob }", message: #"json $.name: expected to contain "Bob""#, at: "contains:"),
        FailingCase(line: "$.tags: { contains: c }", message: #"json $.tags: expected to contain "c""#, at: "contains:"),
        FailingCase(line: "$.name: { not_contains: Ada }", message: #"json $.name: expected not to contain "Ada""#, at: "not_contains:"),
        FailingCase(line: "$.name: { starts_with: Love }", message: #"json $.name: expected to start with "Love""#, at: "starts_with:"),
        FailingCase(line: "$.name: { ends_with: Ada }", message: #"json $.name: expected to end with "Ada""#, at: "ends_with:"),
        FailingCase(line: #"$.name: { matches: "^\\d+$" }"#, message: #"json $.name: expected to match /^\d+$/"#, at: "matches:"),
        FailingCase(line: "$.name: { not_matches: \"^Ada\" }", message: "json $.name: expected not to match /^Ada/", at: "not_matches:"),
        FailingCase(line: "$.missing: { exists: true }", message: "json $.missing: expected a value, found none", at: "exists:"),
        FailingCase(line: "$.id: { exists: false }", message: "json $.id: expected no value, found 42", at: "exists:"),
        FailingCase(line: "$.price: { type: integer }", message: "json $.price: expected an integer, got a number", at: "type:"),
        FailingCase(line: "$.id: { type: string }", message: "json $.id: expected a string, got a number", at: "type:"),
        FailingCase(line: "$.nothing: { type: object }", message: "json $.nothing: expected an object, got null", at: "type:"),
        FailingCase(line: "$.id: { type: float }", message: "json $.id: expected a float, got a number", at: "type:"),
        FailingCase(line: "$.name: { type: collection }", message: "json $.name: expected a collection, got a string", at: "type:"),
        FailingCase(line: "$.tags: { length: 3 }", message: "length of json $.tags: expected 3, got 2", at: "3 }"),
        FailingCase(line: "$.tags: { length: { gt: 5 } }", message: "length of json $.tags: expected > 5, got 2", at: "gt:"),
        FailingCase(line: "$.tags: { empty: true }", message: "json $.tags: expected to be empty", at: "empty:"),
        FailingCase(line: "$.empty: { empty: false }", message: "json $.empty: expected not to be empty", at: "empty:", occurrence: 2),
        FailingCase(line: "$.items[*].price: { each: { gt: 1 } }", message: "json $.items[*].price[0]: expected > 1, got 1", at: "gt:"),
        FailingCase(line: "$.name: { uuid: true }", message: #"json $.name: expected a UUID, got "Ada Lovelace""#, at: "uuid:"),
        FailingCase(line: "$.uuid: { uuid: false }", message: "json $.uuid: expected no UUID", at: "uuid:", occurrence: 2),
        FailingCase(line: "$.name: { iso_date: true }", message: #"json $.name: expected an ISO 8601 date, got "Ada Lovelace""#, at: "iso_date:"),
        FailingCase(line: "$.date: { iso_date: false }", message: "json $.date: expected no ISO 8601 date", at: "iso_date:"),
        FailingCase(line: "$.id: { not: { eq: 42 } }", message: "json $.id: expected the 'not' condition to fail, but it held", at: "not:"),
    ])
    func fails(_ c: FailingCase) async throws {
        expectSingleFailure(try await checkJSON(c.line), c)
    }

    @Test func failuresCarryExpectedAndActual() async throws {
        let failure = try #require(try await checkJSON("$.obj: { kind: y, size: 1 }").first)
        #expect(failure.subject == "json $.obj")
        #expect(failure.expected?.rendered == "{\n  \"kind\": \"y\",\n  \"size\": 1\n}")
        #expect(failure.actual?.rendered == "{\n  \"kind\": \"x\",\n  \"size\": 1\n}")
        #expect(failure.location?.file == testWorkflowPath)
    }

    @Test(arguments: [
        FailingCase(line: "$.name: { gt: 5 }", message: "json $.name: 'gt' needs a number, but the value is a string", at: "gt:"),
        FailingCase(line: "$.id: { lte: \"50\" }", message: "json $.id: 'lte' needs two numbers or two strings, but the value is a number", at: "lte:"),
        FailingCase(line: "$.flag: { lt: 1 }", message: "json $.flag: 'lt' needs a number, but the value is a boolean", at: "lt:"),
        FailingCase(line: "$.id: { starts_with: \"4\" }", message: "json $.id: 'starts_with' needs a string, but the value is a number", at: "starts_with:"),
        FailingCase(line: "$.id: { matches: \"4\" }", message: "json $.id: 'matches' needs a string, but the value is a number", at: "matches:"),
        FailingCase(line: "$.id: { contains: 4 }", message: "json $.id: 'contains' needs a string, an array or an object, but the value is a number", at: "contains:"),
        FailingCase(line: "$.id: { length: 2 }", message: "json $.id: 'length' needs a string, an array or an object, but the value is a number", at: "length:"),
        FailingCase(line: "$.id: { empty: false }", message: "json $.id: 'empty' needs a string, an array or an object, but the value is a number", at: "empty:"),
        FailingCase(line: "$.name: { each: { gt: 0 } }", message: "json $.name: 'each' needs an array, but the value is a string", at: "each:"),
        FailingCase(line: "$.id: { uuid: true }", message: "json $.id: 'uuid' needs a string, but the value is a number", at: "uuid:"),
    ])
    func typeMismatchesAreReportedAsSuch(_ c: FailingCase) async throws {
        expectSingleFailure(try await checkJSON(c.line), c)
    }

    @Test func everyPredicateOfAMapIsChecked() async throws {
        let failures = try await checkJSON("$.id: { gt: 50, lt: 10, type: string }")
        #expect(failures.map(\.message) == [
            "json $.id: expected > 50, got 42",
            "json $.id: expected < 10, got 42",
            "json $.id: expected a string, got a number",
        ])
    }
}

// MARK: - Node counts

@Suite struct NodeCountTests {
    @Test(arguments: [
        "$.items[*].price: [1, 2]",
        "$.items[*].price: { contains: 2 }",
        "$.items[*].price: { length: 2 }",
        "$.items..price: { each: { type: integer } }",
        "$.items[?@.price > 1].price: [2]",  // a filter is not singular: one match is a list of one
        "$.items[0].price: 1",  // a singular query: its value
    ])
    func nonSingularQueriesCompareAListSingularOnesTheValue(_ line: String) async throws {
        #expect(try await checkJSON(line).map(\.message) == [])
    }

    @Test func severalNodesAreNotComparedToOneValue() async throws {
        let c = FailingCase(line: "$.items[*].price: 1", message: "json $.items[*].price: expected 1, got [1,2]", at: "1")
        expectSingleFailure(try await checkJSON(c.line), c)
    }

    @Test(arguments: [
        FailingCase(line: "$.missing: 1", message: "json $.missing: expected 1, but there is no value", at: "1"),
        FailingCase(line: "$.missing: null", message: "json $.missing: expected null, but there is no value", at: "null"),
        FailingCase(line: "$.missing: { gt: 1 }", message: "json $.missing: there is no value to check", at: "{ gt"),
        FailingCase(line: "$.missing: { ne: 1 }", message: "json $.missing: there is no value to check", at: "{ ne"),
        FailingCase(line: "$.missing: { type: \"null\" }", message: "json $.missing: there is no value to check", at: "{ type"),
        FailingCase(line: "$.missing: { empty: true }", message: "json $.missing: there is no value to check", at: "{ empty"),
        FailingCase(line: "$.missing: { not_in: [1] }", message: "json $.missing: there is no value to check", at: "{ not_in"),
        FailingCase(line: "$.tags[5]: { exists: true }", message: "json $.tags[5]: expected a value, found none", at: "exists:"),
    ])
    func noNodeFailsEverythingButExistsFalse(_ c: FailingCase) async throws {
        expectSingleFailure(try await checkJSON(c.line), c)
    }

    @Test(arguments: [
        "$.missing: { not: { eq: 1 } }",
        "$.missing: { not: { type: string } }",
        "$.missing: { not: { contains: x } }",
    ])
    func noNodeAlsoFailsANegatedPredicate(_ line: String) async throws {
        // Spec §7: "none means missing: only `exists: false` passes".
        let failures = try await checkJSON(line)
        #expect(failures.count == 1, "a missing value must not pass '\(line)'")
    }

    @Test func noNodePassesExistsFalse() async throws {
        #expect(try await checkJSON("$.missing: { exists: false }").isEmpty)
        #expect(try await checkJSON("$.items[*].nope: { exists: false }").isEmpty)
    }

    @Test func anInvalidJSONPathIsALoadErrorInsideTheKey() async throws {
        // Compiled when the workflow loads: nothing runs, and the error points at the end of
        // the query inside the quoted key (col 9 is the quote; `$.items[: 1` is 11 long).
        let yaml = jsonExpectationWorkflow("\"$.items[: 1\": 1")
        #expect {
            _ = try decode(yaml)
        } throws: { error in
            (error as? WorkflowDecodingFailed)?.messages
                == ["\(testWorkflowPath):5:21: error: invalid JSONPath '$.items[: 1': unterminated bracketed selection, expected ']'"]
        }
    }
}

// MARK: - Status, headers, body, duration, cookies

private func check(_ expect: String, response: HTTPResponse) async throws -> (failures: [ExpectationResult], yaml: String) {
    let yaml = "steps:\n  - request: { url: http://h/x }\n    expect:\n" + expect.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n") + "\n"
    let outcome = try await runStep(yaml, response: response)
    return (outcome.failures(), yaml)
}

@Suite struct StatusExpectationTests {
    @Test(arguments: [
        ("status: 200", 200), ("status: [200, 201]", 201), ("status: \"2xx\"", 204), ("status: 2xx", 299),
        ("status: [\"4xx\", 500]", 418), ("status: { gte: 200, lt: 300 }", 250), ("status: { in: [301, 302] }", 302),
        ("status: 404", 404),
    ])
    func passes(_ expect: String, status: Int) async throws {
        #expect(try await check(expect, response: textResponse(status, "")).failures.map(\.message) == [])
    }

    @Test(arguments: [
        ("status: 200", 201, "status: expected 200, got 201", "200"),
        ("status: [200, 201]", 202, "status: expected one of 200, 201, got 202", "[200"),
        ("status: \"2xx\"", 404, "status: expected 2xx, got 404", "\"2xx\""),
        ("status: [\"4xx\", 500]", 503, "status: expected one of 4xx, 500, got 503", "[\"4xx\""),
        ("status: { gte: 200, lt: 300 }", 302, "status: expected < 300, got 302", "lt:"),
    ])
    func fails(_ expect: String, status: Int, message: String, at needle: String) async throws {
        let (failures, yaml) = try await check(expect, response: textResponse(status, ""))
        #expect(failures.map(\.message) == [message])
        starts(failures.first?.location, at: needle, in: yaml)
        if failures.first?.subject == "status", !expect.contains("{") {
            #expect(failures.first?.actual?.rendered == String(status))
        }
    }
}

@Suite struct HeaderExpectationTests {
    private let response = textResponse(200, "ok", headers: [
        "Content-Type": "application/json; charset=utf-8",
        "Content-Length": "42",
        "X-Flag": "true",
        "Location": "/users/17",
        "Vary": "Accept",
    ])

    @Test(arguments: [
        "headers: { Content-Length: 42 }",  // equality is textual: 42 means "42"
        "headers: { content-length: \"42\" }",  // names are case-insensitive
        "headers: { X-Flag: true }",
        "headers: { Content-Type: { contains: application/json } }",
        #"headers: { Location: { matches: "^/users/\\d+$" } }"#,
        "headers: { X-Missing: { exists: false } }",
        "headers: { Vary: { eq: Accept } }",
    ])
    func passes(_ expect: String) async throws {
        #expect(try await check(expect, response: response).failures.map(\.message) == [])
    }

    @Test(arguments: [
        ("headers: { Content-Length: 41 }", #"header Content-Length: expected "41", got "42""#, "41"),
        ("headers: { X-Missing: abc }", "header X-Missing: expected \"abc\", but there is no value", "abc"),
        ("headers: { Content-Type: { starts_with: text/ } }", #"header Content-Type: expected to start with "text/""#, "starts_with:"),
        ("headers: { X-Missing: { exists: true } }", "header X-Missing: expected a value, found none", "exists:"),
    ])
    func fails(_ expect: String, message: String, at needle: String) async throws {
        let (failures, yaml) = try await check(expect, response: response)
        #expect(failures.map(\.message) == [message])
        starts(failures.first?.location, at: needle, in: yaml)
    }

    @Test func aRepeatedHeaderMatchesAnyOfItsValues() async throws {
        var headers = HTTPHeaders()
        headers.add(name: "X-Tag", value: "a")
        headers.add(name: "X-Tag", value: "b")
        let response = textResponse(200, "", headers: headers)
        #expect(try await check("headers: { X-Tag: b }", response: response).failures.isEmpty)
        #expect(try await check("headers: { X-Tag: { contains: a } }", response: response).failures.isEmpty)
    }
}

@Suite struct BodyDurationCookieTests {
    @Test func bodyIsCheckedAsText() async throws {
        let response = textResponse(200, "all ok here")
        #expect(try await check("body: { contains: ok }", response: response).failures.isEmpty)
        #expect(try await check("body: all ok here", response: response).failures.isEmpty)
        let (failures, yaml) = try await check("body: { contains: error }", response: response)
        #expect(failures.map(\.message) == [#"body: expected to contain "error""#])
        starts(failures.first?.location, at: "contains:", in: yaml)
    }

    private func timed(_ milliseconds: Int) -> HTTPResponse {
        var response = textResponse(200, "")
        response.timings.total = milliseconds * 1000
        return response
    }

    @Test func durationWithUnits() async throws {
        #expect(try await check("duration: { lt: 500ms }", response: timed(120)).failures.isEmpty)
        #expect(try await check("duration: { lt: 2s }", response: timed(1999)).failures.isEmpty)
        #expect(try await check("duration: { lte: 1.5s, gte: 1ms }", response: timed(1500)).failures.isEmpty)
        let (failures, yaml) = try await check("duration: { lt: 500ms }", response: timed(600))
        #expect(failures.map(\.message) == ["duration (ms): expected < 500, got 600"])
        starts(failures.first?.location, at: "lt:", in: yaml)
    }

    @Test func durationBareNumbersAreSeconds() async throws {
        // Spec §6: a bare number of seconds.
        #expect(try await check("duration: { lt: 1 }", response: timed(600)).failures.isEmpty)
        #expect(try await check("duration: { lt: 1 }", response: timed(1200)).failures.map(\.message) == ["duration (ms): expected < 1000, got 1200"])
    }

    @Test func cookiesFromSetCookie() async throws {
        var headers = HTTPHeaders()
        headers.add(name: "Set-Cookie", value: "session=abc123; Path=/; HttpOnly")
        headers.add(name: "Set-Cookie", value: "theme=dark")
        let response = textResponse(200, "", headers: headers)
        #expect(try await check("cookies: { session: abc123 }", response: response).failures.isEmpty)
        #expect(try await check("cookies: { session: { exists: true }, theme: { eq: dark } }", response: response).failures.isEmpty)
        #expect(try await check("cookies: { other: { exists: false } }", response: response).failures.isEmpty)
        let (failures, yaml) = try await check("cookies: { other: { exists: true } }", response: response)
        #expect(failures.map(\.message) == ["cookie other: expected a value, found none"])
        starts(failures.first?.location, at: "exists:", in: yaml)
        let (wrong, _) = try await check("cookies: { session: xyz }", response: response)
        #expect(wrong.map(\.message) == [#"cookie session: expected "xyz", got "abc123""#])
    }

    @Test func cookiesSetOnARedirectHopCount() async throws {
        var response = textResponse(200, "")
        response.redirects = [HTTPRedirectHop(url: "http://h/login", status: 302, headers: ["Set-Cookie": "session=from-hop; Path=/"])]
        #expect(try await check("cookies: { session: from-hop }", response: response).failures.isEmpty)
    }

    @Test func aNonJSONBodyGivesOneClearFailure() async throws {
        let response = textResponse(200, "<html>oops</html>", headers: ["Content-Type": "text/html"])
        let (failures, yaml) = try await check("json:\n  $.id: 1\n  $.name: { exists: true }", response: response)
        #expect(failures.count == 1)
        let failure = try #require(failures.first)
        #expect(failure.message.hasPrefix("the response body is not JSON ("), "\(failure.message)")
        #expect(failure.message.hasSuffix("); json expectations cannot be checked"))
        #expect(failure.actual?.rendered == "<html>oops</html>")
        starts(failure.location, at: "$.id", in: yaml)
    }

    @Test func everyFailureOfAStepIsReported() async throws {
        let response = jsonResponse(201, #"{"id":1}"#, headers: ["X-Version": "2"])
        let (failures, _) = try await check("""
        status: 200
        headers: { X-Version: 3 }
        json: { $.id: 2, $.name: { exists: true } }
        body: { contains: nope }
        """, response: response)
        #expect(failures.map(\.subject) == ["status", "header X-Version", "json $.id", "json $.name", "body"])
    }

    @Test func jsonSchemaInlineChecksTheBody() async throws {
        let response = jsonResponse(200, #"{"id":1,"name":7}"#)
        let (passing, _) = try await check("schema: { type: object, required: [id] }", response: response)
        #expect(passing.isEmpty, "a body matching the schema passes: \(passing.map(\.message))")

        let (failures, _) = try await check("schema: { type: object, properties: { name: { type: string } }, required: [id, email] }", response: response)
        #expect(failures.map(\.message).sorted() == [
            "schema: '/name' does not match the schema: 7 is not of type 'string' (keyword 'type' at '/properties/name/type')",
            "schema: the value does not match the schema: required property 'email' is missing (keyword 'required' at '/required')",
        ])
        #expect(failures.allSatisfy { $0.location != nil }, "each violation points at the schema")
    }

    @Test func jsonSchemaPredicateChecksOneValue() async throws {
        let response = jsonResponse(200, #"{"items":[{"price":3},{"price":-1}]}"#)
        let (failures, _) = try await check("json: { $.items: { schema: { type: array, items: { properties: { price: { minimum: 0 } } } } } }", response: response)
        #expect(failures.map(\.message) == [
            "json $.items: '/1/price' does not match the schema: -1 is less than the minimum 0 (keyword 'minimum' at '/items/properties/price/minimum')",
        ])
    }
}

// MARK: - Operands

@Suite struct OperandTests {
    @Test func expectedValuesMayBeTemplates() async throws {
        let yaml = """
        vars: { want_id: 42, allowed: [41, 42], prefix: Ada, version: 2 }
        steps:
          - request: { url: http://h/x }
            expect:
              headers: { X-Version: "{{ version }}" }
              json:
                $.id: "{{ want_id }}"
                $.name: { starts_with: "{{ prefix }}" }
                $.count: { in: "{{ allowed }}", lt: "{{ want_id }}" }
        """
        let response = jsonResponse(200, #"{"id":42,"name":"Ada Lovelace","count":41}"#, headers: ["X-Version": "2"])
        let outcome = try await runStep(yaml, response: response)
        #expect(outcome.failures().map(\.message) == [])
    }

    @Test func anUnknownVariableInAnExpectationFailsWithItsPosition() async throws {
        let yaml = """
        steps:
          - request: { url: http://h/x }
            expect:
              json:
                $.id: "{{ want_idd }}"
        """
        let outcome = try await runStep(yaml, response: jsonResponse(200, #"{"id":42}"#))
        let failures = outcome.failures()
        #expect(failures.map(\.message) == ["json $.id: unknown variable 'want_idd'"])
        starts(failures.first?.location, at: "want_idd", in: yaml)
    }

    @Test(arguments: [
        ("body: { contains: 42 }", "the answer is 42"),
        ("body: { not_contains: 7 }", "the answer is 42"),
        ("json: { $.code: { contains: 404 } }", #"{"code":"E404"}"#),
        ("headers: { Content-Length: { starts_with: 4 } }", "{}"),
    ])
    func aNumberOperandIsMatchedAsTextAgainstAString(_ expect: String, body: String) async throws {
        // YAML reads `42` as a number; against text (a body, a header, a JSON string)
        // `contains: 42` means the text "42", as `starts_with: 4` already does. Today
        // `contains` reports "'contains' needs a string, …, but the value is a string".
        let yaml = "steps:\n  - request: { url: http://h/x }\n    expect:\n      \(expect)\n"
        let outcome = try await runStep(yaml, response: jsonResponse(200, body, headers: ["Content-Length": "42"]))
        #expect(outcome.failures().map(\.message) == [])
    }

    @Test(arguments: ["2024-13-01", "2024-02-30", "2024-01-02T25:00:00Z", "yesterday", "2024-01-02 03:04:05Z"])
    func isoDateRejectsInvalidDates(_ text: String) async throws {
        let failures = try await checkJSON("$.d: { iso_date: true }", body: #"{"d":"\#(text)"}"#)
        #expect(failures.map(\.message) == [#"json $.d: expected an ISO 8601 date, got "\#(text)""#])
    }

    @Test(arguments: ["2024-02-29", "2024-01-02T03:04:05Z", "2024-01-02T03:04:05.5-07:00"])
    func isoDateAcceptsValidDates(_ text: String) async throws {
        #expect(try await checkJSON("$.d: { iso_date: true }", body: #"{"d":"\#(text)"}"#).isEmpty)
    }

    @Test(arguments: ["123E4567-E89B-12D3-A456-426614174000", "00000000-0000-0000-0000-000000000000"])
    func uuidAcceptsAnyCase(_ text: String) async throws {
        #expect(try await checkJSON("$.u: { uuid: true }", body: #"{"u":"\#(text)"}"#).isEmpty)
    }

    @Test(arguments: ["123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400g", "{123e4567-e89b-12d3-a456-426614174000}"])
    func uuidRejectsOtherShapes(_ text: String) async throws {
        #expect(try await checkJSON("$.u: { uuid: true }", body: #"{"u":"\#(text)"}"#).count == 1)
    }
}
