@testable import CourierEngine
import CourierHTTP
import CourierJSON
import CourierWorkflow
import Foundation
import Testing

private let body = #"{"id":7,"token":"tok-1","items":[{"id":1},{"id":2}],"user":{"name":"Ada"},"nothing":null}"#

private func capturesResponse() -> HTTPResponse {
    var headers = HTTPHeaders()
    headers.add(name: "Content-Type", value: "application/json")
    headers.add(name: "Location", value: "/users/17")
    headers.add(name: "X-Request-Id", value: "id-4711")
    headers.add(name: "Set-Cookie", value: "session_id=s-99; Path=/; HttpOnly")
    var response = HTTPResponse(status: 201, headers: headers, body: Array(body.utf8))
    response.timings.total = 250_000
    return response
}

/// The YAML of a workflow whose one step captures `capture` (a line under `capture:`, line 4 from column 7).
private func captureWorkflow(_ capture: String) -> String {
    """
    steps:
      - request: { url: http://h/x }
        capture:
          \(capture)
    """
}

private func capture(_ line: String, response: HTTPResponse = capturesResponse()) async throws -> EngineRun {
    try await runStep(captureWorkflow(line), response: response)
}

private func captured(_ line: String, response: HTTPResponse = capturesResponse(),
                      sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws -> JSONValue? {
    let outcome = try await capture(line, response: response)
    let step = try #require(outcome.steps.first, sourceLocation: sourceLocation)
    #expect(step.outcome.failures.map(\.message) == [], sourceLocation: sourceLocation)
    return step.captures.first?.value
}

@Suite struct CaptureTests {
    @Test(arguments: [
        ("id: $.id", 7),
        ("id: { json: $.id }", 7),
        ("name: { json: $.user.name }", "Ada"),
        ("ids: $.items[*].id", [1, 2]),  // several nodes give a list
        ("first: $.items[0]", ["id": 1]),
        ("nothing: $.nothing", nil),  // a null node is a value, not "nothing matched"
        ("maybe: { json: $.missing, default: 5 }", 5),
        ("maybe: { json: $.missing, default: null }", nil),
        ("maybe: { json: $.missing, default: [a] }", ["a"]),
        ("present: { json: $.id, default: 5 }", 7),
        ("next: { header: Location }", "/users/17"),
        ("next: { header: location }", "/users/17"),
        ("session: { cookie: session_id }", "s-99"),
        (#"num: { regex: '"id":(\d+)' }"#, "7"),
        (#"whole: { regex: '\d+' }"#, "7"),
        (#"req: { regex: 'id-(\d+)', from: header X-Request-Id }"#, "4711"),
        (#"body: { regex: '"token":"([^"]+)"', from: body }"#, "tok-1"),
        ("code: { status: true }", 201),
        ("raw: { body: true }", .string(body)),
        ("took: { duration: true }", 250),
        ("token: { json: $.token, secret: true }", "tok-1"),
    ] as [(String, JSONValue)])
    func captures(_ line: String, expected: JSONValue) async throws {
        #expect(try await captured(line) == expected)
    }

    @Test func capturedNamesAndSecrecyAreRecorded() async throws {
        let outcome = try await capture("token: { json: $.token, secret: true }")
        let value = try #require(outcome.steps.first?.captures.first)
        #expect(value.name == "token")
        #expect(value.secret)
        // Before the capture: the response's Set-Cookie, which the jar sends back on its own.
        #expect(outcome.secrets == ["session_id=s-99", "s-99", "tok-1"])
    }

    @Test func aNullDefaultStillDefinesTheVariable() async throws {
        let outcome = try await run("""
        steps:
          - request: { url: http://h/x }
            capture: { maybe: { json: $.missing, default: null } }
          - request: { url: "http://h/y?m={{ maybe }}&d={{ maybe | default('fallback') }}" }
        """, transport: FakeTransport(always: capturesResponse()))
        #expect(outcome.requests.last?.url == "http://h/y?m=null&d=fallback")
    }

    @Test func aDefaultMayUseVariables() async throws {
        let outcome = try await run("""
        vars: { fallback: 3 }
        steps:
          - request: { url: http://h/x }
            capture: { maybe: { json: $.missing, default: "{{ fallback }}" } }
        """, transport: FakeTransport(always: capturesResponse()))
        #expect(outcome.steps.first?.captures.first?.value == 3)
    }

    @Test func laterCapturesOfAStepSeeEarlierOnes() async throws {
        let outcome = try await run("""
        steps:
          - request: { url: http://h/x }
            capture:
              id: $.id
              again: { json: $.missing, default: "id={{ id }}" }
        """, transport: FakeTransport(always: capturesResponse()))
        #expect(outcome.steps.first?.outcome.failures.map(\.message) == [])
        #expect(outcome.steps.first?.captures.map(\.value) == [7, "id=7"])
    }

    @Test(arguments: [
        ("token: $.missing", "capture 'token': $.missing matched nothing; add 'default:' to make it optional"),
        ("token: { json: \"$.items[5].id\" }", "capture 'token': $.items[5].id matched nothing; add 'default:' to make it optional"),
        ("next: { header: X-Nope }", "capture 'next': the response has no header 'X-Nope'; add 'default:' to make it optional"),
        ("sess: { cookie: nope }", "capture 'sess': the response sets no cookie 'nope'; add 'default:' to make it optional"),
        ("csrf: { regex: 'csrf=(\\w+)' }", "capture 'csrf': the body does not match /csrf=(\\w+)/; add 'default:' to make it optional"),
        ("rx: { regex: 'x(\\d)', from: header Location }", "capture 'rx': header 'Location' does not match /x(\\d)/; add 'default:' to make it optional"),
    ])
    func capturingNothingFailsTheStep(_ line: String, message: String) async throws {
        let outcome = try await capture(line)
        let failures = try #require(outcome.steps.first?.outcome.failures)
        #expect(failures.map(\.message) == [message])
        #expect(failures.first?.subject.hasPrefix("capture ") == true)
        starts(failures.first?.location, at: String(line.prefix { $0 != ":" }), in: captureWorkflow(line))
        #expect(outcome.steps.first?.captures.isEmpty == true)
    }

    @Test func aFailedCaptureSkipsTheNextStep() async throws {
        let outcome = try await run("""
        steps:
          - request: { url: http://h/x }
            capture: { token: $.missing }
          - request: { url: "http://h/y?t={{ token }}" }
        """, transport: FakeTransport(always: capturesResponse()))
        #expect(outcome.requests.count == 1)
        #expect(outcome.steps[1].outcome.skipReason?.description == "an earlier step failed")
    }

    @Test func aJSONCaptureFromANonJSONBodyFailsClearly() async throws {
        let outcome = try await capture("id: $.id", response: textResponse(200, "<html/>"))
        let message = try #require(outcome.steps.first?.outcome.failures.first?.message)
        #expect(message.hasPrefix("capture 'id': the response body is not JSON ("), "\(message)")
        #expect(message.hasSuffix("add 'default:' to make it optional"))
    }

    @Test func expectationsAndCaptureFailuresAreReportedTogether() async throws {
        let outcome = try await run("""
        steps:
          - request: { url: http://h/x }
            expect: { status: 200 }
            capture: { token: $.missing, id: $.id }
        """, transport: FakeTransport(always: capturesResponse()))
        let failures = try #require(outcome.steps.first?.outcome.failures)
        #expect(failures.map(\.subject) == ["status", "capture token"])
        #expect(outcome.steps.first?.captures.map(\.name) == ["id"])
    }
}
