import CCurl
@testable import CourierHTTP
import Testing

/// libcurl's answer to each option that matters is checked: a refused one fails the
/// request before anything is sent, instead of a request other than the one asked for.
@Suite struct CurlOptionTests {
    @Test func aRefusedOptionFailsTheRequestBeforeItIsSent() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let client = HTTPClient()
        var options = HTTPRequestOptions()
        options.maxRedirects = -5  // libcurl takes -1 (no limit) and up
        do throws(HTTPError) {
            _ = try await client.send(HTTPRequest(url: "\(server.baseURL)/bytes?n=1", options: options))
            Issue.record("expected an error")
        } catch {
            #expect(error.curlOption == "CURLOPT_MAXREDIRS")
            #expect(error.message.hasPrefix("libcurl refused CURLOPT_MAXREDIRS: "), "\(error.message)")
        }
        #expect(server.snapshot.requests == 0)
        await client.shutdown()
    }

    /// Without nghttp2 libcurl refuses HTTP/2 (CURLE_UNSUPPORTED_PROTOCOL): asked for, that is
    /// an error naming it; `automatic` then simply stays on HTTP/1.1.
    @Test func http2FromALibcurlWithoutIt() throws {
        #expect(throws: Never.self) { try CurlTransfer.requireHTTPVersion(.automatic, CURLE_UNSUPPORTED_PROTOCOL) }
        #expect(throws: Never.self) { try CurlTransfer.requireHTTPVersion(.http2, CURLE_OK) }
        do throws(HTTPError) {
            try CurlTransfer.requireHTTPVersion(.http2, CURLE_UNSUPPORTED_PROTOCOL)
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("built without HTTP/2 support (nghttp2)"))
            #expect(error.curlOption == "CURLOPT_HTTP_VERSION")
        }
        do throws(HTTPError) {
            try CurlTransfer.requireHTTPVersion(.http1_1, CURLE_BAD_FUNCTION_ARGUMENT)
            Issue.record("expected an error")
        } catch {
            #expect(error.curlOption == "CURLOPT_HTTP_VERSION")
        }
    }

    /// The bit-mask form of the redirect restriction, for libcurl before 7.85, keeps its
    /// number (curl.h marks the name deprecated).
    @Test func theLegacyRedirectOptionIsTheLongNumber182() {
        #expect(CurlTransfer.legacyRedirectProtocolsOption.rawValue == 182)
    }
}
