@testable import CourierEngine
import CourierDiagnostics
import CourierHTTP
import CourierResults
import CourierWorkflow
import Foundation
import Testing

/// `status: "{{ code }}"`: rendered when checked, alone or in a list, to a code or a class.
@Suite struct StatusTemplateTests {
    private func failures(_ status: String, vars: String, response: Int) async throws -> [ExpectationResult] {
        let yaml = """
            vars: \(vars)
            steps:
              - request: { url: http://h/x }
                expect: { status: \(status) }
            """
        return try await runStep(yaml, response: textResponse(response, "")).failures()
    }

    @Test(arguments: [
        ("\"{{ code }}\"", "{ code: 201 }", 201),
        ("\"{{ code }}\"", "{ code: \"201\" }", 201),
        ("\"{{ code }}\"", "{ code: 4xx }", 418),
        ("[200, \"{{ code }}\"]", "{ code: 204 }", 204),
    ])
    func passes(status: String, vars: String, response: Int) async throws {
        #expect(try await failures(status, vars: vars, response: response).map(\.message) == [])
    }

    @Test func aRenderedCodeThatDoesNotMatchFails() async throws {
        let found = try await failures("[\"{{ code }}\", 202]", vars: "{ code: 201 }", response: 500)
        #expect(found.map(\.message) == ["status: expected one of 201, 202, got 500"])
        #expect(found.first?.location?.start.line == 4)
    }

    @Test(arguments: ["{ code: 600 }", "{ code: ok }", "{ code: 200.5 }", "{ code: [200] }", "{ code: null }"])
    func aValueThatIsNoStatusFailsAtTheKey(vars: String) async throws {
        let found = try await failures("\"{{ code }}\"", vars: vars, response: 200)
        #expect(found.count == 1)
        #expect(found.first?.message.hasPrefix("status: the template gave ") == true, "\(found.map(\.message))")
        #expect(found.first?.location?.start == SourceLocation(file: testWorkflowPath, line: 4, column: 23))
    }

    @Test func aStatusTemplateUsesCheckedNames() throws {
        let result = decodeForTest("""
            steps:
              - request: { url: http://h/x }
                expect: { status: "{{ cdoe }}" }
            """)
        let messages = result.map { VariableChecker.check($0, externalNames: []).map(\.message) }
        #expect(messages.first?.contains { $0.contains("unknown variable 'cdoe'") } == true, "\(messages)")
    }
}

private func decodeForTest(_ yaml: String) -> [Workflow] {
    (try? decode(yaml, path: testWorkflowPath, sources: nil)).map { [$0] } ?? []
}
