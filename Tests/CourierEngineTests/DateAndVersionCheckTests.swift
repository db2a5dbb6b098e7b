import CourierDiagnostics
@testable import CourierEngine
@testable import CourierHTTP
import CourierJSON
import CourierResults
@testable import CourierWorkflow
import Foundation
import Testing

/// 2026-11-30T12:00:00.5Z, the clock every test here runs on.
private let pinnedNow = Date(timeIntervalSince1970: 1_796_040_000.5)
private let pinned = BuiltinFunctions(clock: { pinnedNow })

/// The value of one template, rendered with the pinned clock.
private func render(_ text: String, variables: [String: JSONValue] = [:]) throws -> Result<JSONValue, EvaluationError> {
    var diagnostics: [Diagnostic] = []
    let positions = TextPositions(base: CourierDiagnostics.SourceLocation(file: "t.yaml", line: 1, column: 1), exact: true)
    let parsed = TemplateParser.parse(text, positions: positions, range: positions.range(0, text.unicodeScalars.count),
                                      diagnostics: &diagnostics)
    #expect(diagnostics.isEmpty, "\(diagnostics)")
    do throws(EvaluationError) {
        return .success(try TemplateRenderer(scope: Scope(variables: variables, environment: [:]), functions: pinned).value(parsed))
    } catch {
        return .failure(error)
    }
}

@Suite struct DateFilterTests {
    @Test(arguments: [
        ("{{ '2026-11-30T12:00:00+05:30' | to_date }}", "2026-11-30T06:30:00.000000Z"),
        ("{{ 'Sun, 06 Nov 1994 08:49:37 GMT' | to_date }}", "1994-11-06T08:49:37.000000Z"),
        ("{{ 'Sunday, 06-Nov-94 08:49:37 GMT' | to_date }}", "1994-11-06T08:49:37.000000Z"),
        ("{{ 'Sun Nov  6 08:49:37 1994' | to_date }}", "1994-11-06T08:49:37.000000Z"),
        ("{{ 1700000000 | to_date }}", "2023-11-14T22:13:20.000000Z"),
        ("{{ '30/11/2026 12:00 +0100' | to_date('%d/%m/%Y %H:%M %z') }}", "2026-11-30T11:00:00.000000Z"),
        ("{{ 20261130 | to_date('%Y%m%d') }}", "2026-11-30T00:00:00.000000Z"),
        ("{{ now() | to_date }}", "2026-11-30T12:00:00.000000Z"),
        ("{{ '2026-11-30T06:30:00.25Z' | format_date('%a, %d %b %Y %H:%M:%S GMT') }}", "Mon, 30 Nov 2026 06:30:00 GMT"),
        ("{{ 1700000000 | format_date('%Y-%m-%d') }}", "2023-11-14"),
        ("{{ 'Sun, 06 Nov 1994 08:49:37 GMT' | to_date | format_date('%s') }}", "784111777"),
    ])
    func textResults(template: String, expected: String) throws {
        #expect(try render(template).get() == .string(expected))
    }

    @Test(arguments: [
        ("{{ '2023-11-14T22:13:20Z' | unix }}", "1700000000"),
        ("{{ '2023-11-14T23:13:20.25+01:00' | unix }}", "1700000000.25"),
        ("{{ 'Thu, 01 Jan 1970 00:00:00 GMT' | unix }}", "0"),
        // The clock is pinned at 2026-11-30T12:00:00.5Z: days count towards zero.
        ("{{ '2026-11-29T12:00:00.5Z' | days_before_now }}", "1"),
        ("{{ '2026-11-29T12:00:01Z' | days_before_now }}", "0"),
        ("{{ '2026-01-01' | days_before_now }}", "333"),
        ("{{ '2026-12-25' | days_before_now }}", "-24"),
        ("{{ '2026-12-25' | days_after_now }}", "24"),
        ("{{ 'Fri, 01 Jan 2027 00:00:00 GMT' | days_after_now }}", "31"),
        ("{{ '2026-11-30T00:00:00Z' | days_after_now }}", "0"),
        ("{{ 'Sun, 06 Nov 1994 08:49:37 GMT' | days_after_now }}", "-11712"),
    ])
    func numberResults(template: String, expected: String) throws {
        guard case .number(let number) = try render(template).get() else {
            Issue.record("not a number")
            return
        }
        #expect(number.text == expected)
    }

