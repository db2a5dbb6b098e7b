import CourierJSON
import Foundation
import Testing

/// `--json FILE`: every run's report matches `docs/report.schema.json` (checked with
/// Courier's own validator) and holds what the run knows, for passing, failing,
/// retried, skipped, errored, interrupted and invalid runs.
@Suite(.testServer)
struct JSONReportTests {
    @Test("one run with passing, redirected, retried, failing, skipped and errored steps: a valid report holding each")
    func everyOutcome() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        let key = UUID().uuidString
        try workspace.write("flows/mixed.yaml", """
            name: mixed
            description: every outcome
            tags: [report]
            secrets:
              token: "json-report-secret-0123456789"
            steps:
              - name: redirected with capture
                request:
                  url: "{{ base_url }}/redirect/2"
                  headers: { Authorization: "Bearer {{ token }}" }
                expect: { status: 200 }
                capture:
                  method: $.method
              - name: retried
                request: { url: "{{ base_url }}/flaky?key=\(key)&fail=1" }
                retry: { attempts: 3, delay: 10ms }
                expect: { status: 200 }
              - name: failing
                request: { method: POST, url: "{{ base_url }}/echo", json: { a: 1 } }
                expect: { status: 201, json: { $.json.a: 2 } }
              - name: never reached
                request: { url: "{{ base_url }}/echo" }
            """)
        try workspace.write("flows/refused.yaml", """
            name: refused
            steps:
              - name: nobody listens
                request: { url: "http://127.0.0.1:1/echo", timeout: 2s }
              - name: condition false
                if: "{{ false }}"
                request: { url: "{{ base_url }}/echo" }
            """)
        let result = try await Courier.run(files: ["flows"], workspace: workspace, server: server, extra: ["--json", "out/report.json"])
        #expect(result.status == 1, result.context)
        let report = try JSONReportFile.load(workspace.url.appendingPathComponent("out/report.json"))

        #expect(report.value["formatVersion"]?.int == 1)
        let summary = try #require(report.summary)
        #expect(summary["passed"] == .bool(false))
        #expect(summary["workflows"]?.int == 2)
        #expect(summary["failedWorkflows"]?.int == 2)
        #expect(summary["steps"]?.int == 6)
        #expect(summary["passedSteps"]?.int == 2)
        #expect(summary["failedSteps"]?.int == 1)
        #expect(summary["erroredSteps"]?.int == 1)
        #expect(summary["skippedSteps"]?.int == 2)
        #expect(summary["attempts"]?.int == 5, "1 + 2 (retried) + 1 + 1")
        #expect(report.workflows.map { $0["file"]?.stringValue } == ["flows/mixed.yaml", "flows/refused.yaml"])
        #expect(report.workflows.first?["description"]?.stringValue == "every outcome")
        #expect(report.workflows.first?["tags"] == .array([.string("report")]))

        // Redirect hops, timings, the response, captures, the request as sent (credential masked).
        let redirected = try #require(report.step("redirected with capture"))
        let attempt = try #require(redirected["attempts"]?[0])
        #expect(attempt["redirects"]?.arrayValue?.map { $0["status"]?.int } == [302, 302])
        #expect(attempt["response"]?["status"]?.int == 200)
        #expect(attempt["response"]?["url"]?.stringValue?.hasSuffix("/echo") == true)
        let timings = try #require(attempt["response"]?["timings"])
        #expect((timings["total"]?.int ?? 0) > 0)
        #expect((timings["firstByte"]?.int ?? 0) <= (timings["total"]?.int ?? 0))
        #expect(attempt["request"]?["headers"]?[0]?["value"]?.stringValue == "Bearer ***")
        #expect(redirected["captures"]?[0]?["name"]?.stringValue == "method")
        #expect(redirected["captures"]?[0]?["value"]?.stringValue == "GET")
        #expect(redirected["location"]?["line"]?.int == 7)
        #expect(!report.text.contains("json-report-secret-0123456789"), "the secret leaked into the JSON report")

        // Every attempt, with why the first was retried.
        let retried = try #require(report.step("retried"))
        #expect(retried["outcome"]?["kind"]?.stringValue == "passed")
        #expect(retried["attempts"]?.arrayValue?.map { $0["response"]?["status"]?.int } == [503, 200])
        #expect(retried["attempts"]?[0]?["retry"]?["reason"]?.stringValue == "503")
        #expect(retried["attempts"]?[1]?["retry"] == nil)

