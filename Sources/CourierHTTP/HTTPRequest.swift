/// One HTTP request, fully resolved: no templates, no defaults left to apply.
public struct HTTPRequest: Sendable {
    /// An absolute URL.
    public var url: String
    /// Any token is allowed (`PURGE`); `GET` and `HEAD` are treated specially by libcurl.
    public var method: String
    /// Sent in this order. A field with an empty value is sent empty, not dropped.
    public var headers: HTTPHeaders
    /// What the request carries.
    public var body: HTTPRequestBody
    /// Timeouts, redirects, TLS, cookies, limits.
    public var options: HTTPRequestOptions
    /// Where the response body goes: memory (the default), a file or a stream.
    public var responseBody: HTTPResponseBodyDestination
    /// Called with upload and download progress while the request runs; nil (the
    /// default) costs nothing.
    public var onProgress: HTTPProgressHandler?
}

extension HTTPRequest {
    // Here, not in the struct, so that the struct keeps its memberwise initializer (its
    // properties are declared in another order than this one's parameters, or the two
    // would clash): assigning the properties one by one was compiled to build the value
    // in a temporary and copy it out, a retain and a release of everything it holds.
    /// A request; only `url` is required.
    public init(
        method: String = "GET",
        url: String,
        headers: HTTPHeaders = [:],
        body: HTTPRequestBody = .none,
        options: HTTPRequestOptions = HTTPRequestOptions(),
        responseBody: HTTPResponseBodyDestination = .memory,
        onProgress: HTTPProgressHandler? = nil
    ) {
        self.init(url: url, method: method, headers: headers, body: body, options: options, responseBody: responseBody,
                  onProgress: onProgress)
    }
}

/// What a request carries. Files are streamed from disk, never loaded whole.
public enum HTTPRequestBody: Sendable {
    /// No body.
    case none
    /// Bytes in memory, sent as they are.
    case bytes([UInt8])
    /// A regular file streamed as the body. Pipes and devices are refused (reading them
    /// would block the transfer thread): read a pipe first and send its `bytes`.
    case file(path: String)
    /// A `multipart/form-data` body; file parts are streamed from disk.
    case multipart([MultipartPart])
    /// Bytes written by another task while the request is sent (see ``HTTPRequestBodyStream``).
    case stream(HTTPRequestBodyStream)
}

/// One part of a `multipart/form-data` body.
public struct MultipartPart: Sendable {
    /// What a part carries.
    public enum Content: Sendable {
        /// A text field.
        case value(String)
        /// Streamed from disk with `curl_mime_filedata`; must be a regular file.
        case file(path: String)
        /// Bytes already in memory, sent as a file part (what was read from a pipe).
        case data([UInt8])
    }

    /// The form field's name.
    public var name: String
    /// The part's value or file.
    public var content: Content
    /// For file parts defaults to the file's last path component.
    public var filename: String?
    /// The part's `Content-Type`; libcurl guesses one for files from their extension.
    public var contentType: String?

    /// A part; see the properties.
    public init(name: String, content: Content, filename: String? = nil, contentType: String? = nil) {
        self.name = name
        self.content = content
        self.filename = filename
        self.contentType = contentType
    }
}

/// Transport settings of one request. The defaults are the spec's built-in ones.
public struct HTTPRequestOptions: Sendable {
    /// The HTTP version to ask for.
    public enum HTTPVersion: Sendable, Equatable {
        /// HTTP/2 over TLS when the server offers it via ALPN, else HTTP/1.1.
        case automatic
        /// HTTP/1.0: one request per connection, no chunked bodies (for old servers and proxies).
        case http1_0
        /// HTTP/1.1 only.
        case http1_1
        /// HTTP/2; libcurl falls back to HTTP/1.1 when the server cannot negotiate it.
        case http2
    }