    /// `<` and `>` on what `to_date` gives compare instants, whatever the offsets were.
    @Test func toDateTextComparesAcrossZones() throws {
        #expect(try render("{{ '2026-01-01T01:00:00+02:00' | to_date < '2026-01-01T00:00:00Z' | to_date }}").get() == .bool(true))
        #expect(try render("{{ 'Thu, 01 Jan 2026 00:00:00 GMT' | to_date > '2025-12-31T23:59:59.999999Z' | to_date }}").get() == .bool(true))
        #expect(try render("{{ '2026-01-01T00:00:00+00:00' | to_date == 'Thu, 01 Jan 2026 00:00:00 GMT' | to_date }}").get() == .bool(true))
    }

    @Test(arguments: [
        ("{{ 'soon' | to_date }}", "filter 'to_date': 'soon' is not a date: it is not \(DateText.forms)"),
        ("{{ '2026-02-30' | unix }}", "filter 'unix': '2026-02-30' is not a date: February 2026 has 28 days, not 30"),
        ("{{ true | days_before_now }}", "filter 'days_before_now' needs a date (a string or a number), found a boolean"),
        ("{{ '30/11' | to_date('%d/%m') }}", "filter 'to_date': '30/11' is not a date: the format gives no year (%Y, %y or %s)"),
        ("{{ '2026' | to_date('%Y %Q') }}",
         "filter 'to_date': the format has '%Q', which is not a conversion Courier knows; write '%%' for a '%'"),
        ("{{ '2026' | to_date(4) }}", "filter 'to_date' needs a strftime format string (like '%Y-%m-%d'), found a number"),
        ("{{ now() | format_date('%Y %Q') }}",
         "filter 'format_date': the format has '%Q', which is not a conversion Courier knows; write '%%' for a '%'"),
    ])
    func badInputSaysWhy(template: String, message: String) throws {
        guard case .failure(let error) = try render(template) else {
            Issue.record("\(template) did not fail")
            return
        }
        #expect(error.message == message)
        // At the filter that failed: the last one of the template.
        let name = try #require(template.range(of: "| ", options: .backwards))
        #expect(error.range?.start.column == template.distance(from: template.startIndex, to: name.upperBound) + 1)
    }

    @Test func theArgumentCountIsCheckedWhenParsed() {
        #expect(Expression.knownFilters["to_date"] == 0...1)
        #expect(Expression.knownFilters["format_date"] == 1...1)
        #expect(Expression.knownFilters["days_before_now"] == 0...0)
    }
}

// MARK: - before, after