        // Expected, actual, outcome and source location of every expectation.
        let failing = try #require(report.step("failing"))
        #expect(failing["outcome"]?["kind"]?.stringValue == "failed")
        let failures = failing["outcome"]?["failures"]?.arrayValue ?? []
        #expect(failures.map { $0["subject"]?.stringValue } == ["status", "json $.json.a"])
        #expect(failures.first?["expected"]?["json"]?.int == 201)
        #expect(failures.first?["actual"]?["json"]?.int == 200)
        #expect(failures.first?["location"]?["line"]?.int == 20)
        #expect(failing["attempts"]?[0]?["request"]?["body"]?["text"]?.stringValue == #"{"a":1}"#)

        #expect(report.step("never reached")?["outcome"]?["reason"]?.stringValue == "an earlier step failed")
        #expect(report.step("condition false")?["outcome"]?["kind"]?.stringValue == "skipped")
        let refused = try #require(report.step("nobody listens"))
        #expect(refused["outcome"]?["kind"]?.stringValue == "errored")
        #expect(refused["outcome"]?["error"]?["type"]?.stringValue == "connection_refused")
        #expect(refused["attempts"]?[0]?["error"]?["kind"]?.stringValue == "connection_refused")
        #expect(refused["attempts"]?[0]?["response"] == nil)
    }

    @Test("a body over 64 KiB is cut and marked (omittedBytes, totalBytes), a binary one keeps its size only, a secret capture is ***")
    func bodiesAndSecretCaptures() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("big.yaml", """
            name: big
            steps:
              - name: large json
                request: { url: "{{ base_url }}/json?size=20000" }
                expect: { status: 200 }
                capture:
                  first: { json: "$.items[0].name", secret: true }
              - name: binary
                request: { url: "{{ base_url }}/bytes?n=3000" }
                expect: { status: 200 }
            """)
        let result = try await Courier.run(files: ["big.yaml"], workspace: workspace, server: server, extra: ["--json", "r.json"])
        #expect(result.status == 0, result.context)
        let report = try JSONReportFile.load(workspace.url.appendingPathComponent("r.json"))
        let large = try #require(report.step("large json")?["attempts"]?[0]?["response"]?["body"])
        let total = large["totalBytes"]?.int ?? 0
        let omitted = large["omittedBytes"]?.int ?? 0
        #expect(total > 64 * 1024, "the test needs a body over 64 KiB: \(total)")
        #expect(omitted > 0)
        #expect((large["text"]?.stringValue?.utf8.count ?? 0) <= 64 * 1024)
        // The captured secret ("item-1", also the start of "item-10"…) is masked in the body too.
        #expect(large["text"]?.stringValue?.contains("item-1") == false)
        let capture = try #require(report.step("large json")?["captures"]?[0])
        #expect(capture["secret"] == .bool(true))
        #expect(capture["value"]?.stringValue == "***", "a secret capture's value is masked: \(String(describing: capture["value"]))")
        let binary = try #require(report.step("binary")?["attempts"]?[0]?["response"]?["body"])
        #expect(binary["binary"] == .bool(true))
        #expect(binary["totalBytes"]?.int == 3000)
        #expect(binary["text"]?.stringValue == "")
    }

    @Test("secrets that look like the report's words ('2026', 'passed') and secret captures of numbers, lists and maps: a valid report, no secret in it")
    func secretsAgainstTheSchema() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("s.yaml", """
            name: secrets like words
            secrets: { year: "2026", word: "passed" }
            steps:
              - name: fetch
                request: { method: POST, url: "{{ base_url }}/echo?y={{ year }}", json: { pin: 987654, list: [123456, "abcdef"], map: { k: "vvvvvv" } } }
                capture:
                  pin: { json: $.json.pin, secret: true }
                  list: { json: $.json.list, secret: true }
                  map: { json: $.json.map, secret: true }
              - name: use
                request: { url: "{{ base_url }}/echo?pin={{ pin }}" }
                expect: { status: 200 }
            """)
        // No --json: the hook's report is the subject (validated against the schema by Courier.run).
        let result = try await Courier.run(files: ["s.yaml"], workspace: workspace, server: server)
        #expect(result.status == 0, result.context)
        let report = try #require(result.jsonReport, "the report did not pass the schema")
        for secret in ["987654", "123456", "abcdef", "vvvvvv"] {
            #expect(!report.text.contains(secret), "\(secret) is in the JSON report")
        }
        #expect(report.step("fetch")?["captures"]?.arrayValue?.map { $0["value"] } == [.string("***"), .string("***"), .string("***")])
        #expect(report.step("use")?["outcome"]?["kind"]?.stringValue == "passed")
        #expect(report.step("use")?["phase"]?.stringValue == "steps")
    }

    @Test("--json - writes the report alone on standard output, the console on standard error")
    func standardOutput() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("ok.yaml", """
            name: ok
            steps:
              - name: health
                request: { url: "{{ base_url }}/health" }
                expect: { status: 200 }
            """)
        let result = try await Courier.run(files: ["ok.yaml"], workspace: workspace, server: server, extra: ["--json", "-"])
        #expect(result.status == 0, result.context)
        let report = try JSONReportFile.parse(result.stdout)
        #expect(report.summary?["passed"] == .bool(true))
        #expect(report.summary?["passedSteps"]?.int == 1)
        #expect(result.stderr.contains("PASS"), result.context)
    }

    @Test("--json - with --junit - is a usage error; nothing is sent")
    func oneReportOnStandardOutput() async throws {
        let workspace = try Workspace()
        try workspace.write("ok.yaml", """
            name: ok
            steps:
              - request: { url: "http://127.0.0.1:1/echo" }
            """)
        let result = try await Courier.run(["run", "ok.yaml", "--json", "-", "--junit", "-"], in: workspace.url)
        #expect(result.status == 2, result.context)
        #expect(result.stderr.contains("only one report can go to standard output"), result.context)
        #expect(result.stdout.isEmpty, result.context)
    }

    @Test("an invalid workflow: exit 2, nothing sent, and a valid report with the file as an errored step")
    func invalidRun() async throws {
        let workspace = try Workspace()
        try workspace.write("bad.yaml", """
            name: bad
            steps:
              - request: { url: "http://127.0.0.1:1/echo" }
                expect: { stauts: 200 }
            """)
        let result = try await Courier.run(["run", "bad.yaml", "--json", "report.json"], in: workspace.url)
        #expect(result.status == 2, result.context)
        let report = try JSONReportFile.load(workspace.url.appendingPathComponent("report.json"))
        #expect(report.workflows.map { $0["file"]?.stringValue } == ["bad.yaml"])
        let step = try #require(report.steps.first)
        #expect(step["outcome"]?["error"]?["type"]?.stringValue == "invalid_workflow")
        #expect(step["outcome"]?["error"]?["location"]?["line"]?.int == 4)
        #expect(report.summary?["erroredSteps"]?.int == 1)
        #expect(report.summary?["attempts"]?.int == 0)
    }

    @Test("SIGINT during a slow step: exit 130 and a valid report saying interrupted by SIGINT")
    func interrupted() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("slow.yaml", InterruptTests.slowWorkflow)
        let result = try await Courier.run(["run", "slow.yaml", "--var", "base_url=\(server.baseURL)", "--json", "report.json"],
                                           in: workspace.url, interruptAfter: .milliseconds(1500))
        #expect(result.status == 130, result.context)
        let report = try JSONReportFile.load(workspace.url.appendingPathComponent("report.json"))
        #expect(report.summary?["interrupted"] == .bool(true))
        #expect(report.summary?["passed"] == .bool(false))
        #expect(report.value["run"]?["interruption"]?["signalName"]?.stringValue == "SIGINT")
        #expect(report.value["run"]?["interruption"]?["signal"]?.int == 2)
        #expect(report.step("never sent")?["outcome"]?["reason"]?.stringValue == "interrupted by SIGINT")
        #expect(report.step("clean up")?["outcome"]?["kind"]?.stringValue == "passed")
        #expect(report.step("clean up")?["phase"]?.stringValue == "teardown")
    }

    @Test("the repository's example workflows (Workflows/) against the demo API: a valid report of 27 passed steps")
    func exampleWorkflows() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-json-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let portFile = directory.appendingPathComponent("port")
        let python = Paths.systemPython.hasPrefix("/") ? Paths.systemPython : "python3"
        let demo = try LaunchedProcess.launch([python, Paths.packageRoot.appendingPathComponent("Demo/demo_api.py").path,
                                               "--port", "0", "--port-file", portFile.path],
                                              log: directory.appendingPathComponent("demo.log"))
        defer { demo.stop() }
        var port: Int?
        let deadline = ContinuousClock.now + .seconds(30)
        while port == nil, ContinuousClock.now < deadline, demo.isRunning {
            port = (try? String(contentsOf: portFile, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            if port == nil { try await Task.sleep(for: .milliseconds(10)) }
        }
        let demoPort = try #require(port, "Demo/demo_api.py did not write its port file")
        let report = directory.appendingPathComponent("report.json")
        let result = try await Courier.run(["run", Paths.packageRoot.appendingPathComponent("Workflows").path,
                                            "--var", "base_url=http://127.0.0.1:\(demoPort)", "--json", report.path, "-q"],
                                           in: directory)
        #expect(result.status == 0, result.context)
        let parsed = try JSONReportFile.load(report)
        #expect(parsed.summary?["passed"] == .bool(true))
        #expect(parsed.workflows.count == 3)
        #expect((parsed.summary?["passedSteps"]?.int ?? 0) >= 20)
    }

    @Test("the hook every Courier.run goes through validates a real run's report, and rejects a broken one and a missing one at the test's line")
    func hookRejectsBrokenReports() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("ok.yaml", """
            name: ok
            steps:
              - request: { url: "{{ base_url }}/health" }
            """)
        // No --json here: the hook adds one and validates what courier wrote.
        let real = try await Courier.run(files: ["ok.yaml"], workspace: workspace, server: server)
        #expect(real.status == 0, real.context)
        let report = try #require(real.jsonReport, "the hook did not validate the run's report")
        guard case .object(var root) = report.value, case .object(var summary)? = root["summary"] else {
            Issue.record("the report is not an object with a summary")
            return
        }
        summary["surprise"] = .bool(true)
        root["summary"] = .object(summary)
        let broken = JSONValue.object(root).serialized(pretty: true)

        // A stand-in for courier writes a given report where --json says, so the same hook
        // sees a report known to be valid, one known to be broken, one that is not JSON, and none.
        let fake = try workspace.write("fake-courier.sh", """
            #!/bin/sh
            while [ $# -gt 0 ]; do
              if [ "$1" = "--json" ]; then
                printf '%s\\n' "$2" >> written
                if [ -n "${FAKE_REPORT+set}" ]; then printf '%s' "$FAKE_REPORT" > "$2"; fi
                exit 0
              fi
              shift
            done
            exit 0
            """)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        func fakeRun(_ text: String?) async throws -> ProcessResult {
            try await Courier.run(["run", "ok.yaml"], in: workspace.url, environment: text.map { ["FAKE_REPORT": $0] } ?? [:],
                                  binary: fake.path)
        }

        // Each broken case must make the hook record its issue: `withKnownIssue` expects exactly
        // that issue (matched by its text and this file) and fails the test when none is recorded.
        // They show as the run's known issues because recording one is what is being tested.
        let valid = try await fakeRun(report.text)
        #expect(valid.jsonReport?.value == report.value, "the stand-in's copy of a valid report did not pass")
        try await withKnownIssue("an unknown key in the summary") {
            let result = try await fakeRun(broken)
            #expect(result.jsonReport == nil)
        } matching: { Self.fromThisFile($0, saying: "does not match docs/report.schema.json") && $0.comments.contains { $0.rawValue.contains("surprise") } }
        try await withKnownIssue("not JSON") {
            _ = try await fakeRun(#"{"formatVersion": 1,"#)
        } matching: { Self.fromThisFile($0, saying: "not JSON") }
        try await withKnownIssue("no report at all") {
            _ = try await fakeRun(nil)
        } matching: { Self.fromThisFile($0, saying: "wrote no JSON report") }
        // The hook keeps an invalid report for the reader of the issue; these were meant to be.
        for path in try workspace.read("written").split(separator: "\n") {
            try? FileManager.default.removeItem(atPath: String(path))
        }
    }

    /// An issue the hook recorded at a line of this file, saying `text`.
    static func fromThisFile(_ issue: Issue, saying text: String) -> Bool {
        issue.sourceLocation?.fileID.hasSuffix("JSONReportTests.swift") == true
            && issue.comments.contains { $0.rawValue.contains(text) }
    }

    @Test("the schema is strict: an unknown key or a missing required key in a real report is a violation")
    func schemaIsStrict() async throws {
        let server = try TestServer.shared()
        let workspace = try Workspace()
        try workspace.write("ok.yaml", """
            name: ok
            steps:
              - request: { url: "{{ base_url }}/health" }
            """)
        let result = try await Courier.run(files: ["ok.yaml"], workspace: workspace, server: server, extra: ["--json", "r.json"])
        #expect(result.status == 0, result.context)
        let report = try JSONReportFile.load(workspace.url.appendingPathComponent("r.json"))
        guard case .object(var root) = report.value, case .object(var summary)? = root["summary"] else {
            Issue.record("the report is not an object with a summary")
            return
        }
        summary["surprise"] = .bool(true)
        root["summary"] = .object(summary)
        #expect(!(try JSONReportFile.violations(of: .object(root))).isEmpty, "an unknown key passed the schema")
        root["summary"] = report.value["summary"]
        root["run"] = nil
        #expect(!(try JSONReportFile.violations(of: .object(root))).isEmpty, "a report without 'run' passed the schema")
    }
}
