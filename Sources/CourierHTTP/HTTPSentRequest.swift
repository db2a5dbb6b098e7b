/// A request header block as libcurl really sent it: one per hop.
///
/// libcurl adds headers of its own that the caller never set: `Cookie` from its
/// jar, `Authorization: Basic` built from `user:password@` in the URL,
/// `Proxy-Authorization` for a proxy URL with credentials (on the proxy's
/// `CONNECT` too), `Host`, `Accept-Encoding`. Reports and secret masking need
/// what went over the wire, not what was asked for.
public struct HTTPSentRequest: Sendable, Equatable {
    /// `GET /echo HTTP/1.1`, `CONNECT 127.0.0.1:8443 HTTP/1.1`, …
    public var requestLine: String
    public var headers: HTTPHeaders

    public init(requestLine: String, headers: HTTPHeaders) {
        self.requestLine = requestLine
        self.headers = headers
    }

    /// The request line's first word (`GET`, `CONNECT`).
    public var method: String {
        String(requestLine.prefix { $0 != " " })
    }

    /// Whether this block opened a tunnel through a proxy rather than asked the server.
    public var isProxyConnect: Bool { method == "CONNECT" }

    /// Parses one header block (request line, then field lines, CRLF or LF separated).
    ///
    /// Works on the bytes, making one string per name and value: every request's block
    /// is parsed when results record what was sent, so this runs once per request.
    static func parse(_ bytes: ArraySlice<UInt8>) -> HTTPSentRequest? {
        func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var requestLine: String?
        var headers = HTTPHeaders()
        var lineStart = bytes.startIndex
        while lineStart < bytes.endIndex {
            let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            var end = lineEnd
            if end > lineStart && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            if end > lineStart {
                let line = bytes[lineStart..<end]
                if requestLine == nil {
                    requestLine = String(decoding: line, as: UTF8.self)
                } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
                    var valueStart = colon + 1
                    var valueEnd = end
                    while valueStart < valueEnd && isBlank(bytes[valueStart]) { valueStart += 1 }
                    while valueEnd > valueStart && isBlank(bytes[valueEnd - 1]) { valueEnd -= 1 }
                    headers.add(name: String(decoding: line[..<colon], as: UTF8.self),
                                value: String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self))
                }
            }
            lineStart = lineEnd == bytes.endIndex ? lineEnd : lineEnd + 1
        }
        guard let requestLine else { return nil }
        return HTTPSentRequest(requestLine: requestLine, headers: headers)
    }
}