    /// Whole-request limit in milliseconds; default 30 s.
    public var timeoutMilliseconds: Int = HTTPDefaults.timeoutMilliseconds
    /// Default 10 s.
    public var connectTimeoutMilliseconds: Int = HTTPDefaults.connectTimeoutMilliseconds
    /// Default true.
    public var followRedirects: Bool = HTTPDefaults.followRedirects
    /// Default 10.
    public var maxRedirects: Int = HTTPDefaults.maxRedirects
    /// Send credentials (`Authorization`, a URL's user and password) on to another host when a
    /// redirect leads there (`CURLOPT_UNRESTRICTED_AUTH`, `curl --location-trusted`). Default false:
    /// libcurl sends them to the first host only.
    public var unrestrictedAuth: Bool = false
    /// Default ``HTTPVersion/automatic``.
    public var httpVersion: HTTPVersion = .automatic
    /// Ask for and decode gzip, deflate and br. Default true.
    public var compressed: Bool = HTTPDefaults.compressed
    /// `nil` uses the `*_proxy` environment variables, as libcurl does.
    public var proxy: String?
    /// Certificates, keys, verification and pinning.
    public var tls: TLSOptions {
        get { tlsStorage?.options ?? TLSOptions() }
        set { tlsStorage = newValue.isDefault ? nil : TLSStorage(newValue) }
    }
    /// Nil for the defaults, what nearly every request has: a request is copied on its way
    /// to libcurl, and TLS settings held inline cost five string retains (and releases) per copy.
    private var tlsStorage: TLSStorage?

    /// ``tls`` when any of its settings differs from the defaults (nil costs nothing to ask).
    package var nonDefaultTLS: TLSOptions? { tlsStorage?.options }
    /// Credentials libcurl sends in answer to the server's challenge (Digest); nil (the
    /// default) answers none. `Authorization` headers of the request's own go as they are.
    public var authentication: HTTPAuthentication?
    /// Cookies are read from and stored into this jar; `nil` disables cookies.
    public var cookieJar: CookieJar?
    /// Of ``cookieJar``'s cookies, only those of these names are sent (nil, the default: all of
    /// them). libcurl still picks which apply to each URL; what the server sets goes into the jar.
    public var onlyCookies: Set<String>?
    /// Cookies dropped from a jar (usually ``cookieJar``) before the request is sent; nil (the
    /// default) drops none.
    public var clearsCookies: CookieJarClearing?
    /// `name=value; name2=value2`, sent on the request and every redirect it follows, to any host
    /// (`CURLOPT_COOKIE`, `curl -b`), beside the jar's cookies; the jar never stores them.
    public var cookie: String?
    /// Bodies above this size fail the request (`responseTooLarge`) instead of exhausting memory. Default 256 MiB.
    public var maxResponseBytes: Int = HTTPDefaults.maxResponseBytes
    /// Record every request header block libcurl sends (``HTTPResponse/sentRequests``).
    /// Default false: they are then recorded only when libcurl may add credentials of its
    /// own (a cookie jar that received cookies, `user:password@` in the URL or the proxy's
    /// URL), since recording costs a few microseconds per request.
    public var recordSentRequests: Bool = false
    /// Receive a body kept in memory as the server sent it and undo its gzip, deflate or br
    /// in Courier, keeping both (``HTTPResponse/encodedBody`` and ``HTTPResponse/body``);
    /// ``maxResponseBytes`` bounds each. Only with ``compressed``. Default false: libcurl
    /// decodes, which is faster and keeps one copy.
    public var keepsEncodedBody: Bool = false

    /// The built-in defaults.
    public init() {}
}

/// TLS settings; paths are absolute or relative to the working directory.
public struct TLSOptions: Sendable {
    /// A PEM CA bundle used instead of the system's.
    public var caPath: String?
    /// A PEM certificate, or PKCS#12 when the name ends in `.p12` or `.pfx`.
    public var certificatePath: String?
    /// A PEM private key (not needed for PKCS#12).
    public var keyPath: String?
    /// Password of an encrypted key or of a PKCS#12 file.
    public var password: String?
    /// Skip verification of the server's certificate and name.
    public var insecure: Bool = false
    /// `sha256//BASE64` public-key pin.
    public var pinnedPublicKey: String?

    /// Verification on, the system's CAs, no client certificate.
    public init() {}

    /// Every setting at its default (no file, no password, verification on, no pin).
    var isDefault: Bool {
        caPath == nil && certificatePath == nil && keyPath == nil && password == nil && !insecure && pinnedPublicKey == nil
    }

    var certificateIsPKCS12: Bool {
        guard let path = certificatePath?.lowercased() else { return false }
        return path.hasSuffix(".p12") || path.hasSuffix(".pfx")
    }
}

/// Holds a request's non-default ``TLSOptions`` behind one reference (see ``HTTPRequestOptions/tls``).
/// Immutable: setting `tls` makes a new one, so copies of a request never share a change.
private final class TLSStorage: Sendable {
    let options: TLSOptions

    init(_ options: TLSOptions) {
        self.options = options
    }
}
