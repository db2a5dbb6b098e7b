@testable import CourierReports
import CourierDiagnostics
import CourierResults
import CourierSecrets
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Secrets a reporter is handed raw (step names, bodies, diagnostics) leave
/// the console and the JUnit report masked: every byte goes through the door.
@Suite struct MaskedReportingTests {
    static let secret = "Zq8-s3cret-Xw3-canary"

    /// A console whose bytes land in a temporary file, to read back.
    final class CapturedConsole {
        let path = NSTemporaryDirectory() + "courier-console-\(UUID().uuidString).txt"
        let descriptor: Int32
        let output: MaskedOutput

        init(secrets: SecretRegistry) {
            descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            output = MaskedOutput(ConsoleWriter(fileDescriptor: descriptor, name: "test console"), secrets: secrets)
        }

        var text: String {
            String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        }

        deinit {
            close(descriptor)
            unlink(path)
        }
    }

    func registry() -> SecretRegistry {
        let registry = SecretRegistry()
        registry.register(Self.secret, name: "token")
        return registry
    }

    /// A failed step named after the secret whose response body holds the secret
    /// straddling `offset` (the console cuts at 2 KiB, the JUnit report at 16 KiB).
    func failedWorkflow(secretAt offset: Int) -> WorkflowResult {
        var body = [UInt8](repeating: UInt8(ascii: "x"), count: offset)
        body += Array(Self.secret.utf8)
        body += [UInt8](repeating: UInt8(ascii: "y"), count: 100)
        // Recorded unmasked, as a reporter handed a result from elsewhere would see it:
        // the reporters' own masking is what is tested here.
        let attempt = Attempt(request: RequestRecord(method: "GET", url: "http://127.0.0.1/a?k=\(Self.secret)",
                                                     headers: [HeaderField(name: "Authorization", value: "Bearer \(Self.secret)")]),
                              response: ResponseRecord(url: "http://127.0.0.1/a", status: 500,
                                                       body: BodyRecord(totalBytes: body.count, text: String(decoding: body, as: UTF8.self))))
        let failure = ExpectationResult(location: nil, subject: "status", message: "expected 200, got 500",
                                        expected: .value(200), actual: .value(500))
        let step = StepResult(name: "log in as \(Self.secret)", phase: .steps, outcome: .failed([failure]), attempts: [attempt])
        return WorkflowResult(file: "w.yaml", name: "w", steps: [step])
    }

    /// No prefix of the secret of 4 characters or more shows (a cut must not leave its beginning).
    func expectNoPart(in text: String, _ place: String) {
        for length in 4...Self.secret.count {
            let part = String(Self.secret.prefix(length))
            #expect(!text.contains(part), "\(place) shows '\(part)'")
        }
    }

    @Test("console: a secret in a step name and in a body straddling the 2 KiB cut is masked", arguments: [2040, 2044, 2047, 2048])
    func console(offset: Int) {
        let console = CapturedConsole(secrets: registry())
        let reporter = ConsoleReporter(options: ConsoleReporter.Options(), sources: SourceStore(), output: console.output)
        let workflow = failedWorkflow(secretAt: offset)
        reporter.handle(.workflowStarted(file: "w.yaml", name: "w"))
        reporter.handle(.stepFinished(file: "w.yaml", workflow.steps[0]))
        reporter.handle(.workflowFinished(workflow))
        reporter.writeSummary(RunResult(workflows: [workflow], durationMicroseconds: 1))
        let text = console.text
        #expect(text.contains("FAIL"))
        #expect(text.contains("log in as ***"))
        #expect(text.contains("Authorization: Bearer ***"))
        #expect(text.contains(" more bytes)"), "the body was not cut")
        expectNoPart(in: text, "console")
    }

