@testable import CourierReports
import CourierJSON
import CourierResults
import CourierSecrets
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The JSON report goes through the masking policy like every output: a secret held raw
/// in a result (a reporter cannot know what was masked when it was recorded) never leaves
/// in the JSON it writes.
@Suite struct JSONReportCanaryTests {
    static let secret = "Cn4ry-s3cret-\u{00E9}\"q\\-Zx9"

    func result() -> RunResult {
        let attempt = Attempt(
            request: RequestRecord(method: "POST", url: "http://127.0.0.1/login?key=\(Self.secret)",
                                   headers: [HeaderField(name: "X-Api-Key", value: Self.secret)],
                                   body: BodyRecord(totalBytes: 40, text: #"{"password":"\#(Self.secret)"}"#)),
            redirects: [ExchangeRecord(url: "http://127.0.0.1/a", sent: SentRequestRecord(
                requestLine: "GET /a HTTP/1.1", headers: [HeaderField(name: "Cookie", value: "s=\(Self.secret)")]),
                status: 302, headers: [HeaderField(name: "Location", value: "/b?t=\(Self.secret)")])],
            response: ResponseRecord(url: "http://127.0.0.1/b", status: 200,
                                     headers: [HeaderField(name: "X-Echo", value: Self.secret)],
                                     body: BodyRecord(totalBytes: 60, text: "token=\(Self.secret); the rest")),
            expectations: [
                .passed(location: nil, subject: "json $.token", expected: .value(.string(Self.secret)), actual: .value(.string(Self.secret))),
                ExpectationResult(location: nil, subject: "header X-Echo", message: "header X-Echo: expected \"x\", got \"\(Self.secret)\"",
                                  expected: .value("x"), actual: .value(.object(JSONObject([("nested", .string(Self.secret))])))),
            ])
        let step = StepResult(name: "log in", phase: .steps, outcome: .passed, attempts: [attempt],
                              captures: [CapturedValue(name: "token", value: .string(Self.secret), secret: true)])
        return RunResult(workflows: [WorkflowResult(file: "w.yaml", name: "w", steps: [step])], durationMicroseconds: 1)
    }

    @Test("a secret in a body, a header, a hop, an expectation and a capture never appears in the written JSON")
    func canary() throws {
        let registry = SecretRegistry()
        registry.register(Self.secret, name: "token")
        let path = NSTemporaryDirectory() + "courier-result-\(UUID().uuidString).json"
        defer { unlink(path) }
        try ReportRequest(format: .json, path: path).write(result(), maskingWith: registry)
        let text = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        #expect(text.contains("***"))
        #expect(text.contains("\"log in\""), "the report was written")
        // Neither raw nor in JSON's escaped spelling, nor any 6-character piece of it.
        let escaped = String(decoding: try JSONEncoder().encode(Self.secret), as: UTF8.self).dropFirst().dropLast()
        #expect(!text.contains(Self.secret))
        #expect(!text.contains(String(escaped)))
        #expect(!text.contains("Cn4ry-s3"))
        #expect(!text.contains("-Zx9"))
    }

    @Test("the written JSON decodes back to a result (masked values in place of the secret)")
    func decodes() throws {
        let registry = SecretRegistry()
        registry.register(Self.secret, name: "token")
        let masked = try JSONReport.render(result(), policy: registry.policy)
        let decoded = try JSONReport.decode(masked).run
        #expect(decoded.workflows.first?.steps.first?.captures.first?.value == "***")
        #expect(decoded.workflows.first?.steps.first?.attempts.first?.response?.body.text == "token=***; the rest")
        // Unmasked, it is the same value, but for the secret capture, which the report never holds.
        #expect(try JSONReport.decode(JSONReport.render(result())).run == JSONReport.hidingSecretCaptures(result()))
    }
}
