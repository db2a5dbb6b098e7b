import CourierDiagnostics
import CourierJSON
import CourierReports
import CourierResults
import CourierSecrets
import Foundation
import Testing

/// `docs/report.schema.json` against results with every optional key set, so a key a
/// live run rarely writes (a part's content type, a hop's sent block, a hint) is in
/// the schema too, and the schema rejects what a report never holds.
@Suite struct JSONReportSchemaTests {
    static let schemaURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/report.schema.json")

    func schema() throws -> JSONSchema {
        try JSONSchema(try JSONValue.parse(try String(contentsOf: Self.schemaURL, encoding: .utf8)))
    }

    /// Every optional value of every result type set, every outcome present.
    func fullResult() -> RunResult {
        let range = SourceRange(start: SourceLocation(file: "w.yaml", line: 3, column: 5),
                                end: SourceLocation(file: "w.yaml", line: 3, column: 9))
        let sent = SentRequestRecord(requestLine: "GET /a HTTP/1.1", headers: [HeaderField(name: "Host", value: "h")])
        var timings = TimingsRecord()
        timings.total = 10
        let body = BodyRecord(kind: .multipart, totalBytes: 5, text: "x", omittedBytes: 4, binary: false, unknownCharset: "x-weird",
                              file: "in.bin", parts: [PartRecord(name: "f", value: "v", file: "p.bin", bytes: 3, filename: "p.bin",
                                                                 contentType: "text/plain")])
        let expectation = ExpectationResult(location: range, subject: "status", message: "status: expected 201, got 200",
                                            expected: .value(.number(JSONNumber(201)), after: "one of"), actual: .nothing)
        var attempt = Attempt(startedAt: Timestamp(microsecondsSince1970: 1), startMicroseconds: 2, durationMicroseconds: 3,
                              request: RequestRecord(method: "POST", url: "http://h/a", headers: [HeaderField(name: "A", value: "b")],
                                                     body: body, proxyConnects: [sent]),
                              redirects: [ExchangeRecord(url: "http://h/r", sent: sent, status: 302, headers: [])],
                              response: ResponseRecord(url: "http://h/a", sent: sent, status: 200, httpVersion: "2", headers: [],
                                                       body: body, timings: timings, reusedConnection: true),
                              error: TransportErrorRecord(kind: "timeout", curlCode: 28, message: "timed out", hint: "raise timeout"),
                              expectations: [expectation], retry: AttemptRetry(reason: "503", waitMicroseconds: 5, note: "Retry-After"))
        attempt.curl = "curl http://h/a"
        let steps = [
            StepResult(name: "a", phase: .setup, location: range, iteration: 1, outcome: .passed, attempts: [attempt],
                       captures: [CapturedValue(name: "c", value: .array([.null, .bool(true)]), secret: true)],
                       startedAt: Timestamp(microsecondsSince1970: 4), durationMicroseconds: 6),
            StepResult(name: "b", phase: .steps, outcome: .failed([expectation])),
            StepResult(name: "c", phase: .teardown, outcome: .errored(StepError(.template, message: "m", hint: "h",
                                                                                  location: range, details: "d"))),
            StepResult(name: "d", phase: .auth, outcome: .skipped(reason: SkipReason.conditionFalse)),
        ]
        let workflow = WorkflowResult(file: "w.yaml", name: "w", description: "d", tags: ["t"], steps: steps,
                                      startedAt: Timestamp(microsecondsSince1970: 7), durationMicroseconds: 8)
        return RunResult(workflows: [workflow], startedAt: Timestamp(microsecondsSince1970: 9), durationMicroseconds: 10,
                         interruption: Interruption(signal: 15, signalName: "SIGTERM"),
                         shard: RunShard(index: 2, total: 3), mergedShards: [RunShard(index: 1, total: 3)])
    }

    @Test("a report of results with every optional key set matches the schema, and decodes back equal")
    func everyKey() throws {
        let text = try JSONReport.render(fullResult())
        let violations = try schema().validate(try JSONValue.parse(text))
        #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
        #expect(try JSONReport.decode(text) == JSONReport.Document(fullResult()))
        #expect(try JSONReport.decode(text).formatVersion == JSONReport.formatVersion)
    }

