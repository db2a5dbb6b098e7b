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
    private let wording: Wording
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
         curlFunction: String? = nil, curlOption: String? = nil, path: String? = nil) {
        self.kind = kind
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

    public var description: String {
        var text = message
        if curlCode != 0 { text += " (curl error \(curlCode))" }
        if let hint { text += "; \(hint)" }
        return text
    }
}

/// What the transfer knew when libcurl gave up, for telling causes apart.
struct CurlFailureContext {
    /// Whether the TCP connection (and TLS handshake, for HTTPS) was established.
    var connected = false
    /// Whether any response header line arrived.
    var receivedResponse = false
    /// The `Location` of the last response when it was a redirect.
    var redirectLocation: String?
}

extension HTTPError {
    /// Maps a libcurl result and its error buffer to a kind and a hint a user can act on.
    ///
    /// The codes and messages below are what libcurl 7.88 with OpenSSL 3.0 returns against
    /// `Tests/Servers/testserver.py` (see `Tests/IntegrationTests/Transport/TLSTests.swift`).
    init(curlCode code: CURLcode, detail: String, url: String, options: HTTPRequestOptions,
         context: CurlFailureContext = CurlFailureContext()) {
        let name = String(cString: courier_easy_strerror(code))
        var message = detail.isEmpty ? name.lowercased() : detail
        let host = Self.host(of: url)
        let hostName = Self.hostName(of: host)
        let tls = options.tls
        let isHTTPS = url.lowercased().hasPrefix("https:")
        let kind: Kind
        var option: String?
        var path: String?
        // Hints name settings through `n` (nil: neutral words); see `text(naming:)`.
        typealias Names = (HTTPSetting) -> String?
        var hint: @Sendable (Names) -> String? = { _ in nil }
        func constant(_ text: String) -> @Sendable (Names) -> String? { { _ in text } }
        switch code {
        case CURLE_COULDNT_CONNECT:
            if let proxy = options.proxy, !proxy.isEmpty, message.contains(Self.hostName(of: Self.host(of: proxy))),
               message.contains("port \(Self.port(of: proxy))") {
                kind = .proxy
                option = "CURLOPT_PROXY"
                let shown = URLCredentials.redacting(proxy)
                hint = { n in "cannot connect to the proxy \(shown)" + (n(.proxy).map { "; check \($0)" } ?? "") }
            } else {
                kind = .connectionRefused
                hint = constant("is a server listening on \(host)?")
            }
        case CURLE_COULDNT_RESOLVE_HOST:
            kind = .hostNotFound
            hint = constant("check the host name '\(hostName)' and your DNS")
        case CURLE_COULDNT_RESOLVE_PROXY, CURLE_PROXY:
            kind = .proxy
            option = "CURLOPT_PROXY"
            hint = { n in "check the proxy setting (\(n(.proxy).map { "\($0), " } ?? "")or the *_proxy environment variables)" }
        case CURLE_OPERATION_TIMEDOUT:
            kind = .timeout
            if !context.connected {
                option = "CURLOPT_CONNECTTIMEOUT_MS"
                let limit = Self.milliseconds(min(options.connectTimeoutMilliseconds, options.timeoutMilliseconds))
                hint = { n in "no connection to \(host) within \(limit)\(Self.parenthesized(n(.connectTimeout))); is the host reachable?" }
            } else if !context.receivedResponse {
                option = "CURLOPT_TIMEOUT_MS"
                let limit = Self.milliseconds(options.timeoutMilliseconds)
                hint = { n in "no response within \(limit)\(Self.parenthesized(n(.timeout))); raise it if the server is just slow" }
            } else {
                option = "CURLOPT_TIMEOUT_MS"
                let limit = Self.milliseconds(options.timeoutMilliseconds)
                hint = { n in "the response did not finish within \(limit)\(Self.parenthesized(n(.timeout))); the server stalled or is slow" }
            }
        case CURLE_UNSUPPORTED_PROTOCOL where context.redirectLocation != nil:
            // Only http and https are followed (CURLOPT_REDIR_PROTOCOLS_STR).
            kind = .badRedirect
            option = "CURLOPT_REDIR_PROTOCOLS_STR"
            hint = constant("the server redirected to '\(context.redirectLocation ?? "")'; only http and https redirects are followed")
        case CURLE_UNSUPPORTED_PROTOCOL where context.connected, CURLE_WEIRD_SERVER_REPLY:
            // libcurl 7.88 reports an HTTP/0.9 reply (no status line, or a garbage one) and
            // status 000 as an unsupported protocol once connected: the reply, not the URL, is wrong.
            kind = .badResponse
            hint = constant(Self.badResponseHint(host: host))
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            kind = .invalidURL
            option = "CURLOPT_URL"
            hint = constant("a URL needs a scheme and a host, like http://127.0.0.1:8080/path")
        case CURLE_OUT_OF_MEMORY where context.connected:
            // libcurl refuses a header line above CURL_MAX_HTTP_HEADER (100 KB) with
            // "out of memory" ("Avoided giant realloc for header"); memory is fine, and the
            // message says what happened instead.
            kind = .headerTooLarge
            message = "the response has a header line over 100 KB, more than libcurl accepts"
            hint = constant(Self.headerTooLargeHint(host: host))
        case CURLE_RECV_ERROR where message.contains("Too large response headers"):
            // libcurl 7.88 caps the whole header block at 300 KB (many headers).
            kind = .headerTooLarge
            message = "the response's headers are over 300 KB in all, more than libcurl accepts"
            hint = constant(Self.headerTooLargeHint(host: host))
        case CURLE_RECV_ERROR where message.contains("chunked-encoding") || message.contains("chunk"):
            kind = .badResponse
            hint = constant("the server's chunked transfer-encoding is broken (a chunk size is not hexadecimal); \(Self.badResponseHint(host: host))")
        case CURLE_PEER_FAILED_VERIFICATION:
            kind = .tls
            if message.contains("subject name") || message.contains("host name") || message.contains("does not match") {
                hint = constant("the server's certificate is not valid for '\(hostName)': use a host name it was issued for")
            } else {
                option = "CURLOPT_CAINFO"
                hint = { n in
                    "the server's certificate is not trusted: pass its CA" + (n(.caFile).map { " with \($0)" } ?? "")
                        + ", or " + (n(.insecure).map { "set \($0) to skip verification" } ?? "skip verification")
                }
            }
        case CURLE_SSL_CACERT_BADFILE:
            kind = .tls
            option = "CURLOPT_CAINFO"
            path = tls.caPath
            let ca = tls.caPath ?? ""
            hint = { n in "the CA file '\(ca)'\(Self.parenthesized(n(.caFile))) cannot be read or holds no PEM certificate" }
        case CURLE_SSL_CERTPROBLEM:
            kind = .tls
            option = "CURLOPT_SSLCERT"
            path = tls.certificatePath
            let facts = CertificateFacts(message: message, tls: tls)
            hint = { n in Self.certificateProblemHint(facts, n) }
        case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            kind = .pinMismatch
            option = "CURLOPT_PINNEDPUBLICKEY"
            hint = { n in "the server's public key does not match \(n(.pinnedKey) ?? "the pinned key"); if the server's key changed on purpose, update the pin" }
        case CURLE_SSL_CONNECT_ERROR, CURLE_SEND_ERROR, CURLE_RECV_ERROR:
            // A server that requires a client certificate and gets none fails the TLS 1.2
            // handshake (35); under TLS 1.3 the handshake completes and the server's alert
            // (or its reset) surfaces on the first read or write (56 or 55, it varies).
            let certificateRequired = message.contains("certificate required")
            let alert = message.contains("alert")
            if isHTTPS && tls.certificatePath == nil
                && (certificateRequired || (code == CURLE_SSL_CONNECT_ERROR ? alert : !context.receivedResponse))
            {
                kind = .clientCertificateRequired
                option = "CURLOPT_SSLCERT"
                hint = { n in
                    let what = n(.clientCertificate).map { cert in "\(cert) and \(n(.clientKey) ?? "a key")" } ?? "a client certificate and its key"
                    return "does the server require a client certificate? set \(what)"
                }
            } else if isHTTPS && tls.certificatePath != nil && (code == CURLE_SSL_CONNECT_ERROR ? alert : !context.receivedResponse) {
                // Under TLS 1.3 a rejected client certificate shows up like a missing one:
                // an alert, or a reset, on the first read or write.
                kind = .tls
                option = "CURLOPT_SSLCERT"
                path = tls.certificatePath
                let cert = tls.certificatePath ?? ""
                if message.contains("unknown ca") || message.contains("bad certificate") || message.contains("unsupported certificate") {
                    hint = constant("the server rejected the client certificate '\(cert)': is it issued by a CA the server trusts?")
                } else if alert {
                    hint = constant("the server ended the TLS handshake; check the client certificate '\(cert)' and the TLS versions the server accepts")
                } else {
                    hint = constant("the server closed the connection right after the TLS handshake: did it reject the client certificate '\(cert)'? (is it issued by a CA the server trusts?)")
                }
            } else if code == CURLE_SSL_CONNECT_ERROR {
                kind = .tls
                hint = constant("the TLS handshake with \(host) failed; is it an HTTPS server?")
            } else {
                kind = .connectionClosed
                hint = constant("the connection to \(host) broke while the request was in flight")
            }
        case CURLE_GOT_NOTHING:
            kind = .connectionClosed
            hint = constant("the server closed the connection without sending a response")
        case CURLE_PARTIAL_FILE:
            kind = .connectionClosed
            hint = constant("the response body ended before its announced length: the server closed the connection early")
        case CURLE_HTTP2, CURLE_HTTP2_STREAM:
            kind = .connectionClosed
            option = "CURLOPT_HTTP_VERSION"
            hint = { n in "the HTTP/2 stream broke; \(n(.http1_1) ?? "HTTP/1.1") may help with a faulty server" }
        case CURLE_TOO_MANY_REDIRECTS:
            kind = .tooManyRedirects
            option = "CURLOPT_MAXREDIRS"
            let limit = options.maxRedirects
            hint = { n in
                "more than \(limit) redirects; raise \(n(.maxRedirects) ?? "the limit") or \(n(.noFollowRedirects).map { "set \($0)" } ?? "do not follow redirects")"
            }
        case CURLE_FILESIZE_EXCEEDED:
            kind = .responseTooLarge
            option = "CURLOPT_MAXFILESIZE_LARGE"
            let limit = options.maxResponseBytes
            hint = { n in Self.responseTooLargeHint(limit, n) }
        case CURLE_READ_ERROR, CURLE_FILE_COULDNT_READ_FILE:
            kind = .fileUnreadable
            hint = constant("a file to upload could not be read while it was sent")
        case CURLE_ABORTED_BY_CALLBACK:
            kind = .cancelled
        case CURLE_BAD_CONTENT_ENCODING:
            // Corrupt gzip/deflate/br: the server's bytes are wrong, not the transport.
            kind = .badResponse
            option = "CURLOPT_ACCEPT_ENCODING"
            hint = { n in "the body could not be decoded; \(n(.notCompressed).map { "set \($0)" } ?? "ask for it uncompressed") to receive it as sent" }
        default:
            kind = .transport
        }
        let makeHint = hint
        let shownMessage = message
        self.init(kind: kind, curlCode: Int(code.rawValue), wording: Wording { n in (shownMessage, makeHint(n)) },
                  curlOption: option, path: path)
    }

