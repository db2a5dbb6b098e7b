import CCurl
import Foundation
import Synchronization

/// The state of one request while libcurl works on it.
///
/// Owns everything libcurl borrows during the transfer (header list, MIME
/// structure, error buffer, upload file) and collects the response.
final class CurlTransfer: @unchecked Sendable {
    // @unchecked: `continuation` is written by the submitting task before the
    // transfer is put in the driver's mutex-guarded inbox; from then on every
    // other field is read and written by the driver thread alone.
    // `cancelRequested` is atomic because any task may set it.

    let request: HTTPRequest
    /// Unchecked: resumed exactly once, by `CurlDriver.finish` (which clears it) or by the
    /// submitter when the driver refused the transfer. A checked one allocated a canary per request.
    var continuation: UnsafeContinuation<Result<HTTPResponse, HTTPError>, Never>?
    let cancelRequested = Atomic<Bool>(false)
    /// Where progress goes, when the request asked for it (set before submitting).
    var progress: AsyncStream<HTTPProgress>.Continuation?

    /// The easy handle while the transfer runs.
    var handle: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var mime: OpaquePointer?
    private var uploadFile: UnsafeMutablePointer<FILE>?
    /// The file a ``HTTPResponseBodyDestination/file(path:)`` body is written to.
    private var responseFile: UnsafeMutablePointer<FILE>?
    /// `errno` of a failed write to `responseFile`.
    private var responseFileError: Int32?
    private var lastProgress = HTTPProgress()
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    // MARK: - What the callbacks collect

    // `@exclusivity(unchecked)`: these are touched by the driver thread alone, once per
    // header line or body chunk; the dynamic exclusivity checks cost more than the work.
    @exclusivity(unchecked) fileprivate var body: [UInt8] = []
    fileprivate var exceededLimit = false
    /// Header blocks, one per response received (redirects, `100 Continue`), parsed
    /// line by line as libcurl hands them over: keeping the lines as strings and
    /// parsing them afterwards cost a tenth of all the instructions of a small request.
    @exclusivity(unchecked) fileprivate var headerBlocks: [ReceivedHeaderBlock] = []
    /// The fields of the last block in `headerBlocks`, still arriving: appended here, not
    /// through `headerBlocks[last].headers`, which copied the block's fields on every line.
    @exclusivity(unchecked) fileprivate var receivingFields: [HTTPHeaders.Field] = []

    /// Every header block received, the last one's fields included: they move into it once
    /// the transfer is over (copying the list of blocks to set them showed in profiles).
    /// Called again, it returns the same blocks.
    private func finishedBlocks() -> [ReceivedHeaderBlock] {
        if !receivingFields.isEmpty, !headerBlocks.isEmpty {
            headerBlocks[headerBlocks.count - 1].headers = HTTPHeaders(receivingFields)
            receivingFields = []
        }
        return headerBlocks
    }
    /// Request header blocks libcurl sent (debug callback), one per hop; the
    /// bytes of a block not yet finished by its empty line wait in `pendingSent`.
    fileprivate var sentRequests: [HTTPSentRequest] = []
    fileprivate var pendingSent: [UInt8] = []

    init(request: HTTPRequest) {
        self.request = request
        errorBuffer.initialize(to: 0)
    }

    deinit {
        if let headerList { courier_slist_free_all(headerList) }
        if let mime { courier_mime_free(mime) }
        if let uploadFile { fclose(uploadFile) }
        if let responseFile { fclose(responseFile) }
        errorBuffer.deallocate()
    }

    // MARK: - Setting up the handle

