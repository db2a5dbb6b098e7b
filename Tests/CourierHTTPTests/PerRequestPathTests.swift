@testable import CourierHTTP
import Testing

/// The shortcuts every request takes (issue 11's speed work) give what the general path
/// gives: field names as the server spelled them, TLS settings as values, the same
/// `Content-Length` verdicts, the request's own URL when nothing redirected.
@Suite struct PerRequestPathTests {
    @Test func responseFieldsKeepTheSpellingAndOrderTheServerSent() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = HTTPClient()
        let url = server.baseURL + "/fields"
        let response = try await client.send(HTTPRequest(url: url))
        await client.shutdown()
        let fields = response.headers.fields.map { "\($0.name): \($0.value)" }
        #expect(fields == ["Server: loop", "DATE: Mon, 30 Nov 2026 21:00:00 GMT", "content-type: text/plain",
                           "Etag: \"a\"", "ETag: \"b\"", "Vary: Accept", "Vary: Origin", "X-Caf\u{E9}: cr\u{E8}me", "Content-Length: 3"])
        #expect(response.headers["date"] == "Mon, 30 Nov 2026 21:00:00 GMT")
        #expect(response.headers.values(for: "etag") == ["\"a\"", "\"b\""])
        #expect(response.body == Array("abc".utf8))
        // Not redirected: the URL asked for, character for character.
        #expect(response.effectiveURL == url)
    }

    @Test func tlsSettingsAreValuesWhetherSetOrNot() {
        var options = HTTPRequestOptions()
        #expect(options.nonDefaultTLS == nil)
        #expect(options.tls.caPath == nil && !options.tls.insecure && options.tls.password == nil)

        options.tls.caPath = "/ca.pem"
        options.tls.password = "pw"
        var copy = options
        copy.tls.caPath = "/other.pem"
        copy.tls.insecure = true
        // A copy's change is its own: the settings are not shared between requests.
        #expect(options.tls.caPath == "/ca.pem" && !options.tls.insecure)
        #expect(copy.tls.caPath == "/other.pem" && copy.tls.insecure && copy.tls.password == "pw")
        #expect(options.nonDefaultTLS?.caPath == "/ca.pem")

        // Back to every default: nothing is kept.
        options.tls = TLSOptions()
        #expect(options.nonDefaultTLS == nil)
        #expect(options.tls.caPath == nil && options.tls.password == nil)
        // Any one setting is a setting, verification switched off included.
        var insecure = HTTPRequestOptions()
        insecure.tls.insecure = true
        #expect(insecure.nonDefaultTLS?.insecure == true)
    }

    @Test(arguments: [
        ([("Content-Length", "5")], nil),
        ([("Content-Length", "5, 5")], nil),
        ([("Content-Length", "5"), ("content-length", "5")], nil),
        ([("Content-Length", "3"), ("CONTENT-LENGTH", "4")], "3 and 4"),
        ([("Content-Length", "3, 4")], "3 and 4"),
        ([("Content-Type", "text/plain"), ("X-Length", "1, 2")], nil),
    ] as [([(String, String)], String?)])
    func conflictingContentLengths(fields: [(String, String)], conflict: String?) {
        let headers = HTTPHeaders(fields.map { HTTPHeaders.Field(name: $0.0, value: $0.1) })
        #expect(CurlTransfer.conflictingContentLengths(headers) == conflict)
    }
}