    /// ` (name)`, or nothing for a neutral wording.
    static func parenthesized(_ name: String?) -> String { name.map { " (\($0))" } ?? "" }

    /// What error 58's hint depends on, read once (the files too) when the error is made.
    struct CertificateFacts: Sendable {
        var message: String
        var certificate: String
        var key: String?
        var hasPassword: Bool
        var isPKCS12: Bool
        var legacyPKCS12: Bool
        var encryptedKey: Bool

        init(message: String, tls: TLSOptions) {
            self.message = message
            certificate = tls.certificatePath ?? ""
            key = tls.keyPath
            hasPassword = tls.password != nil
            isPKCS12 = tls.certificateIsPKCS12
            legacyPKCS12 = isPKCS12 && HTTPError.usesLegacyPKCS12Ciphers(at: certificate)
            encryptedKey = HTTPError.isEncryptedPEMKey(at: tls.keyPath ?? certificate)
        }
    }

    /// Error 58: a client certificate, key or PKCS#12 file that OpenSSL would not load.
    private static func certificateProblemHint(_ facts: CertificateFacts, _ n: (HTTPSetting) -> String?) -> String {
        let cert = facts.certificate
        let message = facts.message
        let password = n(.password) ?? "the password"
        if facts.isPKCS12 {
            // OpenSSL's error queue is per thread and libcurl reports its oldest entry, which
            // may be left over from an earlier failure: look at the file, not just the message.
            if message.contains("0308010C") || facts.legacyPKCS12 {
                return "'\(cert)' uses legacy PKCS#12 algorithms (RC2/RC4) that OpenSSL 3 loads only with its legacy provider: "
                    + "enable it through OPENSSL_CONF, or re-export the file: openssl pkcs12 -legacy -in old.p12 -nodes | openssl pkcs12 -export -out new.p12"
                    + (!facts.hasPassword ? "; it may also need \(password)" : "; if the provider is enabled already, check \(password)")
            }
            if message.contains("mac verify") || message.contains("password") {
                return !facts.hasPassword
                    ? "'\(cert)' is protected by a password: set \(password)"
                    : "wrong \(password) for '\(cert)'"
            }
            return "check that '\(cert)' is a PKCS#12 file and that \(password) is right"
        }
        if message.contains("private key") || message.contains("key file") {
            let key = facts.key ?? cert
            if facts.encryptedKey {
                return !facts.hasPassword
                    ? "the key '\(key)' is encrypted: set \(password)"
                    : "wrong \(password) for the encrypted key '\(key)'"
            }
            return "the key '\(key)'\(parenthesized(n(.clientKey))) does not belong to the certificate '\(cert)', or is not a PEM private key"
        }
        if facts.key == nil && !message.contains("certificate file") {
            return "'\(cert)' holds no private key: set \(n(.clientKey) ?? "its key")"
        }
        return "'\(cert)'\(parenthesized(n(.clientCertificate))) must be a PEM certificate, or PKCS#12 named .p12/.pfx"
    }

