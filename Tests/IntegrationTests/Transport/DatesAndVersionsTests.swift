import CourierJSON
import Foundation
import Testing

/// Dates in real responses (headers in every HTTP date form, a `Set-Cookie` `Expires`) and
/// HTTP versions against real servers: testserver.py, nginx (HTTP/2 over TLS) and an
/// HTTP/1.0 answer from misbehaving.py. Every run is under `TZ=Asia/Kolkata`: dates must not
/// move with the machine's zone.
@Suite struct DatesAndVersionsTests {
    private static let zone = ["TZ": "Asia/Kolkata"]

    @Test("dates in headers (IMF-fixdate, RFC 850, asctime, ISO 8601) and a Set-Cookie Expires parse; before/after and the date filters hold in every report")
    func datesInResponses() async throws {
        let http = try await TransportFixtures.shared.server(.http)
        let run = try await TransportRun.run("""
            name: dates
            steps:
              - name: header dates
                request:
                  url: \(http.baseURL)/headers
                  query:
                    Last-Modified: "Sun, 06 Nov 1994 08:49:37 GMT"
                    X-RFC850: "Sunday, 06-Nov-94 08:49:37 GMT"
                    X-Asctime: "Sun Nov  6 08:49:37 1994"
                    X-ISO: "1994-11-06T14:19:37+05:30"
                    Set-Cookie: "session=abc; Expires=Thu, 01-Jan-2037 00:00:00 GMT; Path=/"
                expect:
                  headers:
                    Date: { after: '2020-01-01T00:00:00Z', before: '2100-01-01' }
                    Last-Modified: { after: '1994-11-06T08:49:36Z', before: 'Sun, 06 Nov 1994 08:49:38 GMT' }
                    X-RFC850: { after: 'Sun Nov  6 08:49:36 1994', before: '1994-11-06T14:19:38+05:30' }
                    X-Asctime: { after: 784111776, before: 784111778 }
                    X-ISO: { after: "{{ 'Sunday, 06-Nov-94 08:49:36 GMT' | to_date }}", before: "{{ now() }}" }
                capture:
                  date: { header: Date }
                  expires: { regex: "Expires=([^;]+)", from: header Set-Cookie }
                  asctime: { header: X-Asctime }
              - name: filters
                request:
                  url: \(http.baseURL)/echo
                  query:
                    expires: "{{ expires | to_date }}"
                    unix: "{{ expires | unix }}"
                    weekday: "{{ expires | format_date('%A %d %B %Y') }}"
                    age: "{{ date | days_before_now }}"
                    left: "{{ expires | days_after_now }}"
                    same: "{{ asctime | to_date == 'Sun, 06 Nov 1994 08:49:37 GMT' | to_date }}"
                    parsed: "{{ '06/11/1994 14:19 +0530' | to_date('%d/%m/%Y %H:%M %z') }}"
                expect:
                  json:
                    $.query.expires: ["2037-01-01T00:00:00.000000Z"]
                    $.query.unix: ["2114380800"]
                    $.query.weekday: ["Thursday 01 January 2037"]
                    $.query.age: ["0"]
                    $.query.left[0]: { matches: "^[1-9][0-9]*$" }
                    $.query.same: ["true"]
                    $.query.parsed: ["1994-11-06T08:49:00.000000Z"]
                    $.query.expires[0]: { after: "{{ now() }}" }
              - name: too old
                request:
                  url: \(http.baseURL)/headers
                  query: { Last-Modified: "Sun, 06 Nov 1994 08:49:37 GMT" }
                expect:
                  headers:
                    Last-Modified: { after: '2000-01-01' }
            """, arguments: ["--json", "report.json"], environment: Self.zone)
        #expect(run.result.status == 1, run.result.context)
        let out = run.result.stdout
        #expect(out.line(containing: "PASS", "header dates") != nil, run.result.context)
        #expect(out.line(containing: "PASS", "filters") != nil, run.result.context)
        let message = #"header Last-Modified: expected after 2000-01-01T00:00:00.000000Z, got "Sun, 06 Nov 1994 08:49:37 GMT" (1994-11-06T08:49:37.000000Z)"#
        #expect(out.contains(message), run.result.context)

        // JUnit: the failure with its expected and actual values.
        let failure = try #require(run.junit?.testCase("too old")?.failure, run.result.context)
        #expect(failure.text.contains(message), "\(failure.text)")
        #expect(failure.text.contains(#"after "2000-01-01""#), "\(failure.text)")

        // JSON: each check's expected and actual values, passed ones too.
        let report = try JSONReportFile.load(run.workspace.url.appendingPathComponent("report.json"))
        let checks = Self.expectations(report.value)
        let failed = try #require(checks.first { $0["outcome"] == "failed" && $0["subject"] == "header Last-Modified" })
        #expect(failed["expected"] == ["text": "after", "json": "2000-01-01"])
        #expect(failed["actual"] == ["json": "Sun, 06 Nov 1994 08:49:37 GMT"])
        #expect(failed["message"]?.stringValue?.contains("(1994-11-06T08:49:37.000000Z)") == true)
        let passed = try #require(checks.first { $0["outcome"] == "passed" && $0["subject"] == "header X-RFC850" })
        #expect(passed["expected"]?["json"] == ["after": "Sun Nov  6 08:49:36 1994", "before": "1994-11-06T14:19:38+05:30"])
        #expect(passed["actual"] == ["json": "Sunday, 06-Nov-94 08:49:37 GMT"])
    }

