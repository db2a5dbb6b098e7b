import CourierJSON
import Foundation
import Testing

/// Issue 21, "a server can crash Courier": every number that comes from outside (a server's
/// header or body, a workflow, the command line, a report given to `merge-reports`) is swept
/// with `Int64.max`, `Int64.max / 10³`, `1e400` and `-1`, through the built `courier` against
/// the loopback test server. Each must end in a documented exit status (never 132 SIGILL, the
/// overflow trap, or 134 SIGABRT, a failed precondition), with a report that validates:
/// `courier run`'s JSON report against docs/report.schema.json (``JSONReportHook``), a JUnit
/// report against the Jenkins XSD.
@Suite(.testServer, .timeLimit(.minutes(3)))
struct OutsideNumbersTests {
    /// `Int64.max`, `Int64.max / 10³`, a number past any double, a negative one.
    static let values = ["9223372036854775807", "9223372036854775", "1e400", "-1"]

    /// The exit statuses a run may end with here: passed, failed, invalid. A trap is 132 or
    /// 133, an abort 134: none of them is allowed.
    static func expectNoTrap(_ result: ProcessResult, _ allowed: Set<Int32> = [0, 1, 2],
                             sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(allowed.contains(result.status), "exit \(result.status) is not one of \(allowed.sorted())\n\(result.context)",
                sourceLocation: sourceLocation)
    }

    static func run(_ workflow: String, extra: [String] = [], junit: Bool = true) async throws -> (ProcessResult, Workspace) {
        let workspace = try Workspace()
        try workspace.write("w.yaml", workflow)
        let result = try await Courier.run(files: ["w.yaml"], workspace: workspace, server: try TestServer.shared(),
                                           extra: extra + (junit ? ["--junit", "junit.xml"] : []))
        return (result, workspace)
    }

    /// The JUnit report of a run parses and validates against the XSD.
    static func expectValidJUnit(_ workspace: Workspace, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let report = try await JUnitReport.load(workspace.url.appendingPathComponent("junit.xml"), sourceLocation: sourceLocation)
        #expect(!report.cases.isEmpty, sourceLocation: sourceLocation)
    }

    // MARK: - Retry-After

    @Test("Retry-After on a 503 or 429 (was a trap at the first retry for 9223372036855 s and up): capped at max_delay",
          arguments: ["503", "429"], values + ["9223372036855", "99999999999999999999999"])
    func retryAfter(status: String, value: String) async throws {
        let (result, workspace) = try await Self.run("""
            steps:
              - name: limited
                request: { url: "{{ base_url }}/status/\(status)?retry_after=\(value)" }
                retry: { attempts: 2, delay: 1ms, max_delay: 20ms }
                expect: { status: 200 }
            """)
        Self.expectNoTrap(result, [1])
        #expect(result.jsonReport?.summary?["attempts"]?.int == 2, result.context)
        if value.allSatisfy(\.isNumber), value.count > 3 {
            #expect(result.stdout.contains("capped at max_delay"), result.context)
        }
        try await Self.expectValidJUnit(workspace)
    }

    @Test("Retry-After with --retry 2 on a plain GET (the default max_delay, 10 s, caps it)",
          arguments: ["9223372036854775807", "9223372036855", "1e400", "-1"])
    func retryAfterFromCommandLine(value: String) async throws {
        let (result, workspace) = try await Self.run("""
            steps:
              - name: limited
                request: { url: "{{ base_url }}/status/503?retry_after=\(value)" }
            """, extra: ["--retry", "2"])
        Self.expectNoTrap(result, [1])
        #expect(result.jsonReport?.summary?["attempts"]?.int == 2, result.context)
        try await Self.expectValidJUnit(workspace)
    }

    // MARK: - Durations a workflow or the command line writes

    /// Each place a workflow states a duration, with `V` where the value goes.
    static let durationPlaces = [
        "    retry: { attempts: 2, delay: V }",
        "    retry: { attempts: 2, max_delay: V }",
        "    retry: { attempts: 2, delay: V, max_delay: V }",
        "    delay: V",
        "    expect: { duration: { lt: V } }",
        "    request: { url: \"{{ base_url }}/health\", timeout: V }",
        "    request: { url: \"{{ base_url }}/health\", connect_timeout: V }",
    ]

    @Test("a workflow duration past 1,000,000 s, or not a duration, is a load error at its position (10000000000 s used to trap)",
          arguments: durationPlaces, values + ["10000000000", "1000001", "1000001s", "16667m", "278h"])
    func workflowDurations(place: String, value: String) async throws {
        let line = place.replacingOccurrences(of: "V", with: value)
        let workflow = "steps:\n  - name: s\n" + (line.contains("request:") ? line : line + "\n    request: { url: \"{{ base_url }}/health\" }")
        let workspace = try Workspace()
        try workspace.write("w.yaml", workflow + "\n")
        let validate = try await Courier.run(["validate", "w.yaml"], in: workspace.url)
        Self.expectNoTrap(validate, [2])
        #expect(validate.stderr.contains("w.yaml:3:"), validate.context)
        // `1e400` and `-1` are not written like a duration; the others are, and too long.
        let expected = value == "1e400" || value == "-1" ? "invalid duration" : "is longer than 1000000s (11.6 days)"
        #expect(validate.stderr.contains(expected), validate.context)
        // A run stops before sending, with the same diagnostic and a valid JSON report.
        let run = try await Courier.run(files: ["w.yaml"], workspace: workspace, server: try TestServer.shared())
        Self.expectNoTrap(run, [2])
        #expect(run.stderr.contains(expected), run.context)
    }