    /// Applies the request to a fresh (or reset) easy handle; `resume` un-pauses the
    /// transfer from any thread (for body streams).
    func configure(_ h: UnsafeMutableRawPointer, resume: @escaping @Sendable () -> Void) throws(HTTPError) {
        handle = h
        let options = request.options
        let context = Unmanaged.passUnretained(self).toOpaque()

        set(h, CURLOPT_NOSIGNAL, 1)
        try require(set(h, CURLOPT_URL, request.url), "CURLOPT_URL")
        _ = courier_easy_setopt_pointer(h, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = courier_easy_setopt_callback(h, CURLOPT_WRITEFUNCTION, writeCallback)
        _ = courier_easy_setopt_pointer(h, CURLOPT_WRITEDATA, context)
        _ = courier_easy_setopt_callback(h, CURLOPT_HEADERFUNCTION, headerCallback)
        _ = courier_easy_setopt_pointer(h, CURLOPT_HEADERDATA, context)
        // The headers libcurl really sends (its own Cookie, Basic credentials from a
        // URL's userinfo, Proxy-Authorization) reach us only through the debug callback,
        // which needs VERBOSE. Verbose costs ~5 µs a request (libcurl formats its
        // messages), so it is on only when asked for or when libcurl may add credentials.
        if options.recordSentRequests || Self.libcurlMayAddCredentials(request) {
            _ = courier_easy_setopt_debug(h, debugCallback)
            _ = courier_easy_setopt_pointer(h, CURLOPT_DEBUGDATA, context)
            set(h, CURLOPT_VERBOSE, 1)
        }
        Self.userAgent.withUnsafeBufferPointer { _ = courier_easy_setopt_string(h, CURLOPT_USERAGENT, $0.baseAddress) }
        // A proxy's "200 Connection established" block is not the server's response.
        set(h, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)

        try require(set(h, CURLOPT_FOLLOWLOCATION, options.followRedirects ? 1 : 0), "CURLOPT_FOLLOWLOCATION")
        try require(set(h, CURLOPT_MAXREDIRS, options.maxRedirects), "CURLOPT_MAXREDIRS")
        try Self.restrictRedirects(h)
        try require(set(h, CURLOPT_TIMEOUT_MS, options.timeoutMilliseconds), "CURLOPT_TIMEOUT_MS")
        try require(set(h, CURLOPT_CONNECTTIMEOUT_MS, options.connectTimeoutMilliseconds), "CURLOPT_CONNECTTIMEOUT_MS")
        if options.compressed { set(h, CURLOPT_ACCEPT_ENCODING, "" as StaticString) }
        try Self.requireHTTPVersion(options.httpVersion, set(h, CURLOPT_HTTP_VERSION, Self.curlHTTPVersion(options.httpVersion)))
        if let proxy = options.proxy {
            if let split = URLCredentials.splitting(proxy) {
                // Apart, not inside the URL: see `URLCredentials.splitting`.
                try require(set(h, CURLOPT_PROXY, split.url), "CURLOPT_PROXY")
                try require(set(h, CURLOPT_PROXYUSERNAME, split.user), "CURLOPT_PROXYUSERNAME")
                if let password = split.password { try require(set(h, CURLOPT_PROXYPASSWORD, password), "CURLOPT_PROXYPASSWORD") }
            } else {
                try require(set(h, CURLOPT_PROXY, proxy), "CURLOPT_PROXY")
            }
        }
        switch request.responseBody {
        case .memory:
            // A body whose Content-Length is already over the limit fails before it is read
            // (error 63); the write callback enforces the limit on decoded bytes.
            try require(courier_easy_setopt_off(h, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(options.maxResponseBytes)), "CURLOPT_MAXFILESIZE_LARGE")
        case .file(let path):
            responseFile = try Self.openDestination(path)
        case .stream(let stream):
            guard stream.attach(resume: resume) else {
                throw HTTPError(kind: .transport, message: "a response body stream serves one request only")
            }
        }
        if request.onProgress != nil {
            set(h, CURLOPT_NOPROGRESS, 0)
            _ = courier_easy_setopt_xferinfo(h, progressCallback)
            _ = courier_easy_setopt_pointer(h, CURLOPT_XFERINFODATA, context)
        }
        if let jar = options.cookieJar, let share = jar.share {
            _ = courier_easy_setopt_share(h, share)
            // An empty file name turns the cookie engine on without reading a file.
            set(h, CURLOPT_COOKIEFILE, "" as StaticString)
        }
        // Default TLS settings set nothing: not even looked at (their checks build a list).
        if let tls = options.nonDefaultTLS { try configureTLS(h, tls) }
        try configureMethodAndBody(h, resume: resume)
        try configureHeaders(h)
    }

    /// Whether libcurl may send credentials the request does not show: `Cookie` from a
    /// jar that has received cookies, Basic credentials from `user:password@` in the URL
    /// or in the proxy's URL (the option or the `*_proxy` environment libcurl reads).
    static func libcurlMayAddCredentials(_ request: HTTPRequest) -> Bool {
        if let jar = request.options.cookieJar, jar.mayHoldCookies.load(ordering: .relaxed) { return true }
        if URLCredentials(url: request.url) != nil { return true }
        if let proxy = request.options.proxy { return URLCredentials(url: proxy) != nil }
        return environmentProxyHasCredentials
    }

    /// `courier/<version>` as a C string, made once rather than for every request (a short
    /// Swift string has no C string at hand: passing one allocated a copy each time).
    private static let userAgent = Array("courier/\(CourierVersion.string)".utf8CString)

    /// Read once: the environment does not change while Courier runs, and this is asked
    /// for every request on the driver thread.
    private static let environmentProxyHasCredentials = URLCredentials.proxyEnvironmentVariables.contains { name in
        getenv(name).map { URLCredentials(url: String(cString: $0)) != nil } ?? false
    }

    private func configureTLS(_ h: UnsafeMutableRawPointer, _ tls: TLSOptions) throws(HTTPError) {
        // OpenSSL's own messages for a missing file are cryptic ("error setting
        // certificate file"); say which file and why before libcurl tries.
        for (path, what, setting, option) in [(tls.caPath, "CA file", HTTPSetting.caFile, "CURLOPT_CAINFO"),
                                              (tls.certificatePath, "client certificate", .clientCertificate, "CURLOPT_SSLCERT"),
                                              (tls.keyPath, "client key", .clientKey, "CURLOPT_SSLKEY")] {
            guard let path else { continue }
            if let reason = Self.unreadable(path) {
                let wording = HTTPError.Wording { n in
                    ("cannot read the \(what)\(HTTPError.parenthesized(n(setting))) '\(path)': \(reason)", nil)
                }
                throw HTTPError(kind: .tls, wording: wording, curlOption: option, path: path)
            }
        }
        if let ca = tls.caPath { try require(set(h, CURLOPT_CAINFO, ca), "CURLOPT_CAINFO") }
        if let cert = tls.certificatePath {
            try require(set(h, CURLOPT_SSLCERT, cert), "CURLOPT_SSLCERT")
            try require(set(h, CURLOPT_SSLCERTTYPE, tls.certificateIsPKCS12 ? "P12" : "PEM"), "CURLOPT_SSLCERTTYPE")
        }
        if let key = tls.keyPath { try require(set(h, CURLOPT_SSLKEY, key), "CURLOPT_SSLKEY") }
        if tls.certificatePath != nil || tls.keyPath != nil {
            // Always a password, if only an empty one: without it OpenSSL asks for an
            // encrypted key's pass phrase on the terminal and the run hangs.
            try require(set(h, CURLOPT_KEYPASSWD, tls.password ?? ""), "CURLOPT_KEYPASSWD")
        }
        if tls.insecure {
            try require(set(h, CURLOPT_SSL_VERIFYPEER, 0), "CURLOPT_SSL_VERIFYPEER")
            try require(set(h, CURLOPT_SSL_VERIFYHOST, 0), "CURLOPT_SSL_VERIFYHOST")
        }
        // A pin libcurl's TLS backend cannot check (CURLE_NOT_BUILT_IN) must not pass unchecked.
        if let pin = tls.pinnedPublicKey { try require(set(h, CURLOPT_PINNEDPUBLICKEY, pin), "CURLOPT_PINNEDPUBLICKEY") }
    }

    private func configureMethodAndBody(_ h: UnsafeMutableRawPointer, resume: @escaping @Sendable () -> Void) throws(HTTPError) {
        let method = request.method
        switch request.body {
        case .none:
            switch method {
            case "GET": set(h, CURLOPT_HTTPGET, 1)
            case "HEAD": set(h, CURLOPT_NOBODY, 1)
            default: set(h, CURLOPT_CUSTOMREQUEST, method)
            }
        case .bytes(let bytes):
            _ = courier_easy_setopt_off(h, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))
            // COPYPOSTFIELDS copies: the array need not outlive this call.
            bytes.withUnsafeBytes { raw in
                _ = courier_easy_setopt_pointer(h, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: raw.baseAddress ?? UnsafeRawPointer(errorBuffer)))
            }
            if method != "POST" { set(h, CURLOPT_CUSTOMREQUEST, method) }
        case .file(let path):
            if let reason = Self.unreadable(path) {
                throw HTTPError(kind: .fileUnreadable, message: "cannot read the body file '\(path)': \(reason)",
                                curlOption: "CURLOPT_READDATA", path: path)
            }
            guard let file = fopen(path, "rb") else {
                throw HTTPError(kind: .fileUnreadable, message: "cannot read the body file '\(path)': \(String(cString: strerror(errno)))",
                                curlOption: "CURLOPT_READDATA", path: path)
            }
            uploadFile = file
            var info = stat()
            let size = fstat(fileno(file), &info) == 0 ? Int64(info.st_size) : -1
            set(h, CURLOPT_POST, 1)
            // Without a READFUNCTION libcurl freads from READDATA: streamed, never loaded whole.
            _ = courier_easy_setopt_pointer(h, CURLOPT_READDATA, UnsafeMutableRawPointer(file))
            _ = courier_easy_setopt_off(h, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(size))
            if method != "POST" { set(h, CURLOPT_CUSTOMREQUEST, method) }
        case .multipart(let parts):
            let form = courier_mime_init(h)
            mime = form
            for part in parts {
                let mimePart = courier_mime_addpart(form)
                _ = courier_mime_name(mimePart, part.name)
                switch part.content {
                case .value(let value):
                    var utf8 = Array(value.utf8)
                    _ = utf8.withUnsafeMutableBufferPointer { buffer in
                        buffer.withMemoryRebound(to: CChar.self) { chars in
                            courier_mime_data(mimePart, chars.baseAddress, chars.count)
                        }
                    }
                case .data(let bytes):
                    _ = bytes.withUnsafeBufferPointer { buffer in
                        buffer.withMemoryRebound(to: CChar.self) { chars in
                            // curl_mime_data copies the bytes.
                            courier_mime_data(mimePart, chars.baseAddress, chars.count)
                        }
                    }
                case .file(let path):
                    if let reason = Self.unreadable(path) {
                        throw HTTPError(kind: .fileUnreadable, message: "cannot read the file of multipart part '\(part.name)' '\(path)': \(reason)",
                                        curlOption: "CURLOPT_MIMEPOST", path: path)
                    }
                    _ = courier_mime_filedata(mimePart, path)
                }
                if let filename = part.filename { _ = courier_mime_filename(mimePart, filename) }
                if let type = part.contentType { _ = courier_mime_type(mimePart, type) }
            }
            _ = courier_easy_setopt_mime(h, form)
            if method != "POST" { set(h, CURLOPT_CUSTOMREQUEST, method) }
        case .stream(let stream):
            guard stream.attach(resume: resume) else {
                throw HTTPError(kind: .transport, message: "a request body stream serves one request only")
            }
            let context = Unmanaged.passUnretained(self).toOpaque()
            set(h, CURLOPT_POST, 1)
            _ = courier_easy_setopt_callback(h, CURLOPT_READFUNCTION, readCallback)
            _ = courier_easy_setopt_pointer(h, CURLOPT_READDATA, context)
            // -1: unknown, sent chunked (see `configureHeaders`).
            _ = courier_easy_setopt_off(h, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(stream.length ?? -1))
            if method != "POST" { set(h, CURLOPT_CUSTOMREQUEST, method) }
        }
    }

    /// Why `path` cannot be read as a regular file, or nil when it can.
    ///
    /// Only regular files are streamed: libcurl reads them on the transfer thread, where a
    /// pipe without a writer would block every transfer and `/dev/zero` would never end.
    /// Redirects stay on http and https: a redirect to file:// (or any other scheme) must never
    /// read local files or leave HTTP. libcurl before 7.85 (Ubuntu 22.04 has 7.81) does not know
    /// the string option and gets the bit mask instead; if neither is taken, nothing is sent.
    static func restrictRedirects(_ h: UnsafeMutableRawPointer) throws(HTTPError) {
        let code = set(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https" as StaticString)
        guard code == CURLE_UNKNOWN_OPTION else { return try require(code, "CURLOPT_REDIR_PROTOCOLS_STR") }
        try require(set(h, legacyRedirectProtocolsOption, Int(CURLPROTO_HTTP | CURLPROTO_HTTPS)), "CURLOPT_REDIR_PROTOCOLS")
    }

    /// CURLOPT_REDIR_PROTOCOLS (long 182), by number: curl.h marks it deprecated since 7.85.
    static let legacyRedirectProtocolsOption = CURLoption(rawValue: 182)

    static func curlHTTPVersion(_ version: HTTPRequestOptions.HTTPVersion) -> Int {
        switch version {
        case .automatic: Int(CURL_HTTP_VERSION_2TLS)
        case .http1_1: Int(CURL_HTTP_VERSION_1_1)
        case .http2: Int(CURL_HTTP_VERSION_2_0)
        }
    }

    /// HTTP/2 asked of a libcurl built without it (no nghttp2) is refused, not sent as
    /// HTTP/1.1 without a word; `automatic` asks for HTTP/2 only where the build has it.
    static func requireHTTPVersion(_ version: HTTPRequestOptions.HTTPVersion, _ code: CURLcode) throws(HTTPError) {
        guard code != CURLE_OK else { return }
        if version == .automatic, code == CURLE_UNSUPPORTED_PROTOCOL { return }
        if version == .http2, code == CURLE_UNSUPPORTED_PROTOCOL {
            throw HTTPError(kind: .transport, curlCode: Int(code.rawValue),
                            message: "HTTP/2 was asked for, but this libcurl was built without HTTP/2 support (nghttp2)",
                            hint: "install a libcurl with HTTP/2 (Debian's libcurl4 has it), or ask for HTTP/1.1",
                            curlOption: "CURLOPT_HTTP_VERSION")
        }
        try require(code, "CURLOPT_HTTP_VERSION")
    }

    /// Opens a response body's destination for writing, created or truncated.
    ///
    /// Never waits: this runs on the driver thread, where a FIFO that nobody reads would
    /// have blocked every transfer (`open` of a FIFO for writing waits for a reader). With
    /// `O_NONBLOCK` that case fails at once (ENXIO) and is said plainly; a FIFO that has a
    /// reader, and any other file, is then written with ordinary blocking writes.
    static func openDestination(_ path: String) throws(HTTPError) -> UnsafeMutablePointer<FILE> {
        func failure(_ reason: String) -> HTTPError {
            HTTPError(kind: .fileUnwritable, message: "cannot write the response body to '\(path)': \(reason)", path: path)
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            if errno == ENXIO { throw failure("it is a pipe (FIFO) that no process is reading") }
            throw failure(String(cString: strerror(errno)).lowercased())
        }
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) == 0, let file = fdopen(descriptor, "wb") else {
            let reason = String(cString: strerror(errno)).lowercased()
            close(descriptor)
            throw failure(reason)
        }
        return file
    }

    static func unreadable(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return String(cString: strerror(errno)).lowercased() }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return "it is a directory"
        case S_IFIFO: return "it is a pipe (FIFO), which cannot be streamed: read it into memory and send the bytes"
        case S_IFCHR, S_IFBLK: return "it is a device, not a file"
        case S_IFSOCK: return "it is a socket, not a file"
        default: return "it is not a regular file"
        }
        guard access(path, R_OK) == 0 else { return String(cString: strerror(errno)).lowercased() }
        return nil
    }

    private func configureHeaders(_ h: UnsafeMutableRawPointer) throws(HTTPError) {
        var list: UnsafeMutablePointer<curl_slist>?
        // Owned from the first line on, so a failure below frees what was built.
        defer { headerList = list }
        func append(_ line: String) throws(HTTPError) {
            // curl_slist_append returns NULL (and leaves the list as it was) when out of memory.
            guard let longer = line.withCString({ courier_slist_append(list, $0) }) else {
                throw HTTPError(kind: .transport, message: "cannot build the request's header list (out of memory)",
                                curlFunction: "curl_slist_append")
            }
            list = longer
        }
        for field in request.headers {
            if let problem = HTTPHeaders.lineBreakProblem(field) { throw problem }
            // "Name;" is libcurl's way to send a header with an empty value.
            try append(field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)")
        }
        let hasBody: Bool
        switch request.body {
        case .none: hasBody = false
        case .bytes, .file, .stream:
            hasBody = true
            // libcurl labels a POST body `application/x-www-form-urlencoded`, and servers then
            // parse a file as a form: without a type of the request's own, send none.
            if !request.headers.contains("Content-Type") {
                try append("Content-Type:")
            }
            if case .stream(let stream) = request.body, stream.length == nil, !request.headers.contains("Transfer-Encoding") {
                try append("Transfer-Encoding: chunked")
            }
        case .multipart: hasBody = true
        }
        // libcurl sends `Expect: 100-continue` above 1 MB and then stalls a second
        // against servers that ignore it; an empty value turns that off.
        if hasBody && !request.headers.contains("Expect") {
            try append("Expect:")
        }
        if let list { _ = courier_easy_setopt_slist(h, CURLOPT_HTTPHEADER, list) }
    }

    // MARK: - Finishing

    /// Builds the response (or error) once libcurl reports the transfer done.
    func result(code: CURLcode) -> Result<HTTPResponse, HTTPError> {
        guard let h = handle else {
            return .failure(HTTPError(kind: .transport, message: "transfer finished without a handle"))
        }
        finishSentRequests()
        reportFinalProgress(h)
        if let failure = closeResponseFile() { return .failure(failure) }
        if exceededLimit || code == CURLE_FILESIZE_EXCEEDED {
            let limit = request.options.maxResponseBytes
            var declared: curl_off_t = -1
            _ = courier_easy_getinfo_off(h, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &declared)
            let size = declared > limit ? " (Content-Length: \(declared))" : ""
            let message = "the response body is larger than \(ByteCount.format(limit))\(size)"
            return .failure(HTTPError(
                kind: .responseTooLarge, curlCode: Int(code.rawValue),
                wording: HTTPError.Wording { n in (message, HTTPError.responseTooLargeHint(limit, n)) },
                sentRequests: sentRequests, curlOption: "CURLOPT_MAXFILESIZE_LARGE"))
        }
        guard code == CURLE_OK else {
            let detail = String(cString: errorBuffer)
            var context = CurlFailureContext(connected: Self.connected(h, https: request.url.lowercased().hasPrefix("https:")),
                                             receivedResponse: !headerBlocks.isEmpty)
            if let last = finishedBlocks().last, (300..<400).contains(last.status) {
                context.redirectLocation = last.headers["Location"]
            }
            var error = HTTPError(curlCode: code, detail: detail, url: request.url, options: request.options, context: context)
            error.sentRequests = sentRequests
            return .failure(error)
        }

        var status = 0
        _ = courier_easy_getinfo_long(h, CURLINFO_RESPONSE_CODE, &status)
        var version = 0
        _ = courier_easy_getinfo_long(h, CURLINFO_HTTP_VERSION, &version)
        var connects = 0
        _ = courier_easy_getinfo_long(h, CURLINFO_NUM_CONNECTS, &connects)
        var effective: UnsafeMutablePointer<CChar>?
        _ = courier_easy_getinfo_string(h, CURLINFO_EFFECTIVE_URL, &effective)

        // 1xx blocks (100 Continue) precede the real response; drop them (when there are any).
        let blocks = finishedBlocks()
        let isAnswer = { (block: ReceivedHeaderBlock) in block.status >= 200 || block.status == 0 }
        let answered = blocks.allSatisfy(isAnswer) ? blocks : blocks.filter(isAnswer)
        let finalHeaders = answered.last?.headers ?? HTTPHeaders()
        if let conflict = Self.conflictingContentLengths(finalHeaders) {
            // RFC 9112 §6.3: differing lengths make the message's end unknowable; libcurl
            // silently picks one, so the body may be cut or run into the next response.
            return .failure(HTTPError(
                kind: .badResponse,
                message: "the response has two different Content-Length headers (\(conflict))",
                hint: HTTPError.badResponseHint(host: HTTPError.host(of: request.url)), sentRequests: sentRequests))
        }
        // Each hop's URL as libcurl fetched it, not rebuilt from `Location` afterwards.
        let hops = answered.dropLast().map { HTTPRedirectHop(url: $0.url, status: $0.status, headers: $0.headers) }

        return .success(HTTPResponse(
            status: status,
            httpVersion: Self.versionName(version),
            headers: finalHeaders,
            body: body,
            // Most requests end where they began: that string is reused rather than copied from libcurl's.
            effectiveURL: effective.map { url in request.url.withCString { strcmp($0, url) == 0 } ? request.url : String(cString: url) }
                ?? request.url,
            timings: timings(h),
            redirects: hops,
            reusedConnection: connects == 0,
            sentRequests: sentRequests))
    }

    /// Whether the transfer got as far as a usable connection.
    ///
    /// The connect (and TLS) times are 0 on a reused keep-alive connection, which was
    /// connected all along; the pre-transfer time and the request size are then set once
    /// the request is on its way, so a response timeout there is not taken for a connect one.
    private static func connected(_ h: UnsafeMutableRawPointer, https: Bool) -> Bool {
        var connectDone: curl_off_t = 0
        _ = courier_easy_getinfo_off(h, https ? CURLINFO_APPCONNECT_TIME_T : CURLINFO_CONNECT_TIME_T, &connectDone)
        var preTransfer: curl_off_t = 0
        _ = courier_easy_getinfo_off(h, CURLINFO_PRETRANSFER_TIME_T, &preTransfer)
        var requestSize = 0
        _ = courier_easy_getinfo_long(h, CURLINFO_REQUEST_SIZE, &requestSize)
        return connectDone > 0 || preTransfer > 0 || requestSize > 0
    }

    private func timings(_ h: UnsafeMutableRawPointer) -> HTTPTimings {
        func get(_ info: CURLINFO) -> Int {
            var value: curl_off_t = 0
            _ = courier_easy_getinfo_off(h, info, &value)
            return Int(value)
        }
        var t = HTTPTimings()
        t.nameLookup = get(CURLINFO_NAMELOOKUP_TIME_T)
        t.connect = get(CURLINFO_CONNECT_TIME_T)
        t.tls = get(CURLINFO_APPCONNECT_TIME_T)
        t.preTransfer = get(CURLINFO_PRETRANSFER_TIME_T)
        t.firstByte = get(CURLINFO_STARTTRANSFER_TIME_T)
        t.total = get(CURLINFO_TOTAL_TIME_T)
        t.redirect = get(CURLINFO_REDIRECT_TIME_T)
        return t
    }

    /// The differing values when a header block has `Content-Length`s that disagree.
    static func conflictingContentLengths(_ headers: HTTPHeaders) -> String? {
        // Every response passes through here on the driver thread: one plain value, the
        // usual case, costs a byte comparison of names and no allocation.
        var count = 0
        var listed = false
        for index in headers.indices where headers.fields[index].name.caseInsensitiveEquals("Content-Length") {
            count += 1
            if headers.fields[index].value.utf8.contains(UInt8(ascii: ",")) { listed = true }
        }
        if count < 2 && !listed { return nil }
        let fields = headers.filter { $0.name.caseInsensitiveEquals("Content-Length") }
        var values: [String] = []
        for field in fields {
            // One header may carry a list (`5, 5`): identical values are allowed.
            for value in field.value.split(separator: ",") {
                let trimmed = value.trimmingCharacters(in: .whitespaces)
                if !values.contains(trimmed) { values.append(trimmed) }
            }
        }
        return values.count > 1 ? values.joined(separator: " and ") : nil
    }

    private static func versionName(_ code: Int) -> String {
        switch code {
        case Int(CURL_HTTP_VERSION_1_0): "1.0"
        case Int(CURL_HTTP_VERSION_2_0): "2"
        case 30: "3"
        default: "1.1"
        }
    }

    /// Closes the response file, flushing it: the error when a write failed.
    @discardableResult
    func closeResponseFile() -> HTTPError? {
        guard let file = responseFile, case .file(let path) = request.responseBody else { return nil }
        responseFile = nil
        var failure = responseFileError
        if fclose(file) != 0 && failure == nil { failure = errno }
        guard let failure else { return nil }
        return HTTPError(kind: .fileUnwritable,
                         message: "cannot write the response body to '\(path)': \(String(cString: strerror(failure)).lowercased())",
                         sentRequests: sentRequests, path: path)
    }

    /// The transfer is over (done, failed or aborted): streams and progress learn it.
    func ended(with result: Result<HTTPResponse, HTTPError>) {
        let error: HTTPError? = switch result {
        case .success: nil
        case .failure(let error): error
        }
        if case .stream(let stream) = request.responseBody { stream.end(error.map { .failure($0) } ?? .success(())) }
        if case .stream(let stream) = request.body { stream.end(error) }
        progress?.finish()
        progress = nil
    }

    /// The final counts, with totals now known when the transfer succeeded.
    private func reportFinalProgress(_ h: UnsafeMutableRawPointer) {
        guard let progress else { return }
        func get(_ info: CURLINFO) -> Int64 {
            var value: curl_off_t = 0
            _ = courier_easy_getinfo_off(h, info, &value)
            return Int64(value)
        }
        var final = lastProgress
        final.downloaded = max(final.downloaded, get(CURLINFO_SIZE_DOWNLOAD_T))
        final.uploaded = max(final.uploaded, get(CURLINFO_SIZE_UPLOAD_T))
        let declared = get(CURLINFO_CONTENT_LENGTH_DOWNLOAD_T)
        final.downloadTotal = declared >= 0 ? declared : final.downloaded
        if final.uploadTotal == nil, final.uploaded > 0 { final.uploadTotal = final.uploaded }
        if final != lastProgress {
            lastProgress = final
            progress.yield(final)
        }
    }

    // MARK: - Callback entry points (driver thread)

    /// What the write callback returns: the count taken, or `CURL_WRITEFUNC_PAUSE`.
    fileprivate func write(_ bytes: UnsafeRawBufferPointer) -> Int {
        switch request.responseBody {
        case .memory:
            return receive(bytes) ? bytes.count : 0
        case .file:
            guard let file = responseFile else { return 0 }
            guard let base = bytes.baseAddress else { return 0 }
            if fwrite(base, 1, bytes.count, file) != bytes.count {
                responseFileError = errno
                return 0
            }
            return bytes.count
        case .stream(let stream):
            return stream.offer(bytes) ? bytes.count : courier_writefunc_pause
        }
    }

    /// What the read callback returns for a streamed request body.
    fileprivate func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard case .stream(let stream) = request.body else { return courier_readfunc_abort }
        return stream.read(into: buffer) ?? courier_readfunc_pause
    }

    fileprivate func progressChanged(downloadTotal: Int64, downloaded: Int64, uploadTotal: Int64, uploaded: Int64) {
        guard let progress else { return }
        var next = lastProgress
        // libcurl reports 0 for a total it does not know; counts only grow.
        next.downloaded = max(next.downloaded, downloaded)
        next.uploaded = max(next.uploaded, uploaded)
        if downloadTotal > 0 { next.downloadTotal = downloadTotal }
        if uploadTotal > 0 { next.uploadTotal = uploadTotal }
        guard next != lastProgress else { return }
        lastProgress = next
        progress.yield(next)
    }

    fileprivate func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if body.isEmpty, let h = handle {
            // One allocation for a body of known length instead of doubling up to it
            // (which briefly holds 1.5x the body), capped by the limit and by 1 GiB: the
            // length is the server's word, and `Content-Length: 9223372036854775807` under a
            // `--max-body-size` of exabytes must not ask for an allocation that cannot succeed.
            var declared: curl_off_t = -1
            _ = courier_easy_getinfo_off(h, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &declared)
            if declared > 0 { body.reserveCapacity(min(Int(declared), request.options.maxResponseBytes, 1 << 30)) }
        }
        if body.count + bytes.count > request.options.maxResponseBytes {
            exceededLimit = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    /// Outgoing header bytes; libcurl passes a whole block per call, but a block
    /// split over several calls is put back together at its empty line.
    fileprivate func receiveSentHeader(_ raw: UnsafeRawBufferPointer) {
        pendingSent.append(contentsOf: raw)
        if pendingSent.suffix(4).elementsEqual("\r\n\r\n".utf8) || pendingSent.suffix(2).elementsEqual("\n\n".utf8) {
            finishSentRequests()
        }
    }

    private func finishSentRequests() {
        guard !pendingSent.isEmpty else { return }
        if let sent = HTTPSentRequest.parse(pendingSent[...]) { sentRequests.append(sent) }
        pendingSent.removeAll(keepingCapacity: true)
    }

    fileprivate func receiveHeaderLine(_ raw: UnsafeRawBufferPointer) {
        var bytes = raw.assumingMemoryBound(to: UInt8.self)[...]
        while let last = bytes.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: "\n") { bytes.removeLast() }
        if ReceivedHeaderBlock.isStatusLine(bytes) {
            var url: UnsafeMutablePointer<CChar>?
            if let h = handle { _ = courier_easy_getinfo_string(h, CURLINFO_EFFECTIVE_URL, &url) }
            // Most responses answer the URL asked for: reuse that string rather than copy libcurl's.
            let answered = url.map { url in request.url.withCString { strcmp($0, url) == 0 } ? request.url : String(cString: url) }
            if !headerBlocks.isEmpty { headerBlocks[headerBlocks.count - 1].headers = HTTPHeaders(receivingFields) }
            receivingFields.removeAll(keepingCapacity: true)
            receivingFields.reserveCapacity(16)
            headerBlocks.append(ReceivedHeaderBlock(statusLine: bytes, url: answered ?? request.url))
        } else if !bytes.isEmpty, !headerBlocks.isEmpty {
            guard let field = ReceivedHeaderBlock.field(bytes) else { return }
            if request.options.cookieJar != nil, field.name.caseInsensitiveEquals("set-cookie") {
                // From now on libcurl may send this jar's cookies on its own: record what it sends.
                request.options.cookieJar?.mayHoldCookies.store(true, ordering: .relaxed)
            }
            receivingFields.append(HTTPHeaders.Field(name: field.name, value: field.value))
        }
    }
}

