import CCurl
import Foundation

// MARK: - Setting up the handle (driver thread)

extension CurlTransfer {
    /// Applies the request to a fresh (or reset) easy handle; `resume` un-pauses the
    /// transfer from any thread (for body streams).
    func configure(_ h: UnsafeMutableRawPointer, resume: @escaping @Sendable () -> Void) throws(HTTPError) {
        handle = h
        let options = request.options
        let context = Unmanaged.passUnretained(self).toOpaque()

        set(h, CURLOPT_NOSIGNAL, 1)
        try require(set(h, CURLOPT_URL, request.url), "CURLOPT_URL")
        _ = courier_easy_setopt_pointer(h, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = courier_easy_setopt_callback(h, CURLOPT_WRITEFUNCTION, CurlCallbacks.write)
        _ = courier_easy_setopt_pointer(h, CURLOPT_WRITEDATA, context)
        _ = courier_easy_setopt_callback(h, CURLOPT_HEADERFUNCTION, CurlCallbacks.header)
        _ = courier_easy_setopt_pointer(h, CURLOPT_HEADERDATA, context)
        // The headers libcurl really sends (its own Cookie, Basic credentials from a
        // URL's userinfo, Proxy-Authorization) reach us only through the debug callback,
        // which needs VERBOSE. Verbose costs ~5 µs a request (libcurl formats its
        // messages), so it is on only when asked for or when libcurl may add credentials.
        if options.recordSentRequests || Self.libcurlMayAddCredentials(request) {
            _ = courier_easy_setopt_debug(h, CurlCallbacks.debug)
            _ = courier_easy_setopt_pointer(h, CURLOPT_DEBUGDATA, context)
            set(h, CURLOPT_VERBOSE, 1)
        }
        Self.userAgent.withUnsafeBufferPointer { _ = courier_easy_setopt_string(h, CURLOPT_USERAGENT, $0.baseAddress) }
        // A proxy's "200 Connection established" block is not the server's response.
        set(h, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)

        try require(set(h, CURLOPT_FOLLOWLOCATION, options.followRedirects ? 1 : 0), "CURLOPT_FOLLOWLOCATION")
        try require(set(h, CURLOPT_MAXREDIRS, options.maxRedirects), "CURLOPT_MAXREDIRS")
        if options.unrestrictedAuth { try require(set(h, CURLOPT_UNRESTRICTED_AUTH, 1), "CURLOPT_UNRESTRICTED_AUTH") }
        try Self.restrictRedirects(h)
        try require(set(h, CURLOPT_TIMEOUT_MS, options.timeoutMilliseconds), "CURLOPT_TIMEOUT_MS")
        try require(set(h, CURLOPT_CONNECTTIMEOUT_MS, options.connectTimeoutMilliseconds), "CURLOPT_CONNECTTIMEOUT_MS")
        if options.compressed {
            if options.keepsEncodedBody, case .memory = request.responseBody {
                // Courier decodes (HTTPClient.execute): ask only for what it can undo.
                if let accepted = ContentDecoding.acceptEncoding { set(h, CURLOPT_ACCEPT_ENCODING, accepted) }
                set(h, CURLOPT_HTTP_CONTENT_DECODING, 0)
            } else {
                set(h, CURLOPT_ACCEPT_ENCODING, "" as StaticString)
            }
        }
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
            _ = courier_easy_setopt_xferinfo(h, CurlCallbacks.progress)
            _ = courier_easy_setopt_pointer(h, CURLOPT_XFERINFODATA, context)
        }
        try configureCookies(h, options)
        if let authentication = options.authentication { try configureAuthentication(h, authentication) }
        // Default TLS settings set nothing: not even looked at (their checks build a list).
        if let tls = options.nonDefaultTLS { try configureTLS(h, tls) }
        try configureMethodAndBody(h, resume: resume)
        try configureHeaders(h)
    }