    @Test("console -v: the transcript of every step is masked", arguments: [2046, 16_380])
    func verbose(offset: Int) {
        let console = CapturedConsole(secrets: registry())
        var options = ConsoleReporter.Options()
        options.verbose = true
        let reporter = ConsoleReporter(options: options, sources: SourceStore(), output: console.output)
        let workflow = failedWorkflow(secretAt: offset)
        // Live: each step's transcript comes with its line, as the engine reports it.
        for step in workflow.steps { reporter.handle(.stepFinished(file: workflow.file, step)) }
        reporter.handle(.workflowFinished(workflow))
        #expect(console.text.contains("attempt 1"))
        expectNoPart(in: console.text, "verbose console")
    }

    @Test("JUnit: a secret in a step name and in a body straddling the 16 KiB cut is masked", arguments: [16_370, 16_380, 16_383])
    func junit(offset: Int) throws {
        let registry = registry()
        let path = NSTemporaryDirectory() + "courier-junit-\(UUID().uuidString).xml"
        defer { unlink(path) }
        let run = RunResult(workflows: [failedWorkflow(secretAt: offset)], durationMicroseconds: 1)
        try ReportRequest(format: .junit, path: path).write(run, maskingWith: registry)
        let xml = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        #expect(xml.contains("name=\"log in as ***\""))
        #expect(xml.contains(" more bytes)"))
        expectNoPart(in: xml, "JUnit")
    }

    @Test("a diagnostic's source excerpt holding a secret is masked on stderr and in JUnit's validate case")
    func diagnosticExcerpt() throws {
        let registry = registry()
        let sources = SourceStore()
        _ = sources.register(path: "bad.yaml", text: "name: bad\nsecrets:\n  token: \"\(Self.secret)\" ]\n")
        let range = SourceRange(file: "bad.yaml", startLine: 3, startColumn: 33, endLine: 3, endColumn: 34)
        let diagnostic = Diagnostic.error("unexpected ']'", at: range)
        let rendered = DiagnosticRenderer(sources: sources, color: false).render(diagnostic)
        #expect(rendered.contains(Self.secret), "the excerpt should hold the line (the door is what masks it)")

        let console = CapturedConsole(secrets: registry)
        console.output.write(rendered)
        #expect(console.text.contains("token: \"***\" ]"))
        expectNoPart(in: console.text, "stderr")

        let error = StepError(.invalidWorkflow, message: "unexpected ']'", location: range, details: rendered)
        let run = RunResult(workflows: [WorkflowResult(file: "bad.yaml", name: "bad.yaml",
                                                       steps: [StepResult(name: "validate", phase: .setup, outcome: .errored(error))])],
                            durationMicroseconds: 0)
        let path = NSTemporaryDirectory() + "courier-junit-\(UUID().uuidString).xml"
        defer { unlink(path) }
        try JUnitReport.write(run, to: path, maskingWith: registry)
        let xml = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        #expect(xml.contains("token: &quot;***&quot; ]") || xml.contains("token: \"***\" ]"), "\(xml)")
        expectNoPart(in: xml, "JUnit")
    }

    @Test("a secret registered after a reporter was made is masked in its next write")
    func lateRegistration() {
        let registry = SecretRegistry()
        let console = CapturedConsole(secrets: registry)
        console.output.write("before: \(Self.secret)\n")
        registry.register(Self.secret)
        console.output.write("after: \(Self.secret)\n")
        #expect(console.text == "before: \(Self.secret)\nafter: ***\n")
    }

    @Test("values cut by the engine (ending in the marker) lose a secret begun at their end")
    func engineCutValue() {
        let policy = registry().policy
        let value = "abc " + String(Self.secret.prefix(10)) + ShownText.marker(omitted: 500)
        let lines = FailureText.comparison(expected: "x", actual: value, policy: policy)
        let text = lines.joined(separator: "\n")
        #expect(text.contains("abc "))
        #expect(text.contains("… (510 more bytes)"), "\(text)")
        expectNoPart(in: text, "failure text")
    }
}
