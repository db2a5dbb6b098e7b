@testable import CourierEngine
import CourierHTTP
import CourierJSON
import CourierResults
import CourierWorkflow
import Testing

/// Issue 23, item 7: `expect.cookies.NAME` attribute maps read the `Set-Cookie` line that set
/// the cookie; each attribute's expected and actual values are recorded.
@Suite struct CookieAttributeTests {
    private static func response(_ setCookies: [String]) -> HTTPResponse {
        var headers = HTTPHeaders()
        for line in setCookies { headers.add(name: "Set-Cookie", value: line) }
        return HTTPResponse(status: 200, headers: headers, body: [])
    }

    private static let full = "session=s-42; Path=/app; Domain=example.test; Expires=Wed, 21 Oct 2037 07:28:00 GMT; "
        + "Max-Age=3600; Secure; httponly; SameSite=Strict"

    private func failures(_ cookies: String, setCookies: [String] = [full]) async throws -> [String] {
        let yaml = "steps:\n  - request: { url: http://h/ }\n    expect:\n      cookies:\n        \(cookies)\n"
        return try await runStep(yaml, response: Self.response(setCookies)).failures().map(\.message)
    }

    @Test func everyAttributeReadsAsSent() async throws {
        #expect(try await failures("""
            session: { value: s-42, path: /app, domain: example.test, expires: "Wed, 21 Oct 2037 07:28:00 GMT", max_age: 3600, secure: true, http_only: true, same_site: Strict }
            """) == [])
        #expect(try await failures("session: { max_age: { gte: 3600, lt: 3601 } }") == [])
    }

    @Test func wrongAttributesFailEachWithItsSubject() async throws {
        let found = try await failures("session: { path: /, max_age: { lt: 60 }, secure: false, same_site: Lax }")
        #expect(found == [
            "cookie session path: expected \"/\", got \"/app\"",
            "cookie session max_age: expected < 60, got 3600",
            "cookie session secure: expected false, got true",
            "cookie session same_site: expected \"Lax\", got \"Strict\"",
        ])
    }

    @Test func flagsAreFalseAndValuedAttributesMissingWhenNotSent() async throws {
        let found = try await failures("plain: { secure: false, http_only: false, path: { exists: false }, domain: x }",
                                       setCookies: ["plain=p-1"])
        #expect(found == ["cookie plain domain: expected \"x\", but there is no value"])
    }

    @Test func aCookieNotSetHasNoAttributes() async throws {
        let found = try await failures("missing: { secure: false }")
        #expect(found == ["cookie missing secure: expected false, but there is no value"])
    }

    @Test func theLastLineForANameAndTheLastAttributeWin() async throws {
        let lines = ["s=1; Path=/a", "s=2; Path=/b; Path=/c; Max-Age=soon"]
        #expect(try await failures("s: { value: \"2\", path: /c, max_age: soon }", setCookies: lines) == [])
    }

    @Test func thePassedRecordsHoldExpectedAndActual() async throws {
        let yaml = "steps:\n  - request: { url: http://h/ }\n    expect:\n      cookies: { session: { http_only: true, max_age: { gt: 0 } } }\n"
        let run = try await runStep(yaml, response: Self.response([Self.full]))
        let records = run.steps.first?.attempts.last?.expectations.filter { $0.subject.hasPrefix("cookie ") } ?? []
        #expect(records.map(\.subject) == ["cookie session http_only", "cookie session max_age"])
        #expect(records.map { $0.expected?.json } == [.bool(true), ["gt": 0]])
        #expect(records.map { $0.actual?.json } == [.bool(true), 3600])
    }
}