    @Test("expect.http_version: 2 over TLS (nginx, ALPN), 1.1 when asked for; http_version: 1.0 sends and reads HTTP/1.0")
    func httpVersions() async throws {
        let misbehaving = try await MisbehavingServer.start()
        defer { misbehaving.stop() }
        var steps = """
            name: versions
            steps:
              - name: one zero
                request: { url: \(misbehaving.baseURL)/http10, http_version: "1.0" }
                expect:
                  http_version: "1.0"
                  json: { $.request_line: { ends_with: HTTP/1.0 } }
            """
        let nginx = TransportFixtures.usesNginx(toCheck: "HTTP/2")
        if nginx {
            let server = try await TransportFixtures.shared.server(.nginx)
            let ca = try await TransportFixtures.shared.certificate("ca.pem")
            steps += """

                  - name: two by default
                    request: { url: \(server.baseURL)/health, tls: { ca: \(ca) } }
                    expect: { http_version: "2", json: { $.protocol: HTTP/2.0 } }
                  - name: two asked
                    request: { url: \(server.baseURL)/health, tls: { ca: \(ca) }, http_version: 2 }
                    expect: { http_version: { in: ["2", "3"] } }
                  - name: one one asked
                    request: { url: \(server.baseURL)/health, tls: { ca: \(ca) }, http_version: "1.1" }
                    expect: { http_version: 1.1, json: { $.protocol: HTTP/1.1 } }
                """
        }
        // Last: a failed step skips the ones after it.
        steps += """

              - name: one zero is not two
                request: { url: \(misbehaving.baseURL)/http10 }
                expect: { http_version: "2" }
            """
        let run = try await TransportRun.run(steps, arguments: ["--json", "report.json"])
        #expect(run.result.status == 1, run.result.context)
        let out = run.result.stdout
        var passing = ["one zero"]
        if nginx { passing += ["two by default", "two asked", "one one asked"] }
        for step in passing {
            #expect(out.line(containing: "PASS", step) != nil, "\(step)\n\(run.result.context)")
        }
        let message = #"http_version: expected "2", got "1.0""#
        #expect(out.contains(message), run.result.context)
        let failure = try #require(run.junit?.testCase("one zero is not two")?.failure, run.result.context)
        #expect(failure.text.contains(message), "\(failure.text)")
        let report = try JSONReportFile.load(run.workspace.url.appendingPathComponent("report.json"))
        let checks = Self.expectations(report.value)
        let failed = try #require(checks.first { $0["outcome"] == "failed" && $0["subject"] == "http_version" })
        #expect(failed["expected"]?["text"] == "2" && failed["actual"]?["text"] == "1.0", "\(failed.serialized())")
        let passed = try #require(checks.first { $0["outcome"] == "passed" && $0["subject"] == "http_version" })
        #expect(passed["actual"] == ["json": "1.0"], "\(passed.serialized())")
    }

    /// Every expectation record of a JSON report, in order.
    private static func expectations(_ report: JSONValue) -> [JSONValue] {
        var found: [JSONValue] = []
        for workflow in report["run"]?["workflows"]?.arrayValue ?? [] {
            for step in workflow["steps"]?.arrayValue ?? [] {
                for attempt in step["attempts"]?.arrayValue ?? [] { found += attempt["expectations"]?.arrayValue ?? [] }
            }
        }
        return found
    }
}
