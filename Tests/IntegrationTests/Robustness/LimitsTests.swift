import Foundation
import Testing

/// Issue 8, "never crash, never hang": every input has a limit, reached with exit 2 and a
/// position, and legal input exactly at a limit works in every stage. Inputs are generated here.
@Suite(.testServer, .timeLimit(.minutes(2)))
struct LimitsTests {
    /// A workflow of one request whose `json:` body is `body`, sent to `/echo`.
    static func jsonBodyWorkflow(_ body: String, expect: String = "{ status: 200 }") -> String {
        """
        steps:
          - request:
              method: POST
              url: "{{ base_url }}/echo"
              json: \(body)
            expect: \(expect)
        """
    }

    static func validate(_ text: String, cpuSeconds: Int = 10) async throws -> (result: ProcessResult, seconds: Double) {
        let workspace = try Workspace()
        try workspace.write("w.yaml", text)
        let start = ContinuousClock.now
        // What these tests guard is work (seconds of CPU before the limits), so the bound is
        // on CPU time, which a loaded machine does not stretch; wall clock is a hang guard only.
        let result = try await Courier.run(["validate", "w.yaml"], in: workspace.url, timeout: .seconds(120), cpuSeconds: cpuSeconds)
        let elapsed = ContinuousClock.now - start
        return (result, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    static func run(_ text: String, extra: [String] = []) async throws -> ProcessResult {
        let workspace = try Workspace()
        try workspace.write("w.yaml", text)
        return try await Courier.run(files: ["w.yaml"], workspace: workspace, server: try TestServer.shared(), extra: extra)
    }

    // MARK: - Nesting

    @Test("a YAML flow collection 30,000 deep (was SIGSEGV): exit 2 at the 513th '['")
    func deepFlowCollection() async throws {
        let (result, seconds) = try await Self.validate(Self.jsonBodyWorkflow(String(repeating: "[", count: 30_000) + String(repeating: "]", count: 30_000)))
        #expect(result.status == 2, result.context)
        // Four levels (root, steps, step, request) come before the body, and `      json: ` is
        // 12 columns: the 509th '[' is level 513, at column 12 + 509.
        #expect(result.stderr.contains("w.yaml:5:521: error: nested too deeply, limit 512"), result.context)
        #expect(seconds < 120, "took \(seconds) s")
    }

    @Test("100 KB of unclosed '[' (libyaml is quadratic there): exit 2 within seconds")
    func unclosedBrackets() async throws {
        let (result, seconds) = try await Self.validate(Self.jsonBodyWorkflow(String(repeating: "[", count: 100_000)))
        #expect(result.status == 2, result.context)
        #expect(result.stderr.contains("nested too deeply, limit 512"), result.context)
        #expect(seconds < 120, "took \(seconds) s")
    }

    @Test("a json: body nested 15,500 deep (was SIGSEGV in run): exit 2 before anything is sent")
    func deepJSONBodyIsRejectedByRun() async throws {
        let result = try await Self.run(Self.jsonBodyWorkflow(String(repeating: "[", count: 15_500) + String(repeating: "]", count: 15_500)))
        #expect(result.status == 2, result.context)
        #expect(result.stderr.contains("nested too deeply, limit 512"), result.context)
    }

    @Test("a document exactly 512 deep (a 508-deep json: body) is loaded, validated, sent, echoed, compared and reported; 513 is an error")
    func jsonBodyAtTheLimit() async throws {
        // Root, steps, step and request are four levels: the body may nest 508 more.
        let deep = String(repeating: "[", count: 508) + String(repeating: "]", count: 508)
        let passing = try await Self.run(Self.jsonBodyWorkflow(deep, expect: "{ status: 200, json: { $.json: { type: array } } }"))
        #expect(passing.status == 0, passing.context)
        // A failing comparison renders the 508-deep actual value into the console and JUnit.
        let inner = String(repeating: "[", count: 506) + "1" + String(repeating: "]", count: 506)
        let failing = try await Self.run(Self.jsonBodyWorkflow(deep, expect: "{ json: { $.json: \(inner) } }"), extra: ["--junit", "j.xml"])
        #expect(failing.status == 1, failing.context)
        #expect(failing.stdout.contains("more lines") || failing.stdout.contains("more bytes"), failing.context)

        let (tooDeep, _) = try await Self.validate(Self.jsonBodyWorkflow("[" + deep + "]"))
        #expect(tooDeep.status == 2, tooDeep.context)
        #expect(tooDeep.stderr.contains("nested too deeply, limit 512"), tooDeep.context)
    }

    @Test("a template nested 2,100 parentheses deep (was SIGSEGV): exit 2 with the position of the first paren too many")
    func deepParentheses() async throws {
        let expression = String(repeating: "(", count: 2_100) + "x" + String(repeating: ")", count: 2_100)
        let (result, seconds) = try await Self.validate("vars: { x: a }\nsteps:\n  - request: { url: \"http://h/{{ \(expression) }}\" }\n")
        #expect(result.status == 2, result.context)
        // `  - request: { url: "http://h/{{ ` is 33 columns; the 129th '(' is one past the limit.
        #expect(result.stderr.contains("w.yaml:3:\(33 + 129): error: template expression nests parentheses"), result.context)
        #expect(result.stderr.contains("more than 128 deep"), result.context)
        #expect(seconds < 120, "took \(seconds) s")
    }

    @Test("templates exactly at the limits run: 128 parentheses, 511 chained filters (a tree 512 deep)")
    func templatesAtTheLimit() async throws {
        let parens = String(repeating: "(", count: 128) + "x" + String(repeating: ")", count: 128)
        let filters = "x" + String(repeating: " | upper", count: 511)
        let text = """
            vars: { x: a }
            steps:
              - request: { url: "{{ base_url }}/echo?p={{ \(parens) }}&f={{ \(filters) }}" }
                expect: { status: 200, json: { $.query.p: [a], $.query.f: [A] } }
            """
        let result = try await Self.run(text)
        #expect(result.status == 0, result.context)
        let (tooDeep, _) = try await Self.validate(text.replacingOccurrences(of: "| upper }}", with: "| upper | upper }}"))
        #expect(tooDeep.status == 2, tooDeep.context)
        #expect(tooDeep.stderr.contains("template expression nested too deeply, limit 512"), tooDeep.context)
    }

    @Test("50,000 chained filters, members, 'or's and 'not's (were SIGSEGV): exit 2", arguments: [
        String(repeating: " | upper", count: 50_000), String(repeating: ".a", count: 50_000),
        String(repeating: " or x", count: 50_000), "and " + String(repeating: "not ", count: 50_000) + "x",
    ])
    func longChains(tail: String) async throws {
        let (result, seconds) = try await Self.validate("vars: { x: a }\nsteps:\n  - request: { url: \"http://h/{{ x \(tail) }}\" }\n")
        #expect(result.status == 2, result.context)
        #expect(result.stderr.contains("template expression nest"), result.context)
        #expect(seconds < 120, "took \(seconds) s")
    }

    // MARK: - Amplification and many errors

    @Test("a templated string aliased 10,000 times (1.26 GB before): exit 2 at the alias past 10 MiB")
    func aliasAmplification() async throws {
        let anchored = String(repeating: "{{ x }}", count: 2_000)
        let aliases = Array(repeating: "*a", count: 10_000).joined(separator: ", ")
        let text = "vars: { x: a }\nsteps:\n  - request:\n      url: http://h/\n      json:\n        a: &a \"\(anchored)\"\n        b: [\(aliases)]\n"
        let (result, seconds) = try await Self.validate(text)
        #expect(result.status == 2, result.context)
        #expect(result.stderr.contains("w.yaml:7:"), result.context)
        #expect(result.stderr.contains("aliases expand to too much text (more than 10 MiB of scalars)"), result.context)
        #expect(seconds < 120, "took \(seconds) s")
    }

    @Test("a 1 MB string aliased 10,000 times (18 s of CPU before): exit 2 at the 11th alias, at once")
    func largeStringAliases() async throws {
        let aliases = Array(repeating: "*a", count: 10_000).joined(separator: ", ")
        let text = "steps:\n  - request:\n      url: http://h/\n      json:\n        a: &a \(String(repeating: "x", count: 1_000_000))\n        b: [\(aliases)]\n"
        let (result, seconds) = try await Self.validate(text)
        #expect(result.status == 2, result.context)
        // `        b: [` is 12 columns and each alias takes 4: the 11th starts at column 53.
        #expect(result.stderr.contains("w.yaml:6:53: error: aliases expand to too much text"), result.context)
        #expect(seconds < 120, "took \(seconds) s")
    }

    @Test("12,000 template errors in one scalar: the first 100 are shown, then 'and 11,900 more'")
    func manyErrors() async throws {
        let text = "vars: { x: a }\nsteps:\n  - request: { url: \"http://h/\(String(repeating: "{{ x | nope }}", count: 12_000))\" }\n"
        let (result, seconds) = try await Self.validate(text, cpuSeconds: 40)
        #expect(result.status == 2, result.context)
        #expect(result.stderr.components(separatedBy: "error: unknown filter 'nope'").count - 1 == 100)
        #expect(result.stderr.contains("note: and 11,900 more diagnostics in this file; only the first 100 are shown"))
        // Over 60 s before (quadratic); 2.3 s now in a debug build, 17 s under AddressSanitizer.
        #expect(seconds < 120, "took \(seconds) s")
    }

    // MARK: - Timeouts

    @Test("durations under 1 ms are rejected at load (libcurl reads 0 ms as no limit)", arguments: [
        "  timeout: 0", "  timeout: 0.5ms", "  connect_timeout: 0s", "retry: { attempts: 2, delay: 0 }", "retry: { attempts: 2, max_delay: 0.1ms }",
    ])
    func zeroDurations(option: String) async throws {
        let (result, _) = try await Self.validate("steps:\n  - request:\n      url: http://h/\n    \(option)\n")
        #expect(result.status == 2, result.context)
        #expect(result.stderr.contains("is shorter than 1ms"), result.context)
        #expect(result.stderr.contains("w.yaml:4:"), result.context)
    }

    @Test("step delay and duration predicates under 1 ms are rejected too")
    func zeroDelayAndPredicate() async throws {
        let (delay, _) = try await Self.validate("steps:\n  - delay: 0\n    request: { url: http://h/ }\n")
        #expect(delay.status == 2 && delay.stderr.contains("w.yaml:2:12: error: duration '0' for 'delay' is shorter than 1ms"), delay.context)
        let (predicate, _) = try await Self.validate("steps:\n  - request: { url: http://h/ }\n    expect: { duration: { lt: 0ms } }\n")
        #expect(predicate.status == 2 && predicate.stderr.contains("is shorter than 1ms"), predicate.context)
    }

    @Test("--timeout 0 is a usage error (exit 2), not a run without a limit", arguments: ["0", "0.5ms"])
    func zeroTimeoutFlag(value: String) async throws {
        let result = try await Self.run("steps:\n  - request: { url: \"{{ base_url }}/delay?ms=30000\" }\n", extra: ["--timeout", value])
        #expect(result.status == 2, result.context)
        #expect(result.stderr.contains("--timeout takes a duration of at least 1ms"), result.context)
    }

    @Test("a templated duration operand that renders under 1 ms fails the step")
    func templatedZeroDuration() async throws {
        let result = try await Self.run("""
            vars: { limit: 0ms }
            steps:
              - request: { url: "{{ base_url }}/echo" }
                expect: { duration: { lt: "{{ limit }}" } }
            """)
        #expect(result.status == 1, result.context)
        #expect(result.stdout.contains("duration '0ms' is shorter than 1ms"), result.context)
    }

    // MARK: - Output size

    @Test("a failing body expectation on a 20 MB body prints a bounded value to the console and to JUnit")
    func hugeFailingBody() async throws {
        let workspace = try Workspace()
        try workspace.write("w.yaml", """
            steps:
              - request: { url: "{{ base_url }}/bytes?n=20000000&content_type=text/plain" }
                expect: { body: "short" }
            """)
        let result = try await Courier.run(files: ["w.yaml"], workspace: workspace, server: try TestServer.shared(), extra: ["--junit", "j.xml"])
        #expect(result.status == 1, "exit \(result.status)")
        #expect(result.stdout.utf8.count < 16 * 1024, "console printed \(result.stdout.utf8.count) bytes")
        #expect(result.stdout.contains(" more bytes)"), "no cut marker")
        let junit = try workspace.read("j.xml")
        #expect(junit.utf8.count < 256 * 1024, "JUnit has \(junit.utf8.count) bytes")
        #expect(junit.contains(" more bytes)"), "no cut marker in JUnit")
    }

    // MARK: - YAML positions

    @Test("a control character on line 4 is reported at line 4, not 1:1")
    func readerErrorPosition() async throws {
        let (result, _) = try await Self.validate("steps:\n  - request:\n      url: http://h/\n      body: \"a\u{01}b\"\n")
        #expect(result.status == 2, result.context)
        #expect(result.stderr.contains("w.yaml:4:15: error: invalid YAML input: control characters are not allowed"), result.context)
    }

    @Test("invalid UTF-8 on line 4 is reported at line 4 (it was repaired silently and the file passed)")
    func invalidUTF8Position() async throws {
        let workspace = try Workspace()
        var bytes = Array("steps:\n  - request:\n      url: http://h/\n      body: \"a".utf8)
        bytes += [0xFF] + Array("b\"\n".utf8)
        try Data(bytes).write(to: workspace.url.appendingPathComponent("w.yaml"))
        let result = try await Courier.run(["validate", "w.yaml"], in: workspace.url)
        #expect(result.status == 2, result.context)
        #expect(result.stderr.contains("w.yaml:4:15: error: invalid YAML input: the file is not valid UTF-8 (byte 55)"), result.context)
    }
}