/// One response's header block as it arrives: its status line, then its fields.
struct ReceivedHeaderBlock {
    var status: Int
    var headers = HTTPHeaders()
    /// The URL this block answered, as libcurl says when its status line arrives
    /// (`CURLINFO_EFFECTIVE_URL` is the hop being fetched while a redirect is followed).
    var url: String

    /// From a status line, `HTTP/1.1 200 OK` or `HTTP/2 200`; 0 when it has no number.
    init(statusLine: Slice<UnsafeBufferPointer<UInt8>>, url: String) {
        self.url = url
        var status = 0
        if let space = statusLine.firstIndex(of: UInt8(ascii: " ")) {
            var digits = 0
            for byte in statusLine[(space + 1)...] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 3 else { break }
                status = status * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            }
            if digits != 3 { status = 0 }
        }
        self.status = status
    }

    static func isStatusLine(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        let base = line.base.baseAddress.map { $0 + line.startIndex }
        guard line.count >= 5, let base else { return false }
        // "HTTP/" byte by byte: the generic `starts(with:)` over a UTF8View cost more than the rest.
        return base[0] == 0x48 && base[1] == 0x54 && base[2] == 0x54 && base[3] == 0x50 && base[4] == 0x2F
    }

    /// `Name: value` with the value's surrounding spaces and tabs trimmed; nil without a colon.
    static func field(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> (name: String, value: String)? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        var value = line[(colon + 1)...]
        while let first = value.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { value.removeFirst() }
        while let last = value.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { value.removeLast() }
        let name = UnsafeBufferPointer(rebasing: line[..<colon])
        return (commonName(name) ?? String(decoding: name, as: UTF8.self),
                String(decoding: UnsafeBufferPointer(rebasing: value), as: UTF8.self))
    }

    /// Field names nearly every response carries, spelled as servers usually spell them.
    private static let commonNames: [(bytes: [UInt8], name: String)] = [
        "Server", "Date", "Content-Type", "Content-Length", "Last-Modified", "Connection", "ETag", "Accept-Ranges",
        "Cache-Control", "Vary", "Transfer-Encoding", "Content-Encoding", "Keep-Alive", "Location", "Expires",
        "server", "date", "content-type", "content-length", "last-modified", "connection", "etag", "vary",
    ].map { (Array($0.utf8), $0) }

    /// The string of a common field name spelled exactly so (byte for byte, case included),
    /// made once: decoding and validating the same few names for every response showed in profiles.
    private static func commonName(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let base = bytes.baseAddress else { return nil }
        for known in commonNames where known.bytes.count == bytes.count {
            if known.bytes.withUnsafeBufferPointer({ $0.baseAddress.map { memcmp($0, base, bytes.count) == 0 } ?? false }) { return known.name }
        }
        return nil
    }
}

