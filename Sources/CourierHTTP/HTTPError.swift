import CCurl
import Foundation

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
            case badResponse, headerTooLarge, badRedirect, requestBodyTooLarge
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
        /// The server's reply is not valid HTTP: a garbage or HTTP/0.9 status line, status
        /// `000`, broken chunking, two different `Content-Length`s.
        public static let badResponse = Kind(code: .badResponse)
        /// A response header line, or the whole header block, is larger than libcurl accepts.
        public static let headerTooLarge = Kind(code: .headerTooLarge)
        /// A redirect to a URL that is not `http` or `https` (`file://`), which is never followed.
        public static let badRedirect = Kind(code: .badRedirect)
        /// A request body read into memory (from a pipe or standard input) exceeded its limit.
        public static let requestBodyTooLarge = Kind(code: .requestBodyTooLarge)

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
    /// The request header blocks libcurl sent before it failed (see ``HTTPResponse/sentRequests``).
    public var sentRequests: [HTTPSentRequest]

    public init(kind: Kind, curlCode: Int = 0, message: String, hint: String? = nil, sentRequests: [HTTPSentRequest] = []) {
        self.kind = kind
        self.curlCode = curlCode
        self.message = message
        self.hint = hint
        self.sentRequests = sentRequests
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
        let message = detail.isEmpty ? name.lowercased() : detail
        let host = Self.host(of: url)
        let hostName = Self.hostName(of: host)
        let tls = options.tls
        let isHTTPS = url.lowercased().hasPrefix("https:")
        let kind: Kind
        var hint: String?
        switch code {
        case CURLE_COULDNT_CONNECT:
            if let proxy = options.proxy, !proxy.isEmpty, message.contains(Self.hostName(of: Self.host(of: proxy))),
               message.contains("port \(Self.port(of: proxy))") {
                kind = .proxy
                hint = "cannot connect to the proxy \(URLCredentials.redacting(proxy)); check 'proxy' or --proxy"
            } else {
                kind = .connectionRefused
                hint = "is a server listening on \(host)?"
            }
        case CURLE_COULDNT_RESOLVE_HOST:
            kind = .hostNotFound
            hint = "check the host name '\(hostName)' and your DNS"
        case CURLE_COULDNT_RESOLVE_PROXY, CURLE_PROXY:
            kind = .proxy
            hint = "check the proxy setting ('proxy', --proxy or the *_proxy environment variables)"
        case CURLE_OPERATION_TIMEDOUT:
            kind = .timeout
            if !context.connected {
                hint = "no connection to \(host) within \(Self.milliseconds(min(options.connectTimeoutMilliseconds, options.timeoutMilliseconds))) ('connect_timeout'); is the host reachable?"
            } else if !context.receivedResponse {
                hint = "no response within \(Self.milliseconds(options.timeoutMilliseconds)) ('timeout'); raise it if the server is just slow"
            } else {
                hint = "the response did not finish within \(Self.milliseconds(options.timeoutMilliseconds)) ('timeout'); the server stalled or is slow"
            }
        case CURLE_UNSUPPORTED_PROTOCOL where context.redirectLocation != nil:
            // Only http and https are followed (CURLOPT_REDIR_PROTOCOLS_STR).
            kind = .badRedirect
            hint = "the server redirected to '\(context.redirectLocation ?? "")'; only http and https redirects are followed"
        case CURLE_UNSUPPORTED_PROTOCOL where context.connected, CURLE_WEIRD_SERVER_REPLY:
            // libcurl 7.88 reports an HTTP/0.9 reply (no status line, or a garbage one) and
            // status 000 as an unsupported protocol once connected: the reply, not the URL, is wrong.
            kind = .badResponse
            hint = Self.badResponseHint(host: host)
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            kind = .invalidURL
            hint = "a URL needs a scheme and a host, like http://127.0.0.1:8080/path"
        case CURLE_OUT_OF_MEMORY where context.connected:
            // libcurl refuses a header line above CURL_MAX_HTTP_HEADER (100 KB) with
            // "out of memory" ("Avoided giant realloc for header"); memory is fine.
            kind = .headerTooLarge
            hint = Self.headerTooLargeHint(host: host)
        case CURLE_RECV_ERROR where message.contains("Too large response headers"):
            // libcurl 7.88 caps the whole header block at 300 KB (many headers).
            kind = .headerTooLarge
            hint = Self.headerTooLargeHint(host: host)
        case CURLE_RECV_ERROR where message.contains("chunked-encoding") || message.contains("chunk"):
            kind = .badResponse
            hint = "the server's chunked transfer-encoding is broken (a chunk size is not hexadecimal); \(Self.badResponseHint(host: host))"
        case CURLE_PEER_FAILED_VERIFICATION:
            kind = .tls
            if message.contains("subject name") || message.contains("host name") || message.contains("does not match") {
                hint = "the server's certificate is not valid for '\(hostName)': use a host name it was issued for"
            } else {
                hint = "the server's certificate is not trusted: pass its CA with 'tls.ca' (or --cacert), or set 'tls.insecure: true' to skip verification"
            }
        case CURLE_SSL_CACERT_BADFILE:
            kind = .tls
            hint = "the CA file '\(tls.caPath ?? "")' ('tls.ca' or --cacert) cannot be read or holds no PEM certificate"
        case CURLE_SSL_CERTPROBLEM:
            kind = .tls
            hint = Self.certificateProblemHint(message: message, tls: tls)
        case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            kind = .pinMismatch
            hint = "the server's public key does not match 'tls.pinned_key'; if the server's key changed on purpose, update the pin"
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
                hint = "does the server require a client certificate? set 'tls.cert' and 'tls.key' (or --cert/--key)"
            } else if isHTTPS && tls.certificatePath != nil && (code == CURLE_SSL_CONNECT_ERROR ? alert : !context.receivedResponse) {
                // Under TLS 1.3 a rejected client certificate shows up like a missing one:
                // an alert, or a reset, on the first read or write.
                kind = .tls
                let cert = tls.certificatePath ?? ""
                if message.contains("unknown ca") || message.contains("bad certificate") || message.contains("unsupported certificate") {
                    hint = "the server rejected the client certificate '\(cert)': is it issued by a CA the server trusts?"
                } else if alert {
                    hint = "the server ended the TLS handshake; check the client certificate '\(cert)' and the TLS versions the server accepts"
                } else {
                    hint = "the server closed the connection right after the TLS handshake: did it reject the client certificate '\(cert)'? (is it issued by a CA the server trusts?)"
                }
            } else if code == CURLE_SSL_CONNECT_ERROR {
                kind = .tls
                hint = "the TLS handshake with \(host) failed; is it an HTTPS server?"
            } else {
                kind = .connectionClosed
                hint = "the connection to \(host) broke while the request was in flight"
            }
        case CURLE_GOT_NOTHING:
            kind = .connectionClosed
            hint = "the server closed the connection without sending a response"
        case CURLE_PARTIAL_FILE:
            kind = .connectionClosed
            hint = "the response body ended before its announced length: the server closed the connection early"
        case CURLE_HTTP2, CURLE_HTTP2_STREAM:
            kind = .connectionClosed
            hint = "the HTTP/2 stream broke; 'http_version: 1.1' may help with a faulty server"
        case CURLE_TOO_MANY_REDIRECTS:
            kind = .tooManyRedirects
            hint = "more than \(options.maxRedirects) redirects; raise 'max_redirects' or set 'follow_redirects: false'"
        case CURLE_FILESIZE_EXCEEDED:
            kind = .responseTooLarge
            hint = Self.responseTooLargeHint(options.maxResponseBytes)
        case CURLE_READ_ERROR, CURLE_FILE_COULDNT_READ_FILE:
            kind = .fileUnreadable
            hint = "a file to upload could not be read while it was sent"
        case CURLE_ABORTED_BY_CALLBACK:
            kind = .cancelled
        case CURLE_BAD_CONTENT_ENCODING:
            // Corrupt gzip/deflate/br: the server's bytes are wrong, not the transport.
            kind = .badResponse
            hint = "the body could not be decoded; set 'compressed: false' to receive it as sent"
        default:
            kind = .transport
        }
        self.init(kind: kind, curlCode: Int(code.rawValue), message: message, hint: hint)
    }

    /// Error 58: a client certificate, key or PKCS#12 file that OpenSSL would not load.
    private static func certificateProblemHint(message: String, tls: TLSOptions) -> String {
        let cert = tls.certificatePath ?? ""
        if tls.certificateIsPKCS12 {
            // OpenSSL's error queue is per thread and libcurl reports its oldest entry, which
            // may be left over from an earlier failure: look at the file, not just the message.
            if message.contains("0308010C") || Self.usesLegacyPKCS12Ciphers(at: cert) {
                return "'\(cert)' uses legacy PKCS#12 algorithms (RC2/RC4) that OpenSSL 3 loads only with its legacy provider: "
                    + "enable it through OPENSSL_CONF, or re-export the file: openssl pkcs12 -legacy -in old.p12 -nodes | openssl pkcs12 -export -out new.p12"
                    + (tls.password == nil ? "; it may also need 'tls.password'" : "; if the provider is enabled already, check 'tls.password'")
            }
            if message.contains("mac verify") || message.contains("password") {
                return tls.password == nil
                    ? "'\(cert)' is protected by a password: set 'tls.password'"
                    : "wrong 'tls.password' for '\(cert)'"
            }
            return "check that '\(cert)' is a PKCS#12 file and that 'tls.password' is right"
        }
        if message.contains("private key") || message.contains("key file") {
            let key = tls.keyPath ?? cert
            if Self.isEncryptedPEMKey(at: key) {
                return tls.password == nil
                    ? "the key '\(key)' is encrypted: set 'tls.password'"
                    : "wrong 'tls.password' for the encrypted key '\(key)'"
            }
            return "the key '\(key)' ('tls.key' or --key) does not belong to the certificate '\(cert)', or is not a PEM private key"
        }
        if tls.keyPath == nil && !message.contains("certificate file") {
            return "'\(cert)' holds no private key: set 'tls.key' (or --key)"
        }
        return "'\(cert)' ('tls.cert' or --cert) must be a PEM certificate, or PKCS#12 named .p12/.pfx"
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

    private static func isEncryptedPEMKey(at path: String) -> Bool {
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

    static func responseTooLargeHint(_ limit: Int) -> String {
        "bodies are kept in memory up to \(ByteCount.format(limit)); raise the limit with --max-body-size if this body is expected"
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