    /// The jar (cleared first when asked, lent in part under `onlyCookies`) and `cookie:`.
    private func configureCookies(_ h: UnsafeMutableRawPointer, _ options: HTTPRequestOptions) throws(HTTPError) {
        if let clearing = options.clearsCookies { try clearCookies(h, clearing, keepsJar: clearing.jar === options.cookieJar) }
        if let jar = options.cookieJar, let share = jar.share, let names = options.onlyCookies {
            borrowedCookies = BorrowedCookies.lend(h, from: share, names: names)
        } else if let jar = options.cookieJar, let share = jar.share {
            _ = courier_easy_setopt_share(h, share)
            // An empty file name turns the cookie engine on without reading a file.
            set(h, CURLOPT_COOKIEFILE, "" as StaticString)
        }
        if let cookie = options.cookie { try require(set(h, CURLOPT_COOKIE, cookie), "CURLOPT_COOKIE") }
    }

    /// Drops cookies from the jar through this handle: the jar is a share handle, which only an
    /// easy handle attached to it can change. Detached again unless the request uses that jar.
    private func clearCookies(_ h: UnsafeMutableRawPointer, _ clearing: CookieJarClearing, keepsJar: Bool) throws(HTTPError) {
        guard let share = clearing.jar.share else { return }
        _ = courier_easy_setopt_share(h, share)
        switch clearing.scope {
        case .session: try require(set(h, CURLOPT_COOKIELIST, "SESS" as StaticString), "CURLOPT_COOKIELIST")
        case .all: try require(set(h, CURLOPT_COOKIELIST, "ALL" as StaticString), "CURLOPT_COOKIELIST")
        }
        if !keepsJar { _ = courier_easy_setopt_share(h, nil) }
    }

    /// Only Digest, and only it (`CURLAUTH_DIGEST`, not `ANY`): a server offering Basic too
    /// must not get the password in clear text.
    private func configureAuthentication(_ h: UnsafeMutableRawPointer, _ authentication: HTTPAuthentication) throws(HTTPError) {
        switch authentication {
        case .digest(let username, let password):
            try require(set(h, CURLOPT_HTTPAUTH, courier_auth_digest), "CURLOPT_HTTPAUTH")
            try require(set(h, CURLOPT_USERNAME, username), "CURLOPT_USERNAME")
            try require(set(h, CURLOPT_PASSWORD, password), "CURLOPT_PASSWORD")
        }
    }

    /// Whether libcurl may send credentials the request does not show: `Cookie` from a
    /// jar that has received cookies or from ``HTTPRequestOptions/cookie``, Digest
    /// (``HTTPRequestOptions/authentication``), Basic credentials from `user:password@` in the URL
    /// or in the proxy's URL (the option or the `*_proxy` environment libcurl reads).
    static func libcurlMayAddCredentials(_ request: HTTPRequest) -> Bool {
        // Set through CURLOPT_COOKIE, the `Cookie:` line shows only in what libcurl sent.
        if request.options.cookie != nil { return true }
        // Digest's `Authorization` is computed by libcurl from the server's challenge.
        if request.options.authentication != nil { return true }
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
            try configureMultipart(h, parts)
            if method != "POST" { set(h, CURLOPT_CUSTOMREQUEST, method) }
        case .stream(let stream):
            guard stream.attach(resume: resume) else {
                throw HTTPError(kind: .transport, message: "a request body stream serves one request only")
            }
            let context = Unmanaged.passUnretained(self).toOpaque()
            set(h, CURLOPT_POST, 1)
            _ = courier_easy_setopt_callback(h, CURLOPT_READFUNCTION, CurlCallbacks.read)
            _ = courier_easy_setopt_pointer(h, CURLOPT_READDATA, context)
            // -1: unknown, sent chunked (see `configureHeaders`).
            _ = courier_easy_setopt_off(h, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(stream.length ?? -1))
            if method != "POST" { set(h, CURLOPT_CUSTOMREQUEST, method) }
        }
    }

    /// A `multipart/form-data` body; file parts are streamed from disk by libcurl.
    private func configureMultipart(_ h: UnsafeMutableRawPointer, _ parts: [MultipartPart]) throws(HTTPError) {
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
    }

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
        case .http1_0: Int(CURL_HTTP_VERSION_1_0)
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