// MARK: - Typed setopt helpers

@discardableResult
private func set(_ h: UnsafeMutableRawPointer, _ option: CURLoption, _ value: Int) -> CURLcode {
    courier_easy_setopt_long(h, option, value)
}

@discardableResult
private func set(_ h: UnsafeMutableRawPointer, _ option: CURLoption, _ value: String) -> CURLcode {
    // libcurl copies string options (since 7.17), so a temporary C string is enough:
    // `withCString` lends a native string's own bytes (passing the String itself made a
    // copy of them for every option, the URL of every request included).
    value.withCString { courier_easy_setopt_string(h, option, $0) }
}

/// A constant: its bytes are a C string already (no temporary made).
@discardableResult
private func set(_ h: UnsafeMutableRawPointer, _ option: CURLoption, _ value: StaticString) -> CURLcode {
    value.utf8Start.withMemoryRebound(to: CChar.self, capacity: value.utf8CodeUnitCount + 1) {
        courier_easy_setopt_string(h, option, $0)
    }
}

/// Fails the request when libcurl refused an option it must honour (an unknown option, a
/// value out of range, a feature not built in, no memory for a copy): going on would send
/// a request other than the one asked for, without a word.
private func require(_ code: CURLcode, _ option: StaticString) throws(HTTPError) {
    guard code != CURLE_OK else { return }
    let name = "\(option)"
    let reason = String(cString: courier_easy_strerror(code))
    throw HTTPError(kind: .transport, curlCode: Int(code.rawValue), message: "libcurl refused \(name): \(reason)", curlOption: name)
}

