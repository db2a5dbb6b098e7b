import CCurl

/// Why a request produced no response.
///
/// A struct with a private code so that cases can be added without breaking
/// users; compare against the static members (`error.kind == .timeout`).
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        enum Code: Sendable, Hashable {
            case connectionRefused, hostNotFound, timeout, tls, clientCertificateRequired
            case pinMismatch, responseTooLarge, invalidURL, fileUnreadable, cancelled
            case connectionClosed, proxy, tooManyRedirects, transport
        }
        let code: Code

        public static let connectionRefused = Kind(code: .connectionRefused)
        public static let hostNotFound = Kind(code: .hostNotFound)
        public static let timeout = Kind(code: .timeout)
        /// Any TLS failure: handshake, verification, certificate or key files.
        public static let tls = Kind(code: .tls)
        /// The server closed the handshake, most likely for want of a client certificate.
        public static let clientCertificateRequired = Kind(code: .clientCertificateRequired)
        public static let pinMismatch = Kind(code: .pinMismatch)
        public static let responseTooLarge = Kind(code: .responseTooLarge)
        public static let invalidURL = Kind(code: .invalidURL)
        public static let fileUnreadable = Kind(code: .fileUnreadable)
        public static let cancelled = Kind(code: .cancelled)
        /// The server closed the connection or sent a truncated response.
        public static let connectionClosed = Kind(code: .connectionClosed)
        public static let proxy = Kind(code: .proxy)
        public static let tooManyRedirects = Kind(code: .tooManyRedirects)
        public static let transport = Kind(code: .transport)

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
            }
        }
    }

    public let kind: Kind
    /// libcurl's `CURLcode`, 0 when the error did not come from libcurl.
    public let curlCode: Int
    /// What happened, in libcurl's words or ours.
    public let message: String
    /// What a user can do about it, when we know.
    public let hint: String?

    public init(kind: Kind, curlCode: Int = 0, message: String, hint: String? = nil) {
        self.kind = kind
        self.curlCode = curlCode
        self.message = message
        self.hint = hint
    }

    public var description: String {
        var text = message
        if curlCode != 0 { text += " (curl error \(curlCode))" }
        if let hint { text += "; \(hint)" }
        return text
    }
}

extension HTTPError {
    /// Maps a libcurl result and its error buffer to a kind and a hint a user can act on.
    init(curlCode code: CURLcode, detail: String, url: String, options: HTTPRequestOptions) {
        let name = String(cString: courier_easy_strerror(code))
        let message = detail.isEmpty ? name.lowercased() : detail
        let host = Self.host(of: url)
        let kind: Kind
        var hint: String?
        switch code {
        case CURLE_COULDNT_CONNECT:
            kind = .connectionRefused
            hint = "is a server listening on \(host)?"
        case CURLE_COULDNT_RESOLVE_HOST:
            kind = .hostNotFound
            hint = "check the host name '\(host)' and your DNS"
        case CURLE_COULDNT_RESOLVE_PROXY, CURLE_PROXY:
            kind = .proxy
            hint = "check the proxy setting (proxy: or the *_proxy environment variables)"
        case CURLE_OPERATION_TIMEDOUT:
            kind = .timeout
            hint = "raise 'timeout' (now \(options.timeoutMilliseconds) ms) or 'connect_timeout' (now \(options.connectTimeoutMilliseconds) ms) if the server is just slow"
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            kind = .invalidURL
            hint = "a URL needs a scheme and a host, like http://127.0.0.1:8080/path"
        case CURLE_PEER_FAILED_VERIFICATION:
            kind = .tls
            if message.contains("subject") || message.contains("name") {
                hint = "the certificate is not valid for \(host); use the name it was issued for"
            } else {
                hint = "the server's certificate is not trusted: pass its CA with 'tls.ca' (or --cacert), or 'tls.insecure: true' to skip verification"
            }
        case CURLE_SSL_CACERT_BADFILE:
            kind = .tls
            hint = "the CA file given in 'tls.ca' cannot be read or holds no PEM certificate"
        case CURLE_SSL_CERTPROBLEM:
            kind = .tls
            if options.tls.certificateIsPKCS12 {
                hint = "check the PKCS#12 password ('tls.password'); a legacy (RC2/3DES) .p12 needs OpenSSL's legacy provider (OPENSSL_CONF) or re-exporting with modern algorithms"
            } else {
                hint = "check that 'tls.cert' is a readable PEM certificate and that 'tls.key' matches it"
            }
        case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            kind = .pinMismatch
            hint = "the server's public key does not match 'tls.pinned_key'"
        case CURLE_SSL_CONNECT_ERROR, CURLE_SEND_ERROR, CURLE_RECV_ERROR:
            // Without a client certificate that the server requires, TLS 1.2 fails
            // the handshake (35) and TLS 1.3 fails on the first read or write (55/56).
            let handshakeAlert = message.contains("alert") || message.contains("certificate required")
            if options.tls.certificatePath == nil && url.lowercased().hasPrefix("https:")
                && (code == CURLE_SSL_CONNECT_ERROR || handshakeAlert)
            {
                kind = .clientCertificateRequired
                hint = "does the server require a client certificate? set 'tls.cert' and 'tls.key' (or --cert/--key)"
            } else if code == CURLE_SSL_CONNECT_ERROR {
                kind = .tls
                hint = "the TLS handshake with \(host) failed"
            } else {
                kind = .connectionClosed
                hint = "the connection to \(host) broke while the request was in flight"
            }
        case CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            kind = .connectionClosed
            hint = code == CURLE_PARTIAL_FILE
                ? "the response body ended before its announced length"
                : "the server closed the connection without a complete response"
        case CURLE_TOO_MANY_REDIRECTS:
            kind = .tooManyRedirects
            hint = "more than \(options.maxRedirects) redirects; raise 'max_redirects' or set 'follow_redirects: false'"
        case CURLE_READ_ERROR, CURLE_FILE_COULDNT_READ_FILE:
            kind = .fileUnreadable
        case CURLE_ABORTED_BY_CALLBACK:
            kind = .cancelled
        default:
            kind = .transport
        }
        self.init(kind: kind, curlCode: Int(code.rawValue), message: message, hint: hint)
    }

    static func host(of url: String) -> String {
        var rest = Substring(url)
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        return String(rest[..<end])
    }
}
