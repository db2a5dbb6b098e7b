/// A response as received, with how long each phase took.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// `"1.1"`, `"2"`, …
    public var httpVersion: String
    public var headers: HTTPHeaders
    /// The body, decoded when the server compressed it.
    public var body: [UInt8]
    /// The URL of the last hop.
    public var effectiveURL: String
    public var timings: HTTPTimings
    /// Every redirect response that led here, oldest first. Empty without redirects.
    public var redirects: [HTTPRedirectHop]
    /// Whether an existing connection was reused (no new connect, no new TLS handshake).
    public var reusedConnection: Bool
    /// The request header blocks libcurl sent, oldest first: one per redirect hop,
    /// a proxy's `CONNECT`, a repeat after `100 Continue` or an auth challenge.
    /// Recorded when libcurl may add credentials of its own, or always with
    /// ``HTTPRequestOptions/recordSentRequests``; empty otherwise and from transports
    /// that do not know them.
    public var sentRequests: [HTTPSentRequest]

    public init(
        status: Int,
        httpVersion: String = "1.1",
        headers: HTTPHeaders = [:],
        body: [UInt8] = [],
        effectiveURL: String = "",
        timings: HTTPTimings = HTTPTimings(),
        redirects: [HTTPRedirectHop] = [],
        reusedConnection: Bool = false,
        sentRequests: [HTTPSentRequest] = []
    ) {
        self.status = status
        self.httpVersion = httpVersion
        self.headers = headers
        self.body = body
        self.effectiveURL = effectiveURL
        self.timings = timings
        self.redirects = redirects
        self.reusedConnection = reusedConnection
        self.sentRequests = sentRequests
    }

    /// The body as text, decoded with the charset its `Content-Type` declares (UTF-8 when
    /// none is, and for JSON), with invalid sequences repaired. Decodes on every call:
    /// keep the result when it is needed more than once.
    public var text: String { CharsetDecoder.decode(body, charset: charset).text }

    /// The charset the body's text is in, as `Content-Type` declares it; nil for UTF-8
    /// (see ``BodyCharset``).
    public var charset: String? { BodyCharset.declared(byContentType: headers["Content-Type"]) }
}

/// One redirect response: what the server said and where it pointed.
public struct HTTPRedirectHop: Sendable {
    public var url: String
    public var status: Int
    public var headers: HTTPHeaders

    public init(url: String, status: Int, headers: HTTPHeaders) {
        self.url = url
        self.status = status
        self.headers = headers
    }
}

/// Phase durations in microseconds, each measured from the start of the request
/// (libcurl's `*_TIME_T` values).
public struct HTTPTimings: Sendable, Equatable {
    public var nameLookup: Int = 0
    public var connect: Int = 0
    /// TLS handshake done; 0 for plain HTTP.
    public var tls: Int = 0
    public var preTransfer: Int = 0
    /// First response byte.
    public var firstByte: Int = 0
    public var total: Int = 0
    /// Time spent following redirects.
    public var redirect: Int = 0

    public init() {}
}
