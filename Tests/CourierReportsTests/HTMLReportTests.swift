@testable import CourierReports
import CourierDiagnostics
import CourierJSON
import CourierResults
import CourierSecrets
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The HTML report (`--html`): self-contained, escaped, masked, and shaped so that
/// failures open with their diagnostics, retries are listed and each request has a timing bar.
@Suite struct HTMLReportTests {
    static let secret = "Cn4ry-s3cret-\u{00E9}\"q<\\-Zx9"
    static let hostile = "<script>alert('owned')</script><img src=x onerror=alert(1)>"

    static func timings(total: Int) -> TimingsRecord {
        var timings = TimingsRecord()
        timings.nameLookup = total / 10
        timings.connect = total / 5
        timings.tls = total * 3 / 10
        timings.preTransfer = total * 3 / 10
        timings.firstByte = total * 8 / 10
        timings.total = total
        return timings
    }

    /// A failed step retried once, a passed step, a skipped step, in one workflow.
    static func run(interrupted: Bool = false) -> RunResult {
        let failing = Attempt(
            durationMicroseconds: 12_000,
            request: RequestRecord(method: "POST", url: "https://api.example.test/login?key=\(secret)",
                                   headers: [HeaderField(name: "Authorization", value: "Bearer \(secret)"),
                                             HeaderField(name: "X-Api-Key", value: secret)],
                                   body: BodyRecord(totalBytes: 40, text: #"{"password":"\#(secret)"}"#)),
            redirects: [ExchangeRecord(url: "https://api.example.test/a", sent: SentRequestRecord(
                requestLine: "POST /a HTTP/1.1", headers: [HeaderField(name: "Cookie", value: "s=\(secret)")]),
                status: 302, headers: [HeaderField(name: "Location", value: "/b?t=\(secret)")])],
            response: ResponseRecord(url: "https://api.example.test/b", status: 500,
                                     headers: [HeaderField(name: "Content-Type", value: "text/html")],
                                     body: BodyRecord(totalBytes: 200, text: hostile + " token=\(secret)"),
                                     timings: timings(total: 10_000)),
            expectations: [ExpectationResult(location: nil, subject: "status", message: "status: expected 200, got 500",
                                             expected: .value(200), actual: .value(500))],
            retry: AttemptRetry(reason: "500", waitMicroseconds: 250_000))
        var second = failing
        second.retry = nil
        let location = SourceLocation(file: "flows/<login>.yaml", line: 7, column: 5)
        let failure = ExpectationResult(location: SourceRange(start: location, end: location), subject: "status",
                                        message: "status: expected 200, got 500", expected: .value(200), actual: .value(500))
        let ok = Attempt(durationMicroseconds: 3_000,
                         request: RequestRecord(method: "GET", url: "http://127.0.0.1:8080/health"),
                         response: ResponseRecord(url: "http://127.0.0.1:8080/health", status: 200,
                                                  body: BodyRecord(totalBytes: 2, text: "ok"), timings: timings(total: 2_000)),
                         expectations: [.passed(location: nil, subject: "status", expected: .value(200), actual: .value(200))])
        let steps = [
            StepResult(name: "health <check>", phase: .steps, outcome: .passed, attempts: [ok], durationMicroseconds: 3_000),
            StepResult(name: "log in", phase: .steps, outcome: .failed([failure]), attempts: [failing, second],
                       captures: [CapturedValue(name: "token", value: .string(secret), secret: true)], durationMicroseconds: 300_000),
            StepResult(name: "later", phase: .steps, outcome: .skipped(reason: SkipReason.earlierStepFailed)),
        ]
        return RunResult(workflows: [WorkflowResult(file: "flows/login.yaml", name: "log-in \(hostile)", steps: steps,
                                                    durationMicroseconds: 310_000)],
                         durationMicroseconds: 320_000,
                         interruption: interrupted ? Interruption(signal: 15, signalName: "SIGTERM") : nil)
    }

    static func render(_ run: RunResult = run()) -> String {
        let registry = SecretRegistry()
        registry.register(secret, name: "token")
        return registry.policy.mask(HTMLReport.render(run, policy: registry.policy))
    }

    @Test("a response body holding <script> is shown escaped; the only <script> is the page's own")
    func escaping() {
        let html = Self.render()
        #expect(html.contains("&lt;script&gt;alert(&#39;owned&#39;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"))
        #expect(html.components(separatedBy: "<script").count == 2, "exactly one <script> element")
        #expect(!html.contains("<img"))
        #expect(!html.contains("onerror=alert(1)>"))
        #expect(html.contains("health &lt;check&gt;"), "step names are escaped")
        #expect(html.contains("flows/&lt;login&gt;.yaml:7"), "locations are escaped")
    }

    @Test("self-contained: no src, href, url() or @import; nothing is loaded; a CSP with default-src 'none'")
    func selfContained() throws {
        let html = Self.render()
        for forbidden in ["url(", "@import", "<link", "<img", "<iframe", "<object", "<embed", "<base", "<form", "<meta http-equiv=\"refresh"] {
            #expect(!html.contains(forbidden), "the page holds '\(forbidden)'")
        }
        // Every real tag (text is escaped, so every '<' left starts one): no src, no href but to a step of the page, no event handler.
        let tags = html.matches(of: /<[A-Za-z][^>]*>/).map { String($0.output) }
        #expect(tags.count > 50)
        for tag in tags {
            #expect(tag.firstMatch(of: /\s(src|href(?!="#s[0-9]+-[0-9]+")|srcset|action|on[a-z]+)\s*=/) == nil, "tag loads or runs something: \(tag)")
        }
        // Request URLs appear as text only (escaped, inside elements), never in an attribute.
        for match in html.ranges(of: "http") {
            let before = html[..<match.lowerBound].suffix(2)
            #expect(!before.hasSuffix("=\"") && !before.hasSuffix("='"), "a URL in an attribute")
        }
        let csp = try #require(html.firstMatch(of: /http-equiv="Content-Security-Policy" content="([^"]*)"/)?.1)
        #expect(csp.hasPrefix("default-src 'none';"))
        #expect(!csp.contains("script-src 'unsafe-inline'"), "the script is allowed by its hash only")
    }

    @Test("the CSP's script hash is the SHA-256 of the inline script (else the browser blocks it)")
    func scriptHash() throws {
        let html = Self.render()
        let script = try #require(html.firstMatch(of: /<script>(.*)<\/script>/)?.1)
        let path = NSTemporaryDirectory() + "courier-html-script-\(UUID().uuidString).js"
        defer { unlink(path) }
        try Data(script.utf8).write(to: URL(fileURLWithPath: path))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "openssl dgst -sha256 -binary < \"$0\" | base64", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let hash = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!hash.isEmpty)
        #expect(html.contains("script-src 'sha256-\(hash)'"), "script hash \(hash) not in the CSP")
    }

    @Test("a secret in a URL, header, hop, body, expectation and capture never appears, raw or HTML-escaped")
    func canary() {
        let html = Self.render()
        #expect(html.contains("***"))
        #expect(html.contains("log in"), "the report was rendered")
        #expect(!html.contains(Self.secret))
        #expect(!html.contains(HTMLText.escape(Self.secret)))
        #expect(!html.contains("Cn4ry-s3"))
        #expect(!html.contains("-Zx9"))
    }

    @Test("structure: summary counts, failed step open with its diagnostic, passed closed, retries, hops, timing bars")
    func structure() throws {
        let html = Self.render()
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<span class=\"n-ok\">1 passed</span>"))
        #expect(html.contains("<span class=\"n-fail\">1 failed</span>"))
        #expect(html.contains("<span class=\"n-skip\">1 skipped</span>"))
        #expect(html.contains("<details class=\"wf failed\" open>"))
        #expect(html.contains("<details class=\"step failed\" id=\"s0-1\" open><summary><span class=\"b\">FAIL</span>log in"))
        // The recap at the top links each failed step.
        #expect(html.contains("<ol class=\"recap\"><li><a href=\"#s0-1\">log-in &lt;script&gt;"))
        #expect(html.contains("› log in</a> <span class=\"dim\">status: expected 200, got 500</span></li></ol>"))
        #expect(html.contains("<details class=\"step ok\"><summary><span class=\"b\">PASS</span>health &lt;check&gt;"))
        #expect(html.contains("<details class=\"step skipped\"><summary><span class=\"b\">SKIP</span>later"))
        #expect(html.contains("an earlier step failed"))
        #expect(html.contains("<div class=\"diag\"><pre>flows/&lt;login&gt;.yaml:7:5: status: expected 200, got 500"))
        #expect(html.contains("attempt 1 of 2"))
        #expect(html.contains("attempt 2 of 2"))
        #expect(html.contains("<div class=\"retry\">500, retrying in 250 ms</div>"))
        #expect(html.contains("redirect 302 from https://api.example.test/a"))
        #expect(html.contains("&gt; Authorization: Bearer ***"))
        #expect(html.contains("&lt; HTTP/1.1 500"))
        // One bar per response, with its five segments; the slowest request fills the scale.
        #expect(html.components(separatedBy: "<div class=\"tb\"").count == 4)
        #expect(html.contains("<div class=\"tb\" style=\"width:100.00%\""))
        #expect(html.contains("<div class=\"tb\" style=\"width:20.00%\""))
        for segment in ["dns", "con", "tls", "ttfb", "xfer"] {
            #expect(html.contains("<i class=\"\(segment)\" style=\"width:"), "no \(segment) segment")
        }
        #expect(html.contains("DNS 1 ms"))
        #expect(html.contains("first byte 5 ms"))
        #expect(!html.contains("interrupted"))
    }

    @Test("an interrupted run says so at the top")
    func interrupted() {
        let html = Self.render(Self.run(interrupted: true))
        #expect(html.contains("<h1>Courier report: interrupted</h1>"))
        #expect(html.contains("The run was interrupted by SIGTERM"))
    }

    @Test("1,000 steps: the page stays lean (passed steps closed, their bodies cut short)")
    func thousandSteps() {
        var run = Self.run()
        let passed = run.workflows[0].steps[0]
        var big = passed
        big.attempts[0].response?.body = BodyRecord(totalBytes: 64 * 1024, text: String(repeating: "x", count: 64 * 1024))
        run.workflows[0].steps = (0..<1000).map { $0 % 100 == 0 ? big : passed }
        let clock = ContinuousClock()
        var html = ""
        let elapsed = clock.measure { html = Self.render(run) }
        #expect(html.utf8.count < 3_000_000, "\(html.utf8.count) bytes for 1,000 steps")
        #expect(elapsed < .seconds(5), "rendering 1,000 steps took \(elapsed)")
        #expect(html.components(separatedBy: "<details class=\"step ok\">").count == 1001)
        #expect(!html.contains(String(repeating: "x", count: 2049)), "a passed step's body is cut to 2 KiB")
    }
}
