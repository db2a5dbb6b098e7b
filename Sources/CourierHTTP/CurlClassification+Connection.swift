import CCurl

extension CurlClassification {
    /// Reaching the server: nothing listening, a name that does not resolve, the proxy, timeouts.
    static func connection(_ failure: CurlFailure) -> CurlClassification? {
        let host = failure.host
        switch failure.code {
        case CURLE_COULDNT_CONNECT:
            if let proxy = failure.options.proxy, !proxy.isEmpty,
               CurlErrorPhrase.namesEndpoint(failure.message, host: HTTPError.hostName(of: HTTPError.host(of: proxy)),
                                             port: HTTPError.port(of: proxy)) {
                let shown = URLCredentials.redacting(proxy)
                return CurlClassification(.proxy, option: "CURLOPT_PROXY") { n in
                    "cannot connect to the proxy \(shown)" + (n(.proxy).map { "; check \($0)" } ?? "")
                }
            }
            return CurlClassification(.connectionRefused, hint: "is a server listening on \(host)?")
        case CURLE_COULDNT_RESOLVE_HOST:
            return CurlClassification(.hostNotFound, hint: "check the host name '\(failure.hostName)' and your DNS")
        case CURLE_COULDNT_RESOLVE_PROXY, CURLE_PROXY:
            return CurlClassification(.proxy, option: "CURLOPT_PROXY") { n in
                "check the proxy setting (\(n(.proxy).map { "\($0), " } ?? "")or the *_proxy environment variables)"
            }
        case CURLE_OPERATION_TIMEDOUT:
            return timeout(failure)
        default:
            return nil
        }
    }

    /// Which limit ran out, told by how far the transfer got.
    private static func timeout(_ failure: CurlFailure) -> CurlClassification {
        let (host, options) = (failure.host, failure.options)
        if !failure.context.connected {
            let limit = HTTPError.milliseconds(min(options.connectTimeoutMilliseconds, options.timeoutMilliseconds))
            return CurlClassification(.timeout, option: "CURLOPT_CONNECTTIMEOUT_MS") { n in
                "no connection to \(host) within \(limit)\(HTTPError.parenthesized(n(.connectTimeout))); is the host reachable?"
            }
        }
        let limit = HTTPError.milliseconds(options.timeoutMilliseconds)
        if !failure.context.receivedResponse {
            return CurlClassification(.timeout, option: "CURLOPT_TIMEOUT_MS") { n in
                "no response within \(limit)\(HTTPError.parenthesized(n(.timeout))); raise it if the server is just slow"
            }
        }
        return CurlClassification(.timeout, option: "CURLOPT_TIMEOUT_MS") { n in
            "the response did not finish within \(limit)\(HTTPError.parenthesized(n(.timeout))); the server stalled or is slow"
        }
    }

    /// The URL, or what came back instead of HTTP.
    static func urlOrReply(_ failure: CurlFailure) -> CurlClassification? {
        switch failure.code {
        case CURLE_UNSUPPORTED_PROTOCOL where failure.context.redirectLocation != nil:
            // Only http and https are followed (CURLOPT_REDIR_PROTOCOLS_STR).
            let location = failure.context.redirectLocation ?? ""
            return CurlClassification(.badRedirect, option: "CURLOPT_REDIR_PROTOCOLS_STR",
                                      hint: "the server redirected to '\(location)'; only http and https redirects are followed")
        case CURLE_UNSUPPORTED_PROTOCOL where failure.context.connected, CURLE_WEIRD_SERVER_REPLY:
            // libcurl 7.88 reports an HTTP/0.9 reply (no status line, or a garbage one) and
            // status 000 as an unsupported protocol once connected: the reply, not the URL, is wrong.
            return CurlClassification(.badResponse, hint: HTTPError.badResponseHint(host: failure.host))
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            return CurlClassification(.invalidURL, option: "CURLOPT_URL", hint: "a URL needs a scheme and a host, like http://127.0.0.1:8080/path")
        default:
            return nil
        }
    }
}
