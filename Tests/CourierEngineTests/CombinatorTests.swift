@testable import CourierEngine
@testable import CourierHTTP
import CourierJSON
import CourierResults
import CourierWorkflow
import Testing

/// `all: [ … ]` and `any: [ … ]`: more than one check on one path, wherever a predicate map is.
@Suite struct CombinatorTests {
    private static let body = #"{"id":42,"name":"Ada Lovelace","tags":["a","b"],"obj":{"kind":"x","size":1}}"#

    private func check(_ expect: String, response: HTTPResponse = jsonResponse(200, body)) async throws
        -> (failures: [ExpectationResult], yaml: String) {
        let yaml = "steps:\n  - request: { url: http://h/x }\n    expect:\n      \(expect)\n"
        return (try await runStep(yaml, response: response).failures(), yaml)
    }

    @Test(arguments: [
        "json: { $.id: { all: [{ gt: 40 }, { lt: 50 }, { type: integer }] } }",
        "json: { $.name: { all: [{ starts_with: Ada }, { ends_with: lace }, { length: 12 }] } }",
        "json: { $.id: { any: [41, 42] } }",
        "json: { $.id: { any: [{ type: string }, { gt: 0 }] } }",
        // Under `json:` a mapping without predicate names is still an object to compare.
        "json: { $.obj: { all: [{ kind: x, size: 1 }, { length: 2 }] } }",
        "json: { $.tags: { all: [{ contains: a }, { contains: b }], length: 2 } }",
        // Nothing there: each nested matcher says what that means to it.
        "json: { $.missing: { any: [{ exists: false }, { gt: 0 }] } }",
        "json: { $.missing: { all: [{ exists: false }] } }",
        "json: { $.id: { not: { any: [1, 2] } } }",
        "json: { $.id: { any: [{ all: [{ gt: 0 }, { lt: 10 }] }, 42] } }",
        "json: { \"$.tags[*]\": { each: { any: [a, b] } } }",
    ])
    func jsonPasses(_ expect: String) async throws {
        #expect(try await check(expect).failures.map(\.message) == [])
    }

    @Test func allReportsEveryNestedFailureAtItsOwnPlace() async throws {
        let (failures, yaml) = try await check("json: { $.id: { all: [{ gt: 50 }, { lt: 100 }, { type: string }] } }")
        #expect(failures.map(\.message) == ["json $.id: expected > 50, got 42", "json $.id: expected a string, got a number"])
        starts(failures.first?.location, at: "gt:", in: yaml)
        starts(failures.last?.location, at: "type:", in: yaml)
    }

