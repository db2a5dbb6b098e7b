import CourierDiagnostics
@testable import CourierWorkflow
import Foundation
import Testing

/// `before`/`after` operands, `expect.http_version` and the request's `http_version` are
/// checked when the file loads, each problem at its file:line:col.
@Suite struct DateAndVersionDecodingTests {
    private func problems(_ yaml: String) -> [String] {
        switch decodeWorkflow(text: yaml, path: "t.yaml", sources: SourceStore()) {
        case .success: return []
        case .failure(let list): return list.diagnostics.map(\.description)
        }
    }

    private func jsonProblems(_ predicate: String) -> [String] {
        problems("vars: { x: '2020-01-01' }\nsteps:\n  - request: { url: http://h/ }\n    expect:\n      json:\n        $.a: \(predicate)\n")
    }

    // MARK: - before, after

    @Test(arguments: [
        "{ before: '2030-01-01' }", "{ after: '2020-01-01T00:00:00+05:30' }", "{ before: 'Sun, 06 Nov 2044 08:49:37 GMT' }",
        "{ after: 1700000000 }", "{ after: \"{{ x }}\", before: \"{{ x | to_date }}\" }", "{ not: { before: '2000-01-01' } }",
        "{ any: [{ before: '2000-01-01' }, { after: '2030-01-01' }] }",
    ])
    func wellFormedDateOperandsDecode(predicate: String) {
        #expect(jsonProblems(predicate) == [])
    }

    @Test(arguments: [
        ("{ before: '2030-02-30' }", "t.yaml:6:24: error: expected a date for 'before', found \"2030-02-30\": February 2030 has 28 days, not 30"),
        ("{ after: soon }", "t.yaml:6:23: error: expected a date for 'after', found \"soon\": it is not \(DateText.forms)"),
        ("{ after: [1] }", "t.yaml:6:23: error: expected a date for 'after' (a string or a number of seconds), found an array"),
        ("{ befor: '2030-01-01' }", "t.yaml:6:16: error: unknown predicate 'befor'; did you mean 'before'?"),
        ("{ afte: '2030-01-01' }", "t.yaml:6:16: error: unknown predicate 'afte'; did you mean 'after'?"),
    ])
    func badDateOperandsAreLoadErrors(predicate: String, message: String) {
        #expect(jsonProblems(predicate) == [message])
    }

    /// `before` and `after` are reserved: a mapping under `json:` holding one is a predicate
    /// map, no longer an object to compare.
    @Test func beforeIsAPredicateNotAnObjectKey() throws {
        let yaml = "steps:\n  - request: { url: http://h/ }\n    expect:\n      json:\n        $.a: { before: '2030-01-01' }\n"
        let workflow = try decodeWorkflow(text: yaml, path: "t.yaml", sources: SourceStore()).get()
        guard case .predicates(let predicates, _)? = workflow.steps[0].expect.json.first?.matcher else {
            Issue.record("not a predicate map")
            return
        }
        #expect(predicates.map(\.name) == ["before"])
    }

    // MARK: - expect.http_version

    @Test(arguments: ["\"2\"", "2", "\"1.1\"", "1.0", "\"3\"", "{ in: [\"1.1\", \"2\"] }", "{ ne: \"1.0\" }", "\"{{ v }}\""])
    func expectedVersionsDecode(value: String) throws {
        let yaml = "vars: { v: '2' }\nsteps:\n  - request: { url: http://h/ }\n    expect: { http_version: \(value) }\n"
        #expect(problems(yaml) == [])
        let workflow = try decodeWorkflow(text: yaml, path: "t.yaml", sources: SourceStore()).get()
        let item = try #require(workflow.steps[0].expect.items.first { $0.kind === ExpectationKind.httpVersion })
        guard case .httpVersion = item.target else {
            Issue.record("target \(item.target)")
            return
        }
        #expect(item.kind.comparesAsText)
    }

    @Test func twoPointZeroIsReadAsTwo() throws {
        let yaml = "steps:\n  - request: { url: http://h/ }\n    expect: { http_version: 2.0 }\n"
        let workflow = try decodeWorkflow(text: yaml, path: "t.yaml", sources: SourceStore()).get()
        let item = try #require(workflow.steps[0].expect.items.first { $0.kind === ExpectationKind.httpVersion })
        guard case .matcher(.equals(let value)) = item.check else {
            Issue.record("not a plain value")
            return
        }
        #expect(value.literalJSON?.interpolationText == "2")
    }

    @Test(arguments: [
        ("http_version: \"1.2\"", "t.yaml:3:29: error: invalid value '1.2' for 'http_version'; did you mean '1.0'?"),
        ("http_version: HTTP/2", "t.yaml:3:29: error: invalid value 'HTTP/2' for 'http_version'; expected one of '1.0', '1.1', '2', '3'"),
        ("htp_version: \"2\"", "t.yaml:3:15: error: unknown key 'htp_version' in expect; did you mean 'http_version'?"),
        ("http_version: { eqq: \"2\" }", "t.yaml:3:31: error: unknown predicate 'eqq'; did you mean 'eq'?"),
    ])
    func badExpectedVersionsAreLoadErrors(expect: String, message: String) {
        #expect(problems("steps:\n  - request: { url: http://h/ }\n    expect: { \(expect) }\n") == [message])
    }

    // MARK: - The request's http_version

    @Test(arguments: [("\"1.0\"", RequestHTTPVersion.http1_0), ("1.0", .http1_0), ("\"1.1\"", .http1_1), ("2", .http2), ("\"2.0\"", .http2)])
    func requestVersionsDecode(written: String, version: RequestHTTPVersion) throws {
        let yaml = "defaults: { http_version: \(written) }\nsteps:\n  - request: { url: http://h/, http_version: \(written) }\n"
        let workflow = try decodeWorkflow(text: yaml, path: "t.yaml", sources: SourceStore()).get()
        #expect(workflow.defaults.httpVersion == version)
        #expect(workflow.steps[0].request?.options.httpVersion == version)
    }

    @Test func aBadRequestVersionIsALoadError() {
        #expect(problems("steps:\n  - request: { url: http://h/, http_version: \"0.9\" }\n")
            == ["t.yaml:2:46: error: invalid value '0.9' for 'http_version'; expected one of '1.0', '1.1', '2', '2.0'"])
    }
}