// MARK: - C callbacks

// The callbacks reach the transfer through `_withUnsafeGuaranteedRef`, which retains and
// releases nothing: the driver holds the transfer (`active`) for as long as libcurl may call
// back, and a retain/release pair per header line and body chunk showed in profiles.

private let writeCallback: courier_data_callback = { buffer, size, count, context in
    guard let context, let buffer else { return 0 }
    // Returning less than the length makes libcurl abort with CURLE_WRITE_ERROR.
    return Unmanaged<CurlTransfer>.fromOpaque(context)._withUnsafeGuaranteedRef { transfer in
        transfer.write(UnsafeRawBufferPointer(start: buffer, count: size * count))
    }
}

private let readCallback: courier_data_callback = { buffer, size, count, context in
    guard let context, let buffer else { return courier_readfunc_abort }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
}

private let progressCallback: courier_xferinfo_callback = { context, downloadTotal, downloaded, uploadTotal, uploaded in
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    transfer.progressChanged(downloadTotal: Int64(downloadTotal), downloaded: Int64(downloaded),
                             uploadTotal: Int64(uploadTotal), uploaded: Int64(uploaded))
    return 0
}

private let headerCallback: courier_data_callback = { buffer, size, count, context in
    guard let context, let buffer else { return 0 }
    let length = size * count
    Unmanaged<CurlTransfer>.fromOpaque(context)._withUnsafeGuaranteedRef { transfer in
        transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: buffer, count: length))
    }
    return length
}

private let debugCallback: courier_debug_callback = { _, type, data, size, context in
    // Only outgoing header blocks; text, bodies and TLS records are ignored (and cost one call).
    guard type == CURLINFO_HEADER_OUT, let context, let data else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    transfer.receiveSentHeader(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