private let datedBody = #"""
{"created": "2026-11-30T12:00:00+05:30", "expires": "Wed, 30 Dec 2026 00:00:00 GMT", "epoch": 1796040000, "name": "x"}
"""#

@Suite struct DatePredicateTests {
    private func failures(_ lines: String, headers: HTTPHeaders = [:]) async throws -> [ExpectationResult] {
        let indented = lines.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
        let yaml = "steps:\n  - request: { url: http://h/x }\n    expect:\n\(indented)\n"
        let transport = FakeTransport(always: jsonResponse(200, datedBody, headers: headers))
        return try await run(yaml, transport: transport, functions: pinned).failures()
    }

    @Test func datesCompareAsInstantsAcrossZonesAndForms() async throws {
        let lines = """
              json:
                $.created: { before: '2026-11-30T07:00:00Z', after: '2026-11-30T06:00:00Z' }
                $.expires: { after: "{{ now() }}", before: 'Thu, 31 Dec 2026 00:00:00 GMT' }
                $.epoch: { after: '2026-11-30T11:59:59Z', before: "{{ '2026-12-01' | to_date }}" }
              headers:
                Date: { before: "{{ now() }}", after: 'Sun, 06 Nov 1994 08:49:37 GMT' }
                Last-Modified: { before: 'Sun Nov  6 08:49:38 1994' }
                Expires: { after: "{{ '2026-11-30' | to_date }}" }
            """
        var headers = HTTPHeaders()
        headers.add(name: "Date", value: "Mon, 30 Nov 2026 11:59:00 GMT")
        headers.add(name: "Last-Modified", value: "Sunday, 06-Nov-94 08:49:37 GMT")
        headers.add(name: "Expires", value: "Tue, 01 Dec 2026 00:00:00 GMT")
        #expect(try await failures(lines, headers: headers).map(\.message) == [])
    }

    @Test func failuresShowBothDatesAsInstants() async throws {
        let found = try await failures("""
              json:
                $.created: { after: '2026-11-30T07:00:00Z' }
                $.expires: { before: "{{ now() }}" }
                $.name: { before: '2030-01-01' }
                $.epoch: { after: "{{ 'tomorrow' }}" }
                $.missing: { before: '2030-01-01' }
            """)
        #expect(found.map(\.message) == [
            #"json $.created: expected after 2026-11-30T07:00:00.000000Z, got "2026-11-30T12:00:00+05:30" (2026-11-30T06:30:00.000000Z)"#,
            #"json $.expires: expected before 2026-11-30T12:00:00.000000Z, got "Wed, 30 Dec 2026 00:00:00 GMT" (2026-12-30T00:00:00.000000Z)"#,
            #"json $.name: 'before' needs a date, and "x" is not one: it is not "# + DateText.forms,
            #"json $.epoch: 'after': expected a date for 'after', found "tomorrow": it is not "# + DateText.forms,
            "json $.missing: there is no value to check",
        ])
        let first = try #require(found.first)
        #expect(first.expected?.rendered == #"after "2026-11-30T07:00:00Z""#)
        #expect(first.actual?.rendered == #""2026-11-30T12:00:00+05:30""#)
        #expect(first.location?.start.line == 5)
    }

    @Test func aPassedCheckRecordsItsOperandAndValue() async throws {
        let yaml = "steps:\n  - request: { url: http://h/x }\n    expect:\n      json:\n        $.created: { before: '2030-01-01' }\n"
        let result = try await run(yaml, transport: FakeTransport(always: jsonResponse(200, datedBody)), functions: pinned)
        let record = try #require(result.steps[0].attempts.last?.expectations.last)
        #expect(record.expected?.rendered == "{\n  \"before\": \"2030-01-01\"\n}")
        #expect(record.actual?.rendered == #""2026-11-30T12:00:00+05:30""#)
    }
}

// MARK: - HTTP versions

@Suite struct HTTPVersionCheckTests {
    private func run(_ expect: String, version: String) async throws -> EngineRun {
        let yaml = "steps:\n  - request: { url: http://h/x, http_version: \"1.0\" }\n    expect: { \(expect) }\n"
        return try await CourierEngineTests.run(yaml, transport: FakeTransport(always: HTTPResponse(status: 200, httpVersion: version)))
    }

    @Test(arguments: [("http_version: \"2\"", "2"), ("http_version: 2.0", "2"), ("http_version: 1.1", "1.1"), ("http_version: 1.0", "1.0"),
                      ("http_version: { in: [\"1.1\", \"2\"] }", "2"), ("http_version: { ne: \"1.0\" }", "1.1")])
    func holds(expect: String, version: String) async throws {
        let result = try await run(expect, version: version)
        #expect(result.steps[0].outcome.isPassed, "\(result.failures())")
        let record = try #require(result.steps[0].attempts.last?.expectations.last)
        #expect(record.subject == "http_version")
        #expect(record.actual?.rendered == "\"\(version)\"")
    }

    @Test func aDifferentVersionFailsWithBoth() async throws {
        let result = try await run("http_version: \"2\"", version: "1.1")
        let failure = try #require(result.failures().first)
        #expect(failure.message == #"http_version: expected "2", got "1.1""#)
        #expect(failure.expected?.rendered == "2")
        #expect(failure.actual?.rendered == "1.1")
        #expect(failure.location?.start.line == 3)
    }

    @Test func theRequestOptionReachesTheTransport() async throws {
        let result = try await run("http_version: \"1.0\"", version: "1.0")
        #expect(result.requests.first?.options.httpVersion == .http1_0)
    }
}
