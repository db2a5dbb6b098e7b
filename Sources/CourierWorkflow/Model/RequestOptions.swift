import CourierDiagnostics

/// Options that `defaults:` sets for every request and a `request:` may
/// override (spec section 6). Every field is optional so layers merge with
/// one function, ``layered(request:defaults:commandLine:)``: request over
/// workflow defaults over command line over the built-in values.
package struct RequestOptions: Sendable {
    package var baseURL: Template?
    /// Headers in file order. Merging is by case-insensitive name; a nil
    /// value removes the header from lower layers. A templated name merges by
    /// its rendered text when the request is built.
    package var headers: [HeaderEntry]
    /// Built-in default: 30s.
    package var timeout: Duration?
    /// Built-in default: 10s.
    package var connectTimeout: Duration?
    /// Built-in default: true.
    package var followRedirects: Bool?
    /// Credentials (`Authorization`, a URL's user and password) go on to another host when a
    /// redirect leads there (`follow_redirects: { trusted: true }`, libcurl's
    /// `CURLOPT_UNRESTRICTED_AUTH`). Built-in default: false. Written together with
    /// ``followRedirects``, so a layer's `follow_redirects` replaces a lower one's as a whole.
    package var trustedRedirects: Bool?
    /// Built-in default: 10.
    package var maxRedirects: Int?
    /// Built-in default: negotiated by libcurl.
    package var httpVersion: RequestHTTPVersion?
    /// Built-in default: true.
    package var compressed: Bool?
    /// Built-in default: true (one jar per workflow run).
    package var cookies: Bool?
    /// `cookies: { only: [a, b] }`: of the jar's cookies, only these names are sent (nil: all).
    /// Set with ``cookies`` (true) and layered with it: the layer that sets `cookies` decides both.
    package var onlyCookies: [String]?
    /// Built-in default: the `http_proxy`/`https_proxy`/`no_proxy` environment.
    package var proxy: Template?
    package var tls: RequestTLSOptions?
    /// Only in `defaults:` (a step's `retry:` overrides it as a whole).
    package var retry: StepRetry?
    /// Only in `defaults:`: the `auth` of every request that has none of its own and gets
    /// no `auth.apply` (spec section 9). Not layered by ``merged(over:)``: the engine picks
    /// between a request's own `auth`, `apply` and this one.
    package var auth: RequestAuth?

    package init(baseURL: Template? = nil, headers: [HeaderEntry] = [], timeout: Duration? = nil,
                 connectTimeout: Duration? = nil, followRedirects: Bool? = nil, trustedRedirects: Bool? = nil, maxRedirects: Int? = nil,
                 httpVersion: RequestHTTPVersion? = nil, compressed: Bool? = nil, cookies: Bool? = nil,
                 proxy: Template? = nil, tls: RequestTLSOptions? = nil, retry: StepRetry? = nil) {
        self.baseURL = baseURL
        self.headers = headers
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.followRedirects = followRedirects
        self.trustedRedirects = trustedRedirects
        self.maxRedirects = maxRedirects
        self.httpVersion = httpVersion
        self.compressed = compressed
        self.cookies = cookies
        self.proxy = proxy
        self.tls = tls
        self.retry = retry
    }

    /// No field is written, `auth` included (a request holds no copy of such options).
    /// `RequestOptionLayeringTests` fails when a field is added and not checked here.
    package var writesNothing: Bool { isEmpty && auth == nil }

    /// The options a request is sent with: the request's own over the workflow's `defaults:`,
    /// over the command line's (`--timeout`, `--proxy`, `--cacert`, …), over `builtIns`, the
    /// built-in values of spec section 6 (the engine makes that layer from CourierHTTP's
    /// defaults: this module does not link the HTTP layer).
    /// The one place these layers meet: every field that has a built-in value is set in the result.
    ///
    /// `--insecure` is the one exception to "upper wins": it turns verification off for the
    /// whole run, whatever a workflow's `tls.insecure: false` says (the run's warning says so).
    ///
    /// ```swift
    /// let effective = RequestOptions.layered(request: request.options, defaults: workflow.defaults,
    ///                                        commandLine: settings.commandLineOptions)
    /// ```
    package static func layered(request: RequestOptions, defaults: RequestOptions, commandLine: RequestOptions,
                                builtIns: RequestOptions) -> RequestOptions {
        layered(request: request, over: LowerLayers(defaults: defaults, commandLine: commandLine, builtIns: builtIns))
    }

    /// The same, with the layers under the request's merged already: they are the same
    /// for every request of a workflow, and merging them per request cost a few percent
    /// of a small request's instructions.
    package static func layered(request: RequestOptions, over lower: LowerLayers) -> RequestOptions {
        var result = request.isEmpty ? lower.merged : request.merged(over: lower.merged)
        if lower.insecure { result.tls?.insecure = true }
        return result
    }

    /// A workflow's `defaults:` over the command line's options over the built-in ones, merged once.
    package struct LowerLayers: Sendable {
        let merged: RequestOptions
        /// `--insecure`, which wins over every layer.
        let insecure: Bool

        package init(defaults: RequestOptions, commandLine: RequestOptions, builtIns: RequestOptions) {
            merged = defaults.merged(over: commandLine.merged(over: builtIns))
            insecure = commandLine.tls?.insecure == true
        }
    }

    /// Sets no layered option (everything but `auth`, which is not layered): laid over a
    /// layer, gives that layer (`merged` has already dropped its `null` headers).
    private var isEmpty: Bool {
        baseURL == nil && headers.isEmpty && timeout == nil && connectTimeout == nil && followRedirects == nil
            && trustedRedirects == nil && maxRedirects == nil && httpVersion == nil && compressed == nil && cookies == nil && onlyCookies == nil && proxy == nil
            && tls == nil && retry == nil
    }

    /// These options laid over `lower`: every field set here wins, unset ones
    /// fall through; headers are merged by case-insensitive name (this layer's
    /// value replaces the lower one in place, nil removes it, new ones are
    /// appended); TLS options merge field by field. Used by ``layered(request:defaults:commandLine:)``.
    package func merged(over lower: RequestOptions) -> RequestOptions {
        var result = RequestOptions(
            baseURL: baseURL ?? lower.baseURL,
            headers: Self.mergeHeaders(headers, over: lower.headers),
            timeout: timeout ?? lower.timeout,
            connectTimeout: connectTimeout ?? lower.connectTimeout,
            followRedirects: followRedirects ?? lower.followRedirects,
            trustedRedirects: trustedRedirects ?? lower.trustedRedirects,
            maxRedirects: maxRedirects ?? lower.maxRedirects,
            httpVersion: httpVersion ?? lower.httpVersion,
            compressed: compressed ?? lower.compressed,
            cookies: cookies ?? lower.cookies,
            proxy: proxy ?? lower.proxy,
            tls: nil,
            retry: retry ?? lower.retry)
        // A request's `cookies: true` sends them all again, over a `defaults` that picked some.
        result.onlyCookies = cookies != nil ? onlyCookies : lower.onlyCookies
        switch (tls, lower.tls) {
        case let (upper?, lowerTLS?): result.tls = upper.merged(over: lowerTLS)
        case let (upper?, nil): result.tls = upper
        case let (nil, lowerTLS): result.tls = lowerTLS
        }
        return result
    }

    /// Merges headers with fixed names here; a templated name is known only when the
    /// request is built, so such an entry (and every removal that might concern it) is
    /// kept in layer order for the engine, which applies the list in order by rendered name.
    private static func mergeHeaders(_ upper: [HeaderEntry], over lower: [HeaderEntry]) -> [HeaderEntry] {
        let templatedNames = upper.contains { $0.literalName == nil } || lower.contains { $0.literalName == nil }
        if upper.isEmpty { return templatedNames ? lower : lower.filter { $0.value != nil } }
        var result = lower
        for entry in upper {
            guard let key = entry.literalName?.lowercased() else {
                result.append(entry)
                continue
            }
            if let index = result.firstIndex(where: { $0.literalName?.lowercased() == key }) {
                result[index] = entry
                // Later duplicates of the same name in lower layers are dropped too.
                var i = index + 1
                while i < result.count {
                    if result[i].literalName?.lowercased() == key { result.remove(at: i) } else { i += 1 }
                }
            } else {
                result.append(entry)
            }
        }
        return templatedNames ? result : result.filter { $0.value != nil }
    }
}

