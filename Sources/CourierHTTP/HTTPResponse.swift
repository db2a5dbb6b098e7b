/// A response as received, with how long each phase took.
public struct HTTPResponse: Sendable {
    /// The final status code (after redirects that were followed).
    public var status: Int
    /// `"1.1"`, `"2"`, …
    public var httpVersion: String
    /// The final response's header fields, in the order received.
    public var headers: HTTPHeaders
    /// The body, decoded when the server compressed it; empty when the request sent it
    /// to a file or a stream (``HTTPRequest/responseBody``).
    public var body: [UInt8]
    /// The body as received, before its `Content-Encoding` was undone, when the request
    /// asked for it (``HTTPRequestOptions/keepsEncodedBody``) and there was a coding to undo;
    /// nil otherwise, ``body`` then being the bytes as received.
    public var encodedBody: [UInt8]?
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

    /// A response; transports other than ``HTTPClient`` (test doubles) build their own.
    public init(
        status: Int,
        httpVersion: String = "1.1",
        headers: HTTPHeaders = [:],
        body: [UInt8] = [],
        encodedBody: [UInt8]? = nil,
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
        self.encodedBody = encodedBody
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
    /// The URL this hop requested.
    public var url: String
    /// The redirect's status (301, 302, 303, 307, 308).
    public var status: Int
    /// The redirect response's header fields, `Location` among them.
    public var headers: HTTPHeaders

    /// A hop as recorded.
    public init(url: String, status: Int, headers: HTTPHeaders) {
        self.url = url
        self.status = status
        self.headers = headers
    }
}

/// Phase durations in microseconds, each measured from the start of the request
/// (libcurl's `*_TIME_T` values).
public struct HTTPTimings: Sendable, Equatable {
    /// DNS resolution done.
    public var nameLookup: Int = 0
    /// TCP connection established.
    public var connect: Int = 0
    /// TLS handshake done; 0 for plain HTTP.
    public var tls: Int = 0
    /// About to send the request.
    public var preTransfer: Int = 0
    /// First response byte.
    public var firstByte: Int = 0
    /// The whole transfer.
    public var total: Int = 0
    /// Time spent following redirects.
    public var redirect: Int = 0

    /// All zero.
    public init() {}
}