    /// Whether a PKCS#12 file names an RC2 or RC4 PBE algorithm (OIDs 1.2.840.113549.1.12.1.1,
    /// .2, .5, .6), which OpenSSL 3 has only in its legacy provider.
    static func usesLegacyPKCS12Ciphers(at path: String) -> Bool {
        guard let file = fopen(path, "rb") else { return false }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: 256 * 1024)
        bytes.removeSubrange(fread(&bytes, 1, bytes.count, file)...)
        let prefix: [UInt8] = [0x06, 0x0A, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x0C, 0x01]
        guard bytes.count > prefix.count else { return false }
        for start in 0..<(bytes.count - prefix.count) where bytes[start] == 0x06 {
            if bytes[start..<start + prefix.count].elementsEqual(prefix), [1, 2, 5, 6].contains(bytes[start + prefix.count]) {
                return true
            }
        }
        return false
    }

    static func isEncryptedPEMKey(at path: String) -> Bool {
        guard let file = fopen(path, "rb") else { return false }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = fread(&buffer, 1, buffer.count, file)
        let head = String(decoding: buffer.prefix(count), as: UTF8.self)
        return head.contains("ENCRYPTED")
    }

    static func badResponseHint(host: String) -> String {
        "the server at \(host) did not answer in valid HTTP/1.1 or HTTP/2: is it an HTTP server, and is it working properly?"
    }

    static func headerTooLargeHint(host: String) -> String {
        "the server at \(host) sent response headers larger than an HTTP client accepts (100 KB per line, 300 KB in all); a misbehaving server or proxy?"
    }

    static func responseTooLargeHint(_ limit: Int, _ n: (HTTPSetting) -> String?) -> String {
        "bodies are kept in memory up to \(ByteCount.format(limit)); raise the limit\(n(.maxResponseBytes).map { " with \($0)" } ?? "") if this body is expected"
    }

    static func milliseconds(_ value: Int) -> String { "\(value) ms" }

    /// `host:port` of a URL, without any `user:password@` (hints must not show credentials).
    static func host(of url: String) -> String {
        var rest = Substring(url)
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        rest = rest[..<end]
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        return String(rest)
    }

    /// The port of a URL, explicit or the scheme's default (proxies default to 1080 in libcurl).
    static func port(of url: String) -> String {
        let host = Self.host(of: url)
        if !host.hasSuffix("]"), let colon = host.lastIndex(of: ":") { return String(host[host.index(after: colon)...]) }
        if url.lowercased().hasPrefix("https:") { return "443" }
        return url.lowercased().hasPrefix("http:") ? "80" : "1080"
    }

    /// `127.0.0.1:8443` → `127.0.0.1`, `[::1]:80` → `::1`.
    static func hostName(of host: String) -> String {
        var host = Substring(host)
        if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            return String(host[host.index(after: host.startIndex)..<close])
        }
        if let colon = host.lastIndex(of: ":") { return String(host[..<colon]) }
        return String(host)
    }
}