    @Test("1,000,000 s exactly is accepted everywhere a workflow states a duration", arguments: durationPlaces)
    func longestDurationIsAccepted(place: String) async throws {
        let line = place.replacingOccurrences(of: "V", with: "1000000s")
        let workflow = "steps:\n  - name: s\n" + (line.contains("request:") ? line : line + "\n    request: { url: \"{{ base_url }}/health\" }")
        let workspace = try Workspace()
        try workspace.write("w.yaml", workflow + "\n")
        let validate = try await Courier.run(["validate", "w.yaml"], in: workspace.url)
        #expect(validate.status == 0, validate.context)
    }

    @Test("--timeout past 1,000,000 s, or not a duration, is a usage error", arguments: values + ["1000001s"])
    func timeoutOption(value: String) async throws {
        let (result, _) = try await Self.run("steps:\n  - request: { url: \"{{ base_url }}/health\" }\n", extra: ["--timeout", value], junit: false)
        Self.expectNoTrap(result, [2])
        #expect(result.stderr.contains("--timeout takes a duration of at least 1ms and at most 1000000s (11.6 days)"), result.context)
    }

    @Test("--jobs and --retry of Int64.max: no slot array of that size, the run ends as usual",
          arguments: [["--jobs", "9223372036854775807"], ["--retry", "9223372036854775807", "--jobs", "2"]])
    func hugeCounts(options: [String]) async throws {
        let (result, workspace) = try await Self.run("steps:\n  - request: { url: \"{{ base_url }}/health\" }\n", extra: options)
        Self.expectNoTrap(result, [0])
        try await Self.expectValidJUnit(workspace)
    }

    @Test("a templated duration operand past 1,000,000 s fails the step, the run goes on", arguments: values)
    func templatedDuration(value: String) async throws {
        let (result, workspace) = try await Self.run("""
            steps:
              - name: timed
                request: { url: "{{ base_url }}/health" }
                expect: { duration: { lt: "{{ d }}" } }
            """, extra: ["--var", "d=\(value)"])
        Self.expectNoTrap(result, [1])
        if value.first != "-", !value.contains("e") {
            #expect(result.stdout.contains("is longer than 1000000s (11.6 days)"), result.context)
        }
        try await Self.expectValidJUnit(workspace)
    }

    // MARK: - Numbers in a response body

