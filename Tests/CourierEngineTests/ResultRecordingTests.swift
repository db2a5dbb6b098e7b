@testable import CourierEngine
import CourierHTTP
import CourierJSON
import CourierResults
import Foundation
import Testing

/// What a run records: plain values that encode and decode back equal, every
/// expectation with its values, each redirect hop with what was sent, bodies masked
/// and cut when recorded.
@Suite struct ResultRecordingTests {
    static let apiKey = "k3y-S3cret-0042-Qx"
    static let token = "tok-Zq8s3cret-Xw3-7"

    static let yaml = """
        name: rich
        secrets:
          api_key: "\(apiKey)"
        steps:
          - name: log in
            request:
              method: POST
              url: http://h/login
              headers: { X-Api-Key: "{{ api_key }}" }
              json: { user: ada, key: "{{ api_key }}" }
            expect:
              status: 200
              headers: { Content-Type: { contains: json } }
              json: { $.id: 5, $.tags: { length: { gte: 1 } } }
            capture:
              token: { json: $.token, secret: true }
              id: $.id
          - name: follow
            continue_on_failure: true
            request: { url: http://h/moved, headers: { Authorization: "Bearer {{ token }}" } }
            expect: { status: 201, json: { $.where: final } }
          - name: down
            continue_on_failure: true
            request: { url: http://h/down }
          - name: big
            request: { url: http://h/big }
        """

    static let bigSize = 5_000_000