    @Test("a secret that is also a key of the report ('secret', 'name') is masked in values, never in the report's keys")
    func secretsNamedLikeKeys() throws {
        let registry = SecretRegistry()
        registry.register("secret")
        registry.register("status")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("courier-json-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var run = fullResult()
        run.workflows[0].steps[0].captures = [CapturedValue(name: "token", value: .object(["secret": .string("a secret status")]), secret: false)]
        try ReportRequest(format: .json, path: path).write(run, maskingWith: registry)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let violations = try schema().validate(try JSONValue.parse(text))
        #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
        // Values and the workflow's own keys are masked; the report's keys are not.
        #expect(text.contains(#""secret" : false"#) || text.contains(#""secret": false"#), "\(text.prefix(2000))")
        #expect(!text.contains("a secret status"))
        #expect(text.contains(#""***": "a *** ***""#) || text.contains(#""***" : "a *** ***""#), "\(text)")
    }

    /// The report as ``ReportRequest`` writes it to a file, masked with `registry`.
    func written(_ run: RunResult, maskingWith registry: SecretRegistry) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("courier-json-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ReportRequest(format: .json, path: path).write(run, maskingWith: registry)
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test("a secret capture's value is *** as a whole, also a number, a list or a map (it was the number itself, or the shape with its numbers), and the schema says so")
    func secretCapturesWhole() throws {
        var run = fullResult()
        run.workflows[0].steps[0].captures = [
            CapturedValue(name: "pin", value: .number(JSONNumber(987654)), secret: true),
            CapturedValue(name: "list", value: .array([.number(JSONNumber(123456)), .string("abcdef")]), secret: true),
            CapturedValue(name: "map", value: .object(["k": .string("vvvvvv")]), secret: true),
            CapturedValue(name: "plain", value: .number(JSONNumber(42)), secret: false),
        ]
        let registry = SecretRegistry()
        registry.register("abcdef")
        registry.register("vvvvvv")
        let text = try written(run, maskingWith: registry)
        let value = try JSONValue.parse(text)
        let violations = try schema().validate(value)
        #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
        let captures = value["run"]?["workflows"]?[0]?["steps"]?[0]?["captures"]?.arrayValue ?? []
        #expect(captures.map { $0["value"] } == [.string("***"), .string("***"), .string("***"), .number(JSONNumber(42))])
        #expect(!text.contains("987654") && !text.contains("123456"), "\(text)")
        // The schema rejects a secret capture shown any other way.
        let shown = text.replacingOccurrences(of: #""***""#, with: "987654")
        #expect(!(try schema().validate(try JSONValue.parse(shown))).isEmpty, "a secret capture's number passed the schema")
    }

    @Test("a number holding a secret in a checked value or a captured map is masked (as text); the report's own numbers are not")
    func secretNumbersInValues() throws {
        var run = fullResult()
        run.workflows[0].steps[0].captures = [
            CapturedValue(name: "ids", value: .object(["pin": .number(JSONNumber(987654)), "n": .number(JSONNumber(12))]), secret: false),
        ]
        let expectation = ExpectationResult(location: nil, subject: "json $.pin", message: "m",
                                            expected: .value(.number(JSONNumber(987654))), actual: .value(.number(JSONNumber(1987654))))
        run.workflows[0].steps[1].outcome = .failed([expectation])
        let registry = SecretRegistry()
        registry.register("987654")
        let text = try written(run, maskingWith: registry)
        #expect(!text.contains("987654"), "\(text)")
        let value = try JSONValue.parse(text)
        let violations = try schema().validate(value)
        #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
        let steps = value["run"]?["workflows"]?[0]?["steps"]
        #expect(steps?[0]?["captures"]?[0]?["value"] == .object(["n": .number(JSONNumber(12)), "pin": .string("***")]))
        let failure = steps?[1]?["outcome"]?["failures"]?[0]
        #expect(failure?["expected"]?["json"] == .string("***"))
        #expect(failure?["actual"]?["json"] == .string("1***"))
        #expect(value["summary"]?["steps"] == .number(JSONNumber(4)))
    }

    @Test("secrets that are the report's own words or instants ('1970', 'passed', 'setup', 'bytes') leave its timestamps, phases and kinds as they are (they became ***, against the schema)")
    func secretsLikeTheReportsWords() throws {
        let registry = SecretRegistry()
        for secret in ["1970", "passed", "failed", "setup", "teardown", "bytes", "multipart", "skipped", "errored", "timeout"] {
            registry.register(secret)
        }
        var run = fullResult()
        run.workflows[0].steps[0].name = "setup passed"
        let text = try written(run, maskingWith: registry)
        let value = try JSONValue.parse(text)
        let violations = try schema().validate(value)
        #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
        let step = value["run"]?["workflows"]?[0]?["steps"]?[0]
        #expect(step?["startedAt"]?.stringValue?.hasPrefix("1970-01-01T") == true)
        #expect(step?["phase"] == .string("setup"))
        #expect(step?["outcome"]?["kind"] == .string("passed"))
        #expect(step?["attempts"]?[0]?["error"]?["kind"] == .string("timeout"))
        #expect(step?["attempts"]?[0]?["response"]?["body"]?["kind"] == .string("multipart"))
        // Elsewhere (a name, a message) the same words are masked.
        #expect(step?["name"] == .string("*** ***"))
    }

    @Test("an empty run (nothing selected, nothing known) matches the schema")
    func emptyRun() throws {
        let violations = try schema().validate(try JSONValue.parse(try JSONReport.render(RunResult(workflows: [], durationMicroseconds: 0))))
        #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
    }

    @Test("the summary counts each outcome, each for_each item and each attempt")
    func summary() {
        let summary = JSONReport.Summary(fullResult())
        #expect([summary.steps, summary.passedSteps, summary.failedSteps, summary.erroredSteps, summary.skippedSteps] as [Int] == [4, 1, 1, 1, 1])
        #expect(summary.attempts == 1)
        #expect(summary.failedWorkflows == 1)
        #expect(summary.interrupted && !summary.passed)
    }

    @Test("the schema is draft 2020-12 and says required and additionalProperties: false for every object")
    func strictEverywhere() throws {
        let value = try JSONValue.parse(try String(contentsOf: Self.schemaURL, encoding: .utf8))
        #expect(value["$schema"]?.stringValue == "https://json-schema.org/draft/2020-12/schema")
        var objects = 0
        func visit(_ node: JSONValue, _ path: String) {
            guard case .object(let object) = node else {
                if case .array(let items) = node { for (index, item) in items.enumerated() { visit(item, "\(path)/\(index)") } }
                return
            }
            if object["type"] == .string("object") {
                objects += 1
                #expect(object["additionalProperties"] == .bool(false), "\(path): no additionalProperties: false")
                #expect(object["required"] != nil, "\(path): no required")
            }
            for (key, child) in object { visit(child, "\(path)/\(key)") }
        }
        visit(value, "")
        #expect(objects >= 20)
    }
}
