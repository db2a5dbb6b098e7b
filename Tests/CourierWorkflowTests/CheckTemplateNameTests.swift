import CourierDiagnostics
@testable import CourierWorkflow
import Testing

/// A template anywhere inside a check is name-checked: the checker walks targets, checks and
/// operand cases, so no kind or predicate can hide one.
@Suite struct CheckTemplateNameTests {
    /// One check per place a template can stand, each using the unknown name `nope`.
    static let checks = [
        "status: \"{{ nope }}\"",
        "status: { eq: \"{{ nope }}\" }",
        "headers: { \"{{ nope }}\": x }",
        "headers: { A: \"{{ nope }}\" }",
        "json: { \"$.a[{{ nope }}]\": 1 }",
        "json: { $.a: { in: \"{{ nope }}\" } }",
        "body: { matches: \"{{ nope }}\" }",
        "body: { not: { contains: \"{{ nope }}\" } }",
        "body: { length: { gt: \"{{ nope }}\" } }",
        "json: { $.a: { each: { eq: \"{{ nope }}\" } } }",
        "json: { $.a: { schema: { type: \"{{ nope }}\" } } }",
        "schema: \"{{ nope }}.json\"",
        "duration: { lt: \"{{ nope }}\" }",
        "cookies: { \"{{ nope }}\": x }",
        "cookies: { s: { starts_with: \"{{ nope }}\" } }",
        "json: { $.a: { any: [1, { eq: \"{{ nope }}\" }] } }",
        "headers: { A: { all: [x, \"{{ nope }}\"] } }",
        "bytes: { sha256: \"{{ nope }}\" }",
        "bytes: { raw: true, length: { gt: \"{{ nope }}\" } }",
        "bytes: { equals_file: \"{{ nope }}.bin\" }",
    ]

    @Test(arguments: checks)
    func templateInsideACheckIsChecked(check: String) throws {
        let yaml = "steps:\n  - request: { url: http://h/ }\n    expect: { \(check) }\n"
        let workflow = try decodeWorkflow(text: yaml, path: "t.yaml", sources: SourceStore()).get()
        let problems = VariableChecker.check(workflow, externalNames: []).map(\.message)
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("unknown variable 'nope'") == true)
    }

    @Test(arguments: checks)
    func templateInsideAbortIfIsChecked(check: String) throws {
        let yaml = "steps:\n  - request: { url: http://h/ }\n    retry: { attempts: 2, abort_if: { \(check) } }\n"
        let workflow = try decodeWorkflow(text: yaml, path: "t.yaml", sources: SourceStore()).get()
        #expect(VariableChecker.check(workflow, externalNames: []).count == 1)
    }
}
