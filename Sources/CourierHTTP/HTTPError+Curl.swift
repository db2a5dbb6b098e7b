import CCurl

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
    /// Runs on the driver thread and looks at libcurl's data alone: a hint that depends on
    /// what a certificate or key file holds is made once the files are read, off that thread
    /// (see ``explainingFiles()``). The families of codes are told apart in
    /// `CurlClassification+*.swift`, the phrases of libcurl's texts in ``CurlErrorPhrase``.
    init(curlCode code: CURLcode, detail: String, url: String, options: HTTPRequestOptions,
         context: CurlFailureContext = CurlFailureContext()) {
        let failure = CurlFailure(code: code, detail: detail, url: url, options: options, context: context)
        let found = CurlClassification.classify(failure)
        let message = found.message ?? failure.message
        let wording: Wording
        if let problem = found.certificateProblem {
            wording = Wording { n in (message, problem.hint(CertificateFileContents(reading: problem), n)) }
        } else {
            let hint = found.hint
            wording = Wording { n in (message, hint(n)) }
        }
        self.init(kind: found.kind, curlCode: Int(code.rawValue), wording: wording, curlOption: found.option, path: found.path,
                  unreadFiles: found.certificateProblem)
    }

    // MARK: - Words shared by several hints

    /// ` (name)`, or nothing for a neutral wording.
    static func parenthesized(_ name: String?) -> String { name.map { " (\($0))" } ?? "" }

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

    // MARK: - Parts of a URL, for hints

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

/// One libcurl failure as the classification sees it: the code, libcurl's words and what the
/// transfer knew, nothing read from a file.
struct CurlFailure {
    let code: CURLcode
    /// The error buffer, or libcurl's name of the code (lower-cased) when the buffer is empty.
    let message: String
    let url: String
    /// `host:port` of the URL (no credentials), and the host alone.
    let host: String
    let hostName: String
    let isHTTPS: Bool
    let options: HTTPRequestOptions
    let context: CurlFailureContext

    init(code: CURLcode, detail: String, url: String, options: HTTPRequestOptions, context: CurlFailureContext) {
        self.code = code
        message = detail.isEmpty ? String(cString: courier_easy_strerror(code)).lowercased() : detail
        self.url = url
        host = HTTPError.host(of: url)
        hostName = HTTPError.hostName(of: host)
        isHTTPS = url.lowercased().hasPrefix("https:")
        self.options = options
        self.context = context
    }

    /// Whether libcurl's message says `phrase`.
    func says(_ phrase: CurlErrorPhrase) -> Bool { phrase.isSaid(in: message) }
}

/// What a libcurl failure is: its kind, the option and the file involved, and the words.
struct CurlClassification {
    /// Names settings the way the layer above wants (nil: neutral words); see ``HTTPError/text(naming:)``.
    typealias Names = (HTTPSetting) -> String?

    var kind: HTTPError.Kind
    var option: String?
    var path: String?
    /// Said instead of libcurl's message when that one misleads (error 27's "out of memory").
    var message: String?
    var hint: @Sendable (Names) -> String?
    /// Error 58: the hint depends on what the files hold, read later (``HTTPError/explainingFiles()``).
    var certificateProblem: CertificateProblem?

    /// A hint that names settings.
    init(_ kind: HTTPError.Kind, option: String? = nil, path: String? = nil, message: String? = nil,
         naming hint: @escaping @Sendable (Names) -> String?) {
        self.kind = kind
        self.option = option
        self.path = path
        self.message = message
        self.hint = hint
    }

    /// A hint in fixed words, or none.
    init(_ kind: HTTPError.Kind, option: String? = nil, path: String? = nil, message: String? = nil, hint: String? = nil) {
        self.init(kind, option: option, path: path, message: message, naming: { _ in hint })
    }

    /// The first family that knows the code decides; ``response(_:)`` before
    /// ``tls(_:)``, which both look at `CURLE_RECV_ERROR`.
    static func classify(_ failure: CurlFailure) -> CurlClassification {
        connection(failure) ?? urlOrReply(failure) ?? response(failure) ?? tls(failure) ?? local(failure)
            ?? CurlClassification(.transport)
    }

    /// Failures on this side: an upload file that broke while it was read, a cancelled transfer.
    static func local(_ failure: CurlFailure) -> CurlClassification? {
        switch failure.code {
        case CURLE_READ_ERROR, CURLE_FILE_COULDNT_READ_FILE:
            CurlClassification(.fileUnreadable, hint: "a file to upload could not be read while it was sent")
        case CURLE_ABORTED_BY_CALLBACK:
            CurlClassification(.cancelled)
        default:
            nil
        }
    }
}
