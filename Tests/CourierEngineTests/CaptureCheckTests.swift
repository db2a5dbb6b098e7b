@testable import CourierEngine
import CourierHTTP
import CourierJSON
import CourierResults
import CourierWorkflow
import Foundation
import Testing

/// Issue 23, item 4: a capture's own `expect:`, `regex:` on one JSON value, and a step's
/// expectations that use the step's own captures.
@Suite struct CaptureCheckTests {
    private static let body = #"{"id":7,"total":2,"items":[{"id":1},{"id":2}],"message":"order #4711 placed","code":"EUR 12"}"#

    private static func response() -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "X-First-Item", value: "1")
        return HTTPResponse(status: 200, headers: headers, body: Array(body.utf8))
    }

    private func step(_ yaml: String) async throws -> StepResult {
        try #require(try await runStep(yaml, response: Self.response()).steps.first)
    }

    private static func workflow(capture: String, expect: String? = nil) -> String {
        var yaml = "steps:\n  - request: { url: http://h/x }\n    capture:\n      \(capture)\n"
        if let expect { yaml += "    expect:\n      \(expect)\n" }
        return yaml
    }

    // MARK: - expect: on a capture

    @Test(arguments: [
        "id: { json: $.id, expect: { gt: 0 } }",
        "id: { json: $.id, expect: 7 }",
        "id: { json: $.id, expect: { all: [{ type: integer }, { lt: 10 }] } }",
        "code: { regex: '^\"?(\\w+)', from: header X-First-Item, expect: \"1\" }",
        "items: { json: $.items, expect: { length: 2, each: { type: object } } }",
        "first: { json: \"$.items[0]\", expect: { id: 1 } }",
    ])
    func aCaptureThatMatchesItsExpectPasses(_ capture: String) async throws {
        let result = try await step(Self.workflow(capture: capture))
        #expect(result.outcome.failures.map(\.message) == [], "\(result.outcome)")
        #expect(result.captures.count == 1)
    }

    @Test func aFailingExpectFailsTheStepAtItsLine() async throws {
        let yaml = Self.workflow(capture: "id: { json: $.id, expect: { gt: 10 } }")
        let result = try await step(yaml)
        let failures = result.outcome.failures
        #expect(failures.map(\.message) == ["capture id: expected > 10, got 7"])
        #expect(failures.first?.subject == "capture id")
        starts(failures.first?.location, at: "gt: 10", in: yaml)
        // The variable is still recorded with what the response held.
        #expect(result.captures.map(\.value) == [7])
    }

    @Test func thePassedRecordShowsWhatTheExpectAsked() async throws {
        let result = try await step(Self.workflow(capture: "id: { json: $.id, expect: { gt: 0 } }"))
        let record = try #require(result.attempts.last?.expectations.first { $0.subject == "capture id" })
        #expect(record.outcome == .passed)
        #expect(record.expected?.json == ["gt": 0])
        #expect(record.actual?.json == 7)
    }

    @Test func aDefaultThatStandsInIsNotChecked() async throws {
        let result = try await step(Self.workflow(capture: "coupon: { json: $.coupon, default: null, expect: { matches: '^[A-Z]{8}$' } }"))
        #expect(result.outcome.failures.isEmpty, "\(result.outcome)")
        #expect(result.captures.map(\.value) == [.null])
    }

    @Test func anExpectMaySeeEarlierCapturesAndItsOwnValue() async throws {
        let result = try await step(Self.workflow(capture: """
            total: $.total
                  count: { json: "$.items[*]", expect: { length: "{{ total }}" } }
                  same: { json: $.total, expect: { eq: "{{ same }}" } }
            """))
        #expect(result.outcome.failures.map(\.message) == [], "\(result.outcome)")
    }

    @Test func aSecretCaptureFailingItsExpectShowsNoValueInItsRecord() async throws {
        let result = try await step(Self.workflow(capture: "pin: { json: $.id, secret: true, expect: { gt: 100 } }"))
        let failure = try #require(result.outcome.failures.first)
        #expect(failure.subject == "capture pin")
        // The message is masked by the run's policy, which knows the value; here it is registered.
        let run = try await runStep(Self.workflow(capture: "pin: { json: $.message, secret: true, expect: { gt: 100 } }"), response: Self.response())
        #expect(run.secrets.contains("order #4711 placed"))
    }

    // MARK: - regex: on one JSON value

    @Test(arguments: [
        ("order: { regex: { json: $.message, pattern: 'order #(\\d+)' } }", "4711"),
        ("cur: { regex: { json: $.code, pattern: '^([A-Z]{3}) ' } }", "EUR"),
        ("n: { regex: { json: $.total, pattern: '\\d' } }", "2"),
        ("h: { regex: { header: X-First-Item, pattern: '(\\d)' } }", "1"),
        ("b: { regex: { pattern: '\"id\":(\\d+)' } }", "7"),
    ] as [(String, JSONValue)])
    func aRegexReadsOneJSONValue(_ capture: String, expected: JSONValue) async throws {
        let result = try await step(Self.workflow(capture: capture))
        #expect(result.outcome.failures.map(\.message) == [], "\(result.outcome)")
        #expect(result.captures.first?.value == expected)
    }

    @Test(arguments: [
        ("order: { regex: { json: $.message, pattern: 'invoice #(\\d+)' } }",
         "capture 'order': $.message does not match /invoice #(\\d+)/; add 'default:' to make it optional"),
        ("order: { regex: { json: $.nope, pattern: '(\\d+)' } }",
         "capture 'order': $.nope matched nothing; add 'default:' to make it optional"),
    ])
    func aRegexOnAJSONValueThatFindsNothingSaysWhy(_ capture: String, message: String) async throws {
        let result = try await step(Self.workflow(capture: capture))
        #expect(result.outcome.failures.map(\.message) == [message])
    }

    @Test func aRegexOnAJSONValueOfATextBodySaysItIsNotJSON() async throws {
        let run = try await runStep(Self.workflow(capture: "o: { regex: { json: $.m, pattern: x } }"), response: textResponse(200, "<html/>"))
        let message = try #require(run.steps.first?.outcome.failures.first?.message)
        #expect(message.hasPrefix("capture 'o': the response body is not JSON"), "\(message)")
    }

    // MARK: - A step's expectations see its captures

    @Test func expectationsUseTheStepsOwnCaptures() async throws {
        let result = try await step(Self.workflow(
            capture: "items: { json: $.items }\n      first: { header: X-First-Item }",
            expect: "json:\n        $.total: \"{{ items | length }}\"\n        \"$.items[0].id\": { eq: \"{{ first | int }}\" }"))
        #expect(result.outcome.failures.map(\.message) == [], "\(result.outcome)")
        // The expectations' records come before the captures', as before.
        let subjects = result.attempts.last?.expectations.map(\.subject) ?? []
        #expect(subjects == ["status", "json $.total", "json $.items[0].id", "capture items", "capture first"])
    }

    @Test func anExpectationAgainstAnOwnCaptureCanFail() async throws {
        let result = try await step(Self.workflow(capture: "id: $.id", expect: "json:\n        $.total: \"{{ id }}\""))
        #expect(result.outcome.failures.map(\.message) == ["json $.total: expected 7, got 2"])
    }

    @Test func aCapturedNameHidesTheOldValueInTheSameStepsExpectations() async throws {
        let yaml = """
            vars: { id: 99 }
            steps:
              - request: { url: http://h/x }
                capture: { id: $.id }
                expect: { json: { $.id: "{{ id }}" } }
            """
        let run = try await runStep(yaml, response: Self.response())
        #expect(run.failures().map(\.message) == [])
    }

    @Test func abortIfSeesTheStepsCaptures() async throws {
        let yaml = """
            steps:
              - request: { url: http://h/x }
                capture: { total: $.total }
                expect: { status: 201 }
                retry: { attempts: 3, delay: 1s, jitter: false, on: [expect], abort_if: { json: { $.total: "{{ total }}" } } }
            """
        let run = try await runStep(yaml, response: Self.response())
        // abort_if matched at once: one attempt, not three.
        #expect(run.requests.count == 1)
    }

    // MARK: - request: the request the step sent

    @Test func checksAndCapturesReadTheRequestTheStepSent() async throws {
        let yaml = """
            vars: { request: "a variable" }
            steps:
              - request:
                  method: POST
                  url: "http://h/x?from={{ request }}"
                  headers: { X-Request-Id: rid-1 }
                  json: { id: 7, items: [1, 2] }
                capture:
                  sent_id: { json: $.id, expect: { eq: "{{ request.json.id }}" } }
                  method: { json: $.id, default: 0, expect: "{{ request.json.id }}" }
                expect:
                  json:
                    $.id: "{{ request.json.id }}"
                    $.total: "{{ request.json.items | length }}"
                  headers:
                    X-First-Item: "{{ request.json.items[0] }}"
            """
        let run = try await runStep(yaml, response: Self.response())
        #expect(run.failures().map(\.message) == [], "\(run.steps.first?.outcome as Any)")
        // Outside the checks, `request` is still the variable.
        #expect(run.requests.first?.url == "http://h/x?from=a variable")
    }

    @Test func theRequestsMethodURLHeadersAndBodyAreThere() async throws {
        let yaml = """
            steps:
              - request: { method: PUT, url: "http://h/x", headers: { X-Trace: t-9 }, body: plain text }
                expect:
                  json:
                    $.code: { eq: "{{ request.method }} {{ request.url }} {{ request.headers['X-TRACE'] }} {{ request.body }}" }
            """
        let run = try await runStep(yaml, response: Self.response())
        #expect(run.failures().map(\.message) == ["json $.code: expected \"PUT http://h/x t-9 plain text\", got \"EUR 12\""])
    }

    @Test func aMemberTheRequestLacksIsAStepErrorWithADidYouMean() async throws {
        let yaml = """
            steps:
              - request: { method: POST, url: "http://h/x", json: { a: 1 } }
                expect: { json: { $.id: "{{ request.jsn }}" } }
            """
        let run = try await runStep(yaml, response: Self.response())
        let messages = run.failures().map(\.message)
        #expect(messages == ["json $.id: 'request' has no member 'jsn'; did you mean 'json'?"], "\(run.steps.first?.outcome as Any)")
    }

    @Test func aLaterStepReadsTheRequestAnEarlierOneSentInTheSameShape() async throws {
        let yaml = """
            steps:
              - id: create
                request: { method: POST, url: "http://h/x", headers: { X-Trace: t-9 }, json: { id: 7 } }
              - request: { url: "http://h/y?id={{ steps.create.request.json.id }}&t={{ steps.create.request.headers['x-TRACE'] }}&m={{ steps.create.request.method }}" }
            """
        let run = try await runStep(yaml, response: Self.response())
        #expect(run.requests.last?.url == "http://h/y?id=7&t=t-9&m=POST")
    }
}
