import CCurl
import Foundation

/// Why a request produced no response.
///
/// A struct with a private code so that cases can be added without breaking
/// users; compare against the static members (`error.kind == .timeout`).
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it was, for code to branch on.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        enum Code: Sendable, Hashable {
            case connectionRefused, hostNotFound, timeout, tls, clientCertificateRequired
            case pinMismatch, responseTooLarge, invalidURL, fileUnreadable, cancelled
            case connectionClosed, proxy, tooManyRedirects, transport
            case badResponse, headerTooLarge, badRedirect, requestBodyTooLarge
            case clientShutDown, fileUnwritable, invalidHeader
        }
        let code: Code

        /// Nothing accepted the connection (no server on that port).
        public static let connectionRefused = Kind(code: .connectionRefused)
        /// The host name did not resolve.
        public static let hostNotFound = Kind(code: .hostNotFound)
        /// A timeout ran out: see ``HTTPError/curlOption`` for which (connect or total).
        public static let timeout = Kind(code: .timeout)
        /// Any TLS failure: handshake, verification, certificate or key files.
        public static let tls = Kind(code: .tls)
        /// The server closed the handshake, most likely for want of a client certificate.
        public static let clientCertificateRequired = Kind(code: .clientCertificateRequired)
        /// The server's public key does not match the pinned one.
        public static let pinMismatch = Kind(code: .pinMismatch)
        /// The body exceeded ``HTTPRequestOptions/maxResponseBytes``.
        public static let responseTooLarge = Kind(code: .responseTooLarge)
        /// The URL is malformed or not http/https.
        public static let invalidURL = Kind(code: .invalidURL)
        /// A file to send cannot be read (see ``HTTPError/path``).
        public static let fileUnreadable = Kind(code: .fileUnreadable)
        /// The calling task was cancelled.
        public static let cancelled = Kind(code: .cancelled)
        /// The server closed the connection or sent a truncated response.
        public static let connectionClosed = Kind(code: .connectionClosed)
        /// The proxy could not be resolved, reached or used.
        public static let proxy = Kind(code: .proxy)
        /// More redirects than ``HTTPRequestOptions/maxRedirects``.
        public static let tooManyRedirects = Kind(code: .tooManyRedirects)
        /// Any other libcurl failure (see ``HTTPError/curlCode``).
        public static let transport = Kind(code: .transport)
        /// The server's reply is not valid HTTP: a garbage or HTTP/0.9 status line, status
        /// `000`, broken chunking, two different `Content-Length`s.
        public static let badResponse = Kind(code: .badResponse)
        /// A response header line, or the whole header block, is larger than libcurl accepts.
        public static let headerTooLarge = Kind(code: .headerTooLarge)
        /// A redirect to a URL that is not `http` or `https` (`file://`), which is never followed.
        public static let badRedirect = Kind(code: .badRedirect)
        /// A request body read into memory (from a pipe or standard input) exceeded its limit.
        public static let requestBodyTooLarge = Kind(code: .requestBodyTooLarge)
        /// The client was shut down before or while the request ran (``HTTPClient/shutdown()``).
        public static let clientShutDown = Kind(code: .clientShutDown)
        /// The file a response body was to be written to could not be created or written.
        public static let fileUnwritable = Kind(code: .fileUnwritable)
        /// A header name or value holds a line break or NUL: libcurl would send what follows
        /// the break as header lines of their own (header injection), so nothing is sent.
        public static let invalidHeader = Kind(code: .invalidHeader)

        /// A short name for reports (`type` attribute of a JUnit `<error>`).
        public var description: String {
            switch code {
            case .connectionRefused: "connection_refused"
            case .hostNotFound: "host_not_found"
            case .timeout: "timeout"
            case .tls: "tls"
            case .clientCertificateRequired: "tls_client_certificate"
            case .pinMismatch: "tls_pin_mismatch"
            case .responseTooLarge: "response_too_large"
            case .invalidURL: "invalid_url"
            case .fileUnreadable: "file_unreadable"
            case .cancelled: "cancelled"
            case .connectionClosed: "connection_closed"
            case .proxy: "proxy"
            case .tooManyRedirects: "too_many_redirects"
            case .transport: "transport"
            case .badResponse: "bad_response"
            case .headerTooLarge: "header_too_large"
            case .badRedirect: "bad_redirect"
            case .requestBodyTooLarge: "request_body_too_large"
            case .clientShutDown: "client_shut_down"
            case .fileUnwritable: "file_unwritable"
            case .invalidHeader: "invalid_header"
            }
        }
    }

    /// What kind of failure it was.
    public let kind: Kind
    /// libcurl's `CURLcode`, 0 when the error did not come from libcurl.
    public let curlCode: Int
    /// What happened, in libcurl's words or ours, naming settings neutrally.
    public var message: String { wording.make { _ in nil }.message }
    /// What a user can do about it, when we know, naming settings neutrally.
    public var hint: String? { wording.make { _ in nil }.hint }
    /// Builds the message and hint with a naming of settings (see ``text(naming:)``).
    private var wording: Wording
    /// Set while the wording depends on files not read yet (error 58: see ``explainingFiles()``).
    private(set) var unreadFiles: CertificateProblem?
    /// The request header blocks libcurl sent before it failed (see ``HTTPResponse/sentRequests``).
    public var sentRequests: [HTTPSentRequest]
    /// The libcurl function that failed when it was not the transfer itself
    /// (`curl_multi_add_handle`, `curl_slist_append`, …), else nil.
    public var curlFunction: String?
    /// The libcurl option the failure is about, e.g. `CURLOPT_CAINFO` for a CA file
    /// that cannot be read, `CURLOPT_CONNECTTIMEOUT_MS` for a connect timeout.
    public var curlOption: String?
    /// The file involved: a body, certificate, key or CA file that cannot be read, or the
    /// file a response was to be written to.
    public var path: String?

    /// - Parameters:
    ///   - kind: What went wrong, for code to branch on.
    ///   - curlCode: libcurl's `CURLcode`, 0 when the error did not come from libcurl.
    ///   - message: What happened, in neutral words (no setting or flag names).
    ///   - hint: What a user can do about it.
    ///   - sentRequests: The request header blocks sent before the failure.
    ///   - curlFunction: The libcurl function that failed, when it was not the transfer.
    ///   - curlOption: The libcurl option involved.
    ///   - path: The file involved.
    public init(kind: Kind, curlCode: Int = 0, message: String, hint: String? = nil, sentRequests: [HTTPSentRequest] = [],
                curlFunction: String? = nil, curlOption: String? = nil, path: String? = nil) {
        self.init(kind: kind, curlCode: curlCode, wording: Wording { _ in (message, hint) }, sentRequests: sentRequests,
                  curlFunction: curlFunction, curlOption: curlOption, path: path)
    }

    init(kind: Kind, curlCode: Int = 0, wording: Wording, sentRequests: [HTTPSentRequest] = [],
         curlFunction: String? = nil, curlOption: String? = nil, path: String? = nil, unreadFiles: CertificateProblem? = nil) {
        self.kind = kind
        self.unreadFiles = unreadFiles
        self.curlCode = curlCode
        self.wording = wording
        self.sentRequests = sentRequests
        self.curlFunction = curlFunction
        self.curlOption = curlOption
        self.path = path
    }

    /// What a request still in flight, or submitted afterwards, gets from a client that was shut down.
    static let shutDown = HTTPError(kind: .clientShutDown, message: "the HTTP client was shut down")

    /// A failing `curl_multi_*` call.
    init(multiCode code: CURLMcode, function: String) {
        let reason = courier_multi_strerror(code).map { String(cString: $0) } ?? "error \(code.rawValue)"
        self.init(kind: .transport, message: "\(function) failed: \(reason)", curlFunction: function)
    }

    /// The message and hint with settings named as `naming` says (nil: the neutral
    /// wording), e.g. `{ $0 == .connectTimeout ? "'connect_timeout'" : nil }`.
    public func text(naming: (HTTPSetting) -> String?) -> (message: String, hint: String?) {
        wording.make(naming)
    }

    /// Message and hint, built late so the layer above can name settings its own way.
    struct Wording: Sendable {
        let make: @Sendable ((HTTPSetting) -> String?) -> (message: String, hint: String?)
    }

    /// The error with the files its wording depends on read, so that making its text reads none.
    ///
    /// Classifying a libcurl failure happens on the driver thread, which must not do file I/O:
    /// it records what error 58's hint needs to look at (``unreadFiles``), and
    /// ``HTTPClient/execute(_:)`` calls this off that thread before the caller sees the error.
    /// Until then the wording reads the files each time it is made.
    func explainingFiles() -> HTTPError {
        guard let problem = unreadFiles else { return self }
        let contents = CertificateFileContents(reading: problem)
        var explained = self
        explained.wording = Wording { n in (problem.message, problem.hint(contents, n)) }
        explained.unreadFiles = nil
        return explained
    }

    public var description: String {
        var text = message
        if curlCode != 0 { text += " (curl error \(curlCode))" }
        if let hint { text += "; \(hint)" }
        return text
    }
}