/// `http_version:` as written (nil: negotiated). Workflow-model types of a request that have a
/// rendered counterpart in CourierHTTP are named `Request…` (like ``RequestAuth``): there
/// `HTTPRequestOptions.HTTPVersion`, `TLSOptions` and `MultipartPart` are the rendered ones,
/// built by the engine's `RequestBuilder`.
package enum RequestHTTPVersion: String, Sendable, Hashable {
    case http1_0 = "1.0"
    case http1_1 = "1.1"
    case http2 = "2"
}

/// `tls:` options as written (templates); paths are relative to ``Workflow/directory``.
/// Rendered into CourierHTTP's `TLSOptions`.
package struct RequestTLSOptions: Sendable {
    package var ca: Template?
    /// PEM or PKCS#12 (`.p12`/`.pfx`).
    package var cert: Template?
    package var key: Template?
    /// A secret: masked in every output.
    package var password: Template?
    package var insecure: Bool?
    /// `sha256//BASE64`.
    package var pinnedKey: Template?

    package init(ca: Template? = nil, cert: Template? = nil, key: Template? = nil, password: Template? = nil,
                 insecure: Bool? = nil, pinnedKey: Template? = nil) {
        self.ca = ca
        self.cert = cert
        self.key = key
        self.password = password
        self.insecure = insecure
        self.pinnedKey = pinnedKey
    }

    package func merged(over lower: RequestTLSOptions) -> RequestTLSOptions {
        RequestTLSOptions(ca: ca ?? lower.ca, cert: cert ?? lower.cert, key: key ?? lower.key,
                   password: password ?? lower.password, insecure: insecure ?? lower.insecure,
                   pinnedKey: pinnedKey ?? lower.pinnedKey)
    }
}
