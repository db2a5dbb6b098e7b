@testable import CourierEngine
import CourierHTTP
import CourierResults
import CourierWorkflow
import Foundation
import Testing

/// Header, query and form names that hold templates: rendered when the request is
/// built; headers merge with `defaults` by the rendered name, case-insensitively.
@Suite struct TemplatedNameTests {
    private func sent(_ yaml: String) async throws -> (request: HTTPRequest?, error: StepError?) {
        let outcome = try await run(yaml)
        return (outcome.requests.first, outcome.steps.first?.outcome.error)
    }

    @Test func aTemplatedHeaderNameIsSentRendered() async throws {
        let (request, error) = try await sent("""
            vars: { key: X-Fruit }
            steps:
              - request: { url: "http://h/x", headers: { "{{ key }}": Apple } }
            """)
        #expect(error == nil)
        #expect(request?.headers["X-Fruit"] == "Apple")
        #expect(request?.headers.contains("{{ key }}") == false)
    }

    @Test func aTemplatedNameReplacesADefaultOfTheSameNameInAnotherCase() async throws {
        let (request, _) = try await sent("""
            vars: { key: x-fruit }
            defaults:
              headers: { X-Fruit: Pear, Accept: text/plain }
            steps:
              - request: { url: "http://h/x", headers: { "{{ key }}": Apple } }
            """)
        #expect(request?.headers.values(for: "X-Fruit") == ["Apple"], "one header, the request's value")
        #expect(request?.headers.fields.map(\.name) == ["x-fruit", "Accept"], "in the default's place")
    }

    @Test func aTemplatedDefaultIsReplacedByALiteralRequestHeader() async throws {
        let (request, _) = try await sent("""
            vars: { key: Accept }
            defaults:
              headers: { "{{ key }}": application/json }
            steps:
              - request: { url: "http://h/x", headers: { accept: text/plain } }
            """)
        #expect(request?.headers.values(for: "Accept") == ["text/plain"])
    }

    @Test func nullRemovesADefaultWhoseNameIsTemplated() async throws {
        let (request, _) = try await sent("""
            vars: { key: X-Trace }
            defaults:
              headers: { "{{ key }}": "1", X-Keep: "2" }
            steps:
              - request: { url: "http://h/x", headers: { x-trace: null } }
            """)
        #expect(request?.headers.contains("X-Trace") == false)
        #expect(request?.headers["X-Keep"] == "2")
    }

    @Test func aTemplatedNullRemovesALiteralDefault() async throws {
        let (request, _) = try await sent("""
            vars: { key: x-trace }
            defaults:
              headers: { X-Trace: "1" }
            steps:
              - request: { url: "http://h/x", headers: { "{{ key }}": null } }
            """)
        #expect(request?.headers.contains("X-Trace") == false)
    }

    @Test(arguments: ["", "X:Y", "X Y", "X\\nY"])
    func aRenderedNameThatIsNoHeaderNameIsAStepError(name: String) async throws {
        let (request, error) = try await sent("""
            vars: { key: "\(name)" }
            steps:
              - request: { url: "http://h/x", headers: { "{{ key }}": v } }
            """)
        #expect(request == nil, "nothing is sent")
        #expect(error?.message.contains("header name") == true, "\(String(describing: error))")
        #expect(error?.location?.start.line == 3)
    }

    @Test func queryAndFormNamesAreRendered() async throws {
        let (query, _) = try await sent("""
            vars: { k: colour }
            steps:
              - request: { url: "http://h/x", query: { "{{ k }}": red, "p_{{ k }}": [a, b] } }
            """)
        #expect(query?.url == "http://h/x?colour=red&p_colour=a&p_colour=b")
        let (form, _) = try await sent("""
            vars: { k: "a b" }
            steps:
              - request: { url: "http://h/x", form: { "{{ k }}": v } }
            """)
        guard case .bytes(let bytes)? = form?.body else {
            Issue.record("a form body")
            return
        }
        #expect(String(decoding: bytes, as: UTF8.self) == "a%20b=v")
    }

    @Test func multipartShorthandNamesAreTemplates() async throws {
        let (request, _) = try await sent("""
            vars: { k: caption }
            steps:
              - request: { url: "http://h/x", multipart: { "{{ k }}": Sunset } }
            """)
        guard case .multipart(let parts)? = request?.body else {
            Issue.record("a multipart body")
            return
        }
        #expect(parts.map(\.name) == ["caption"])
    }

    @Test func expectedHeaderAndCookieNamesAreRendered() async throws {
        let response = textResponse(200, "", headers: ["X-Version": "3", "Set-Cookie": "session=abc; Path=/"])
        let passing = try await runStep("""
            vars: { h: x-version, c: session }
            steps:
              - request: { url: "http://h/x" }
                expect: { headers: { "{{ h }}": "3" }, cookies: { "{{ c }}": abc } }
            """, response: response)
        #expect(passing.failures().map(\.message) == [])
        let failing = try await runStep("""
            vars: { h: x-version }
            steps:
              - request: { url: "http://h/x" }
                expect: { headers: { "{{ h }}": "4" } }
            """, response: response)
        #expect(failing.failures().map(\.message) == [#"header x-version: expected "4", got "3""#])
    }
}