    static func transport() -> FakeTransport {
        FakeTransport { request in
            switch request.url {
            case "http://h/login":
                return .success(jsonResponse(200, #"{"id": 5, "tags": ["a"], "token": "\#(token)"}"#,
                                             headers: ["X-Echo": apiKey]))
            case "http://h/moved":
                let sent = [
                    HTTPSentRequest(requestLine: "GET /moved HTTP/1.1",
                                    headers: ["Host": "h", "User-Agent": "courier/test", "Authorization": "Bearer \(token)"]),
                    HTTPSentRequest(requestLine: "GET /final HTTP/1.1",
                                    headers: ["Host": "h", "User-Agent": "courier/test", "Accept-Encoding": "gzip"]),
                ]
                var response = jsonResponse(200, #"{"where": "final", "echo": "\#(token)"}"#)
                response.effectiveURL = "http://h/final"
                response.redirects = [HTTPRedirectHop(url: "http://h/moved", status: 302, headers: ["Location": "/final"])]
                response.sentRequests = sent
                return .success(response)
            case "http://h/down":
                return .failure(HTTPError(kind: .connectionRefused, curlCode: 7, message: "connection refused by h"))
            default:
                var body = [UInt8](repeating: UInt8(ascii: "z"), count: bigSize)
                body.replaceSubrange(100..<(100 + token.utf8.count), with: Array(token.utf8))
                return .success(textResponse(200, "", headers: ["Content-Type": "text/plain"]).with(body: body))
            }
        }
    }

    static func run() async throws -> (RunResult, RunSettings) {
        let workflow = try decode(yaml)
        let settings = RunSettings()
        let result = await Engine(transport: transport(), settings: settings).run([workflow])
        return (result, settings)
    }

    @Test("a rich RunResult encodes to JSON and decodes back equal")
    func roundTrip() async throws {
        let (result, _) = try await Self.run()
        #expect(result.workflows.first?.steps.count == 4)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(result)
        let decoded = try JSONDecoder().decode(RunResult.self, from: data)
        #expect(decoded == result)
        // And the text is stable: encoding the decoded value gives the same bytes.
        #expect(try encoder.encode(decoded) == data)
    }

    @Test("passed expectations are recorded with their expected and actual values; failed ones too")
    func expectations() async throws {
        let (result, _) = try await Self.run()
        let steps = try #require(result.workflows.first?.steps)
        let login = try #require(steps[0].attempts.first?.expectations)
        #expect(login.allSatisfy { $0.outcome == .passed })
        #expect(login.map(\.subject) == ["status", "header Content-Type", "json $.id", "json $.tags", "capture token", "capture id"])
        #expect(login[0].expected == .value(200) && login[0].actual == .value(200))
        #expect(login[1].expected == .value(["contains": "json"]) && login[1].actual == .value("application/json"))
        #expect(login[2].expected == .value(5) && login[2].actual == .value(5))
        #expect(login[3].expected == .value(["length": ["gte": 1]]) && login[3].actual == .value(["a"]))
        #expect(login[4].actual == .words("***"), "a secret capture's value is not recorded in its expectation")
        #expect(login[5].actual == .value(5))
        #expect(login[2].location?.start.line == 14)

        let follow = try #require(steps[1].attempts.first?.expectations)
        #expect(follow.map(\.outcome) == [.failed, .passed])
        #expect(follow[0].expected == .value(201) && follow[0].actual == .value(200))
        guard case .failed(let failures) = steps[1].outcome else { Issue.record("follow should fail"); return }
        #expect(failures == [follow[0]])

        guard case .errored(let error) = steps[2].outcome else { Issue.record("down should error"); return }
        #expect(error.type == "connection_refused")
        #expect(steps[2].attempts.first?.error == TransportErrorRecord(kind: "connection_refused", curlCode: 7, message: "connection refused by h"))
        #expect(steps[2].attempts.first?.response == nil)
    }

    @Test("one record per redirect hop, each with its URL, status, headers and the request as sent")
    func hops() async throws {
        let (result, _) = try await Self.run()
        let attempt = try #require(result.workflows.first?.steps[1].attempts.first)
        #expect(attempt.redirects.count == 1)
        let hop = try #require(attempt.redirects.first)
        #expect(hop.url == "http://h/moved")
        #expect(hop.status == 302)
        #expect(hop.headers == [HeaderField(name: "Location", value: "/final")])
        #expect(hop.sent?.requestLine == "GET /moved HTTP/1.1")
        #expect(hop.sent?.headers.first(named: "authorization") == "Bearer ***", "what was sent is masked when recorded")
        #expect(attempt.response?.url == "http://h/final")
        #expect(attempt.response?.sent?.requestLine == "GET /final HTTP/1.1")
        #expect(attempt.response?.sent?.headers.first(named: "Accept-Encoding") == "gzip")
    }

    @Test("bodies and headers are masked when recorded; a 5 MB body is cut to the bound with its size kept")
    func bodies() async throws {
        let (result, settings) = try await Self.run()
        let steps = try #require(result.workflows.first?.steps)
        let login = try #require(steps[0].attempts.first)
        #expect(login.request.body?.text == #"{"user":"ada","key":"***"}"#)
        #expect(login.request.headers.first(named: "X-Api-Key") == "***")
        #expect(login.response?.headers.first(named: "X-Echo") == "***")
        #expect(login.response?.body.text.contains(Self.token) == false)
        #expect(login.response?.body.text.contains(#""token": "***""#) == true)

        let big = try #require(steps[3].attempts.first?.response?.body)
        #expect(big.totalBytes == Self.bigSize)
        #expect(big.truncated)
        #expect(big.text.utf8.count <= BodyRecord.limit)
        #expect(!big.text.contains(Self.token))
        #expect(big.text.hasPrefix(String(repeating: "z", count: 100) + "***"))

        // Results hold no list of secrets: the run's registry does.
        #expect(settings.secrets.values.contains(Self.token))
    }

    @Test("wall-clock start times: run, workflow, step and attempt, in order, encoded as ISO 8601")
    func startTimes() async throws {
        let before = Timestamp.now()
        let (result, _) = try await Self.run()
        let workflow = try #require(result.workflows.first)
        let attempt = try #require(workflow.steps[0].attempts.first)
        #expect(result.startedAt >= before)
        #expect(workflow.startedAt >= result.startedAt)
        #expect(workflow.steps[0].startedAt >= workflow.startedAt)
        #expect(attempt.startedAt >= workflow.steps[0].startedAt)
        #expect(Timestamp(microsecondsSince1970: 1_796_060_803_123_456).iso8601 == "2026-11-30T17:46:43.123456Z")
        #expect(Timestamp(iso8601: "2026-11-30T17:46:43.123456Z")?.microsecondsSince1970 == 1_796_060_803_123_456)
        #expect(Timestamp(iso8601: "2026-11-30T17:46:43Z") == nil)
    }
}

private extension HTTPResponse {
    func with(body: [UInt8]) -> HTTPResponse {
        var copy = self
        copy.body = body
        return copy
    }
}