    /// `/status/200` answering `body` as JSON.
    static func jsonURL(_ body: String) -> String {
        "{{ base_url }}/status/200?content_type=application/json&body="
            + body.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    @Test("a server's number through | float and | int, captured and failing a check: no trap, the exact text in the report",
          arguments: values)
    func bodyNumbers(value: String) async throws {
        let (result, workspace) = try await Self.run("""
            continue_on_failure: true
            steps:
              - name: numbers
                request: { url: "\(Self.jsonURL("{\"n\": \(value), \"s\": \"\(value)\"}"))" }
                capture: { n: $.n, s: $.s }
              - name: float of a number
                request: { url: "{{ base_url }}/echo?v={{ n | float }}" }
              - name: int of a number
                request: { url: "{{ base_url }}/echo?v={{ n | int }}" }
              - name: float of a string
                request: { url: "{{ base_url }}/echo?v={{ s | float }}" }
              - name: int of a string
                request: { url: "{{ base_url }}/echo?v={{ s | int }}" }
              - name: checked
                request: { url: "\(Self.jsonURL("{\"n\": \(value)}"))" }
                expect: { json: { $.n: 1 } }
            """, extra: ["--html", "report.html"])
        // The check fails for every value: a report that passes, or none, would be a lie.
        Self.expectNoTrap(result, [1])
        let report = try #require(result.jsonReport, result.context)
        #expect(!report.text.contains("encodingError"), "\(report.text)")
        let captured = report.step("numbers")?["captures"]?.arrayValue?.first { $0["name"]?.stringValue == "n" }
        #expect(captured?["value"]?.numberValue?.text == value, "\(String(describing: captured))")
        // 1e400 has no float; every value here fits an int but 1e400.
        let floatFails = value == "1e400"
        for name in ["float of a number", "float of a string", "int of a number", "int of a string"] {
            let kind = report.step(name)?["outcome"]?["kind"]?.stringValue
            #expect(kind == (floatFails ? "errored" : "passed"), "\(name): \(String(describing: report.step(name)))")
        }
        if floatFails {
            #expect(result.stdout.contains("filter 'float': 1e400 does not fit a float"), result.context)
            #expect(result.stdout.contains("filter 'int': 1e400 does not fit an integer"), result.context)
        }
        try await Self.expectValidJUnit(workspace)
        #expect(try workspace.read("report.html").contains(value), "the HTML report does not show \(value)")
    }

    // MARK: - merge-reports

    /// A JUnit report of `suites` suites (named from `prefix`) of one passing case each,
    /// every suite with `attributes`, under a `<testsuites>` with `rootAttributes`.
    static func junit(prefix: String, suites: Int, attributes: String, rootAttributes: String = "") -> String {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"courier\"\(rootAttributes)>\n"
        for index in 0..<suites {
            text += "  <testsuite name=\"\(prefix)\(index)\" \(attributes)>\n"
                + "    <testcase name=\"case\" classname=\"\(prefix)\(index)\" time=\"0.001\"/>\n  </testsuite>\n"
        }
        return text + "</testsuites>\n"
    }

    /// merge-reports of `inputs` (name, text) into `out.xml`/`out.json`: exit 0 with a valid
    /// merged report, or exit 2 naming one of the inputs (and `out` not written).
    static func merge(_ inputs: [(String, String)], json: Bool) async throws -> ProcessResult {
        let workspace = try Workspace()
        for (name, text) in inputs { try workspace.write(name, text) }
        let out = json ? "out.json" : "out.xml"
        let result = try await Courier.run(["merge-reports", out] + inputs.map(\.0), in: workspace.url)
        expectNoTrap(result, [0, 2])
        if result.status == 0 {
            if json {
                _ = try JSONReportFile.load(workspace.url.appendingPathComponent(out))
            } else {
                _ = try await JUnitReport.load(workspace.url.appendingPathComponent(out))
            }
        } else {
            #expect(inputs.contains { result.stderr.contains($0.0) }, result.context)
            #expect(!workspace.exists(out), result.context)
        }
        return result
    }

    @Test("JUnit time and counts in merge-reports: sums that overflow are an error naming the file (999999999999 × 10 trapped)",
          arguments: values + ["999999999999"])
    func junitTimes(value: String) async throws {
        // Ten suites in one input, then ten inputs of one suite each, then the root's own time.
        let inOne = try await Self.merge([("ten.xml", Self.junit(prefix: "s", suites: 10, attributes: "tests=\"1\" time=\"\(value)\""))], json: false)
        let inputs = (0..<10).map { ("in\($0).xml", Self.junit(prefix: "i\($0)-", suites: 1, attributes: "tests=\"1\"", rootAttributes: " time=\"\(value)\"")) }
        let inTen = try await Self.merge(inputs, json: false)
        if value == "999999999999" {
            #expect(inOne.status == 2 && inOne.stderr.contains("the times add up to more than 9223372036854 seconds"), inOne.context)
            #expect(inTen.status == 2 && inTen.stderr.contains("the times add up to more than 9223372036854 seconds"), inTen.context)
        } else {
            // Past 10¹² s, negative or not decimal: not a number of seconds.
            #expect(inOne.status == 2 && inOne.stderr.contains("is not a number of seconds"), inOne.context)
            #expect(inTen.status == 2 && inTen.stderr.contains("is not a number of seconds"), inTen.context)
        }
        let counts = try await Self.merge([("counts.xml", Self.junit(prefix: "c", suites: 2, attributes: "tests=\"\(value)\" failures=\"\(value)\""))], json: false)
        #expect(counts.status == 2, counts.context)
    }

    @Test("JSON durationMicroseconds in merge-reports: sums that overflow are an error naming the file (9e18 × 2 trapped)",
          arguments: values + ["9000000000000000000"])
    func jsonDurations(value: String) async throws {
        var inputs: [(String, String)] = []
        for name in ["a", "b"] {
            let (result, _) = try await Self.run("name: \(name)\nsteps:\n  - request: { url: \"{{ base_url }}/health\" }\n", junit: false)
            guard case .object(var report)? = result.jsonReport?.value, case .object(var run)? = report["run"],
                  case .object(var summary)? = report["summary"] else {
                Issue.record("no JSON report: \(result.context)")
                return
            }
            let number = JSONValue.number(try #require(JSONNumber(text: value)))
            run["durationMicroseconds"] = number
            summary["durationMicroseconds"] = number
            // A workflow's file is its identity in a merge: make the two differ as two shards' would.
            report["run"] = .object(run)
            report["summary"] = .object(summary)
            inputs.append(("\(name).json", JSONValue.object(report).serialized(pretty: true).replacingOccurrences(of: "w.yaml", with: "\(name).yaml")))
        }
        let merged = try await Self.merge(inputs, json: true)
        switch value {
        case "9223372036854775807", "9000000000000000000":
            #expect(merged.status == 2 && merged.stderr.contains("the durations add up to more than"), merged.context)
        case "9223372036854775":
            #expect(merged.status == 0, merged.context)
        default:
            #expect(merged.status == 2, merged.context)
        }
    }
}