    @Test func anyReportsWhatEachNestedMatcherSaid() async throws {
        let (failures, yaml) = try await check("json: { $.id: { any: [41, { gt: 50 }, { type: string, lt: 0 }] } }")
        #expect(failures.map(\.message) == [
            "json $.id: expected at least one of the 'any' conditions to hold, but none did: [1] expected 41, got 42; "
                + "[2] expected > 50, got 42; [3] expected a string, got a number, expected < 0, got 42",
        ])
        starts(failures.first?.location, at: "any:", in: yaml)
        #expect(failures.first?.expected?.rendered == "any of (…)")
        #expect(failures.first?.actual?.rendered == "42")
    }

    @Test func missingValues() async throws {
        let (any, _) = try await check("json: { $.missing: { any: [{ exists: true }, 3] } }")
        #expect(any.map(\.message) == [
            "json $.missing: expected at least one of the 'any' conditions to hold, but none did: "
                + "[1] expected a value, found none; [2] expected 3, but there is no value",
        ])
        let (all, yaml) = try await check("json: { $.missing: { all: [{ gt: 0 }] } }")
        #expect(all.map(\.message) == ["json $.missing: there is no value to check"])
        starts(all.first?.location, at: "{ gt", in: yaml)
    }

    @Test func notOfAllHoldsWhenOneFails() async throws {
        #expect(try await check("json: { $.id: { not: { all: [{ gt: 0 }, { lt: 10 }] } } }").failures.isEmpty)
        let (failures, _) = try await check("json: { $.id: { not: { all: [{ gt: 0 }, { lt: 100 }] } } }")
        #expect(failures.map(\.message) == ["json $.id: expected the 'not' condition to fail, but it held"])
    }

    @Test func headersCompareNestedPlainValuesAsText() async throws {
        let response = textResponse(200, "ok", headers: ["Content-Length": "42", "Content-Type": "application/json; charset=utf-8"])
        #expect(try await check("headers: { Content-Length: { any: [41, 42] } }", response: response).failures.isEmpty)
        #expect(try await check("headers: { Content-Type: { all: [{ starts_with: application/ }, { contains: utf-8 }] } }",
                                response: response).failures.isEmpty)
        #expect(try await check("headers: { X-Missing: { any: [{ exists: false }, abc] } }", response: response).failures.isEmpty)
        let (failures, yaml) = try await check("headers: { Content-Length: { any: [41, { starts_with: \"5\" }] } }", response: response)
        #expect(failures.map(\.message) == [
            #"header Content-Length: expected at least one of the 'any' conditions to hold, but none did: [1] expected "41", got "42"; [2] expected to start with "5""#,
        ])
        starts(failures.first?.location, at: "any:", in: yaml)
        // `not: 42` compares as text too: the header is 42.
        let (not, _) = try await check("headers: { Content-Length: { not: 42 } }", response: response)
        #expect(not.map(\.message) == ["header Content-Length: expected the 'not' condition to fail, but it held"])
        let (all, _) = try await check("headers: { Content-Type: { all: [{ contains: json }, { ends_with: latin1 }] } }", response: response)
        #expect(all.map(\.message) == [#"header Content-Type: expected to end with "latin1""#])
    }

    @Test func aRepeatedHeaderMatchesANestedValueAsItsOwnPlainValueDoes() async throws {
        var headers = HTTPHeaders()
        headers.add(name: "X-Tag", value: "a")
        headers.add(name: "X-Tag", value: "b")
        let response = textResponse(200, "", headers: headers)
        #expect(try await check("headers: { X-Tag: { any: [c, b] } }", response: response).failures.isEmpty)
        #expect(try await check("headers: { X-Tag: { all: [a, { length: 2 }] } }", response: response).failures.isEmpty)
        let (failures, _) = try await check("headers: { X-Tag: { all: [c] } }", response: response)
        #expect(failures.map(\.message) == [#"header X-Tag: expected "c", got ["a","b"]"#])
    }

    @Test func status() async throws {
        #expect(try await check("status: { any: [200, { gte: 300, lt: 400 }] }", response: textResponse(302, "")).failures.isEmpty)
        #expect(try await check("status: { all: [{ gte: 200 }, { not: 204 }] }", response: textResponse(200, "")).failures.isEmpty)
        let (failures, yaml) = try await check("status: { all: [{ gte: 200 }, { not: 204 }] }", response: textResponse(204, ""))
        #expect(failures.map(\.message) == ["status: expected the 'not' condition to fail, but it held"])
        starts(failures.first?.location, at: "not:", in: yaml)
        let (any, _) = try await check("status: { any: [200, 201] }", response: textResponse(500, ""))
        #expect(any.map(\.message) == ["status: expected at least one of the 'any' conditions to hold, but none did: [1] expected 200, got 500; [2] expected 201, got 500"])
    }

    @Test func bodyAndCookies() async throws {
        var headers = HTTPHeaders()
        headers.add(name: "Set-Cookie", value: "session=abc123; Path=/")
        let response = textResponse(200, "all ok here", headers: headers)
        #expect(try await check("body: { all: [{ contains: ok }, { not: { contains: error } }] }", response: response).failures.isEmpty)
        #expect(try await check("body: { any: [nope, all ok here] }", response: response).failures.isEmpty)
        #expect(try await check("cookies: { session: { all: [{ starts_with: abc }, { length: 6 }] } }", response: response).failures.isEmpty)
        let (failures, _) = try await check("cookies: { session: { any: [xyz, { matches: \"^[0-9]+$\" }] } }", response: response)
        #expect(failures.map(\.message) == [
            #"cookie session: expected at least one of the 'any' conditions to hold, but none did: [1] expected "xyz", got "abc123"; [2] expected to match /^[0-9]+$/"#,
        ])
    }

    /// A passed check records its operands: the list, each matcher as itself.
    @Test func aPassedCombinatorRecordsItsList() async throws {
        let yaml = "steps:\n  - request: { url: http://h/x }\n    expect:\n      json: { $.id: { any: [41, { gt: 40 }] } }\n"
        let run = try await runStep(yaml, response: jsonResponse(200, Self.body))
        let passed = try #require(run.steps[0].attempts.first?.expectations.first { $0.subject == "json $.id" })
        #expect(passed.outcome == .passed)
        #expect(passed.expected == .value(["any": [41, ["gt": 40]]]))
    }

    /// The places this issue's later checks added: redirect hops and counts, cookie attributes,
    /// `http_version` and a capture's `expect:`, each held by the same combinators.
    @Test func theNewerPlacesHoldThemToo() async throws {
        var response = jsonResponse(200, Self.body)
        response.redirects = [HTTPRedirectHop(url: "http://h/start", status: 302, headers: ["Location": "/x?next=%2Fhome"])]
        response.headers.add(name: "Set-Cookie", value: "s=1; Path=/app; Max-Age=60")
        let passing = """
            redirects: [{ status: { any: [301, 302] }, location: { all: [{ starts_with: / }, { contains: next }] } }]
                  cookies: { s: { path: { any: [/, /app] }, max_age: { all: [{ gt: 0 }, { lt: 61 }] } } }
            """
        #expect(try await check(passing, response: response).failures.map(\.message) == [])
        let failing = try await check("redirects: { all: [{ gte: 1 }, { lt: 1 }] }\n      cookies: { s: { max_age: { any: [1, 2] } } }",
                                      response: response).failures.map(\.message)
        #expect(failing.count == 2, "\(failing)")
        #expect(failing.contains("redirects: expected < 1, got 1"), "\(failing)")
        let capture = "steps:\n  - request: { url: http://h/x }\n    capture:\n      id: { json: $.id, expect: { all: [{ gt: 40 }, { not: { any: [41, 42] } }] } }\n"
        let run = try await runStep(capture, response: jsonResponse(200, Self.body))
        #expect(run.failures().map(\.subject) == ["capture id"])
    }
}
