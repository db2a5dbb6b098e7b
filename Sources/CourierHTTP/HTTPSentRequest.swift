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
    static func parse(_ bytes: ArraySlice<UInt8>) -> HTTPSentRequest? {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).map { line -> Substring in
            var line = line
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            return Substring(String(decoding: line, as: UTF8.self))
        }
        lines.removeAll { $0.isEmpty }
        guard let first = lines.first else { return nil }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = String(line[..<colon])
            var value = line[line.index(after: colon)...]
            while let c = value.first, c == " " || c == "\t" { value.removeFirst() }
            while let c = value.last, c == " " || c == "\t" { value.removeLast() }
            headers.add(name: name, value: String(value))
        }
        return HTTPSentRequest(requestLine: String(first), headers: headers)
    }
}
