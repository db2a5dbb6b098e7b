import CCurl

extension CurlClassification {
    /// The response: headers too large, broken framing or encoding, cut short, over a limit.
    static func response(_ failure: CurlFailure) -> CurlClassification? {
        let (host, options) = (failure.host, failure.options)
        switch failure.code {
        case CURLE_OUT_OF_MEMORY where failure.context.connected:
            // libcurl refuses a header line above CURL_MAX_HTTP_HEADER (100 KB) with
            // "out of memory" ("Avoided giant realloc for header"); memory is fine, and the
            // message says what happened instead.
            return CurlClassification(.headerTooLarge, message: "the response has a header line over 100 KB, more than libcurl accepts",
                                      hint: HTTPError.headerTooLargeHint(host: host))
        case CURLE_RECV_ERROR where failure.says(.headersTooLarge):
            // libcurl 7.88 caps the whole header block at 300 KB (many headers).
            return CurlClassification(.headerTooLarge, message: "the response's headers are over 300 KB in all, more than libcurl accepts",
                                      hint: HTTPError.headerTooLargeHint(host: host))
        case CURLE_RECV_ERROR where failure.says(.brokenChunk):
            return CurlClassification(.badResponse, hint: "the server's chunked transfer-encoding is broken (a chunk size is not hexadecimal); "
                                          + HTTPError.badResponseHint(host: host))
        case CURLE_GOT_NOTHING:
            return CurlClassification(.connectionClosed, hint: "the server closed the connection without sending a response")
        case CURLE_PARTIAL_FILE:
            return CurlClassification(.connectionClosed,
                                      hint: "the response body ended before its announced length: the server closed the connection early")
        case CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return CurlClassification(.connectionClosed, option: "CURLOPT_HTTP_VERSION") { n in
                "the HTTP/2 stream broke; \(n(.http1_1) ?? "HTTP/1.1") may help with a faulty server"
            }
        case CURLE_TOO_MANY_REDIRECTS:
            let limit = options.maxRedirects
            return CurlClassification(.tooManyRedirects, option: "CURLOPT_MAXREDIRS") { n in
                "more than \(limit) redirects; raise \(n(.maxRedirects) ?? "the limit") or \(n(.noFollowRedirects).map { "set \($0)" } ?? "do not follow redirects")"
            }
        case CURLE_FILESIZE_EXCEEDED:
            let limit = options.maxResponseBytes
            return CurlClassification(.responseTooLarge, option: "CURLOPT_MAXFILESIZE_LARGE") { n in HTTPError.responseTooLargeHint(limit, n) }
        case CURLE_BAD_CONTENT_ENCODING:
            // Corrupt gzip/deflate/br: the server's bytes are wrong, not the transport.
            return CurlClassification(.badResponse, option: "CURLOPT_ACCEPT_ENCODING") { n in
                "the body could not be decoded; \(n(.notCompressed).map { "set \($0)" } ?? "ask for it uncompressed") to receive it as sent"
            }
        default:
            return nil
        }
    }
}
