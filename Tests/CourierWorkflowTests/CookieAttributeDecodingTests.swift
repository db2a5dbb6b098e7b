import CourierDiagnostics
@testable import CourierWorkflow
import Testing

/// Issue 23, item 7: `expect.cookies.NAME` as a map of the cookie's value and attributes, beside
/// the plain value or predicate map it was; each problem at its key with a did-you-mean.
@Suite struct CookieAttributeDecodingTests {
    private func decoded(_ cookie: String) -> Result<Workflow, DiagnosticList> {
        let yaml = "steps:\n  - request: { url: http://h/ }\n    expect:\n      cookies:\n        \(cookie)\n"
        return decodeWorkflow(text: yaml, path: "t.yaml", sources: SourceStore())
    }

    private func problems(_ cookie: String) -> [String] {
        switch decoded(cookie) {
        case .success: return []
        case .failure(let list): return list.diagnostics.map(\.description)
        }
    }

    /// The targets the cookie's expectations read, as `name attribute` (`name` for the value).
    private func targets(_ cookie: String) throws -> [String] {
        let workflow = try decoded(cookie).get()
        return workflow.steps[0].expect.items.compactMap { item in
            switch item.target {
            case .cookie(let name): return name.literalText
            case .cookieAttribute(let name, let attribute): return "\(name.literalText ?? "?") \(attribute.rawValue)"
            default: return nil
            }
        }
    }

    @Test func valuesAndPredicateMapsStillCheckTheValue() throws {
        #expect(try targets("session: s-42") == ["session"])
        #expect(try targets("session: { starts_with: s- }") == ["session"])
        #expect(try targets("session: { exists: false }") == ["session"])
    }

    @Test func anAttributeMapGivesOneExpectationPerAttributeInFileOrder() throws {
        let map = "session: { value: { starts_with: s- }, path: /app, domain: 127.0.0.1, expires: { exists: true }, "
            + "max_age: { gt: 0 }, secure: true, http_only: true, same_site: Strict }"
        #expect(try targets(map) == ["session", "session path", "session domain", "session expires", "session max_age",
                                     "session secure", "session http_only", "session same_site"])
    }

    @Test(arguments: [
        ("session: { http_onyl: true }", "t.yaml:5:20: error: unknown key 'http_onyl' in the attributes of cookie 'session'; did you mean 'http_only'?"),
        ("session: { path: /, httponly: true }", "t.yaml:5:29: error: unknown key 'httponly' in the attributes of cookie 'session'; did you mean 'http_only'?"),
        ("session: { path: /, starts_with: s- }",
         "t.yaml:5:29: error: 'starts_with' is a predicate, and this is a map of the cookie's attributes; check the value with 'value: { starts_with: … }'"),
        ("session: { max_age: { gtt: 0 } }", "t.yaml:5:31: error: unknown predicate 'gtt'; did you mean 'gt'?"),
        ("session: { startswith: s- }", "t.yaml:5:20: error: unknown predicate 'startswith'; did you mean 'starts_with'?"),
    ])
    func aBadAttributeMapIsALoadErrorAtItsKey(cookie: String, message: String) {
        #expect(problems(cookie) == [message])
    }
}
