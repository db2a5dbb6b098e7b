import CourierDiagnostics

/// A step's `request:` (spec section 5).
package struct Request: Sendable {
    /// The fields live in one immutable object, so copying a request (into a
    /// step, an optional, an array) copies one reference instead of ~900 bytes.
    /// A setter replaces the object.
    private final class Storage: Sendable {
        let method: Template
        let url: Template
        let query: [(name: Template, values: [TemplateValue])]
        let auth: RequestAuth?
        let body: Body?
        let cookie: [CookieEntry]
        let clearCookies: CookieClearing?
        /// Nil when no option is set (most requests): 736 bytes a request did not need.
        let setOptions: Boxed<RequestOptions>?
        let range: SourceRange

        var options: RequestOptions { setOptions?.value ?? RequestOptions() }

        init(method: Template, url: Template, query: [(name: Template, values: [TemplateValue])], auth: RequestAuth?, body: Body?,
             cookie: [CookieEntry], clearCookies: CookieClearing?, options: RequestOptions, range: SourceRange) {
            self.method = method
            self.url = url
            self.query = query
            self.auth = auth
            self.body = body
            self.cookie = cookie
            self.clearCookies = clearCookies
            self.setOptions = options.writesNothing ? nil : Boxed(options)
            self.range = range
        }
    }

    private var storage: Storage

    /// `GET` when not written (then its range is the request's).
    package var method: Template { storage.method }

    package var url: Template { storage.url }

    /// Query parameters in file order; a YAML list repeats the parameter. Names may hold templates.
    package var query: [(name: Template, values: [TemplateValue])] { storage.query }

    package var auth: RequestAuth? { storage.auth }

    package var body: Body? { storage.body }

    /// `cookie:`, in file order: sent on every hop, other hosts too, beside the jar's cookies.
    package var cookie: [CookieEntry] { storage.cookie }

    /// `clear_cookies:`: the jar's cookies dropped before the request is sent.
    package var clearCookies: CookieClearing? { storage.clearCookies }

    /// Options written on the request itself, including its `headers`
    /// (in `options.headers`). Layered with ``RequestOptions/layered(request:defaults:commandLine:)``.
    package var options: RequestOptions { storage.options }

    package var range: SourceRange { storage.range }

    package init(method: Template, url: Template, query: [(name: Template, values: [TemplateValue])] = [],
                 auth: RequestAuth? = nil, body: Body? = nil, cookie: [CookieEntry] = [], clearCookies: CookieClearing? = nil,
                 options: RequestOptions = RequestOptions(), range: SourceRange) {
        storage = Storage(method: method, url: url, query: query, auth: auth, body: body, cookie: cookie, clearCookies: clearCookies,
                          options: options, range: range)
    }

    /// The request's own headers (`options.headers`); a nil value removes a default.
    /// Read without copying the whole options.
    package var headers: [HeaderEntry] { storage.setOptions?.value.headers ?? [] }
}

/// A header line; `value == nil` (`X-Debug: null`) removes a header set by `defaults`.
///
/// The name may hold a template (`"{{ key }}": Apple`): it is rendered when the request
/// is built, and layers merge by the rendered name.
package struct HeaderEntry: Sendable {
    package var name: Template
    package var value: Template?
    /// The name's range.
    package var range: SourceRange

    package init(name: Template, value: Template?, range: SourceRange) {
        self.name = name
        self.value = value
        self.range = range
    }

    /// A header with a fixed name.
    package init(name: String, value: Template?, range: SourceRange) {
        self.init(name: Template(literal: name, range: range), value: value, range: range)
    }

    /// The name when it holds no template.
    package var literalName: String? { name.literalText }

    /// Why `name` cannot be a header field name, or nil when it can. HTTP allows only
    /// token characters; these are the ones that would break the request itself (an
    /// empty name, a colon, white space or a line break), which libcurl would send as is.
    package static func problem(withName name: String) -> String? {
        if name.isEmpty { return "a header name cannot be empty" }
        if let bad = name.unicodeScalars.first(where: { $0 == ":" || $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }) {
            let shown = bad == ":" ? "':'" : bad == " " ? "a space" : bad == "\t" ? "a tab" : "a line break"
            return "the header name '\(name.debugDescription.dropFirst().dropLast())' contains \(shown)"
        }
        return nil
    }
}

/// One cookie of a request's `cookie:` map. Sent as `curl -b` sends it (libcurl's
/// `CURLOPT_COOKIE`): on the request and every redirect it follows, to any host, beside the
/// cookies of the workflow's jar (`cookies:`), which it never changes.
package struct CookieEntry: Sendable {
    package var name: Template
    package var value: Template
    /// The name's range.
    package var range: SourceRange

    package init(name: Template, value: Template, range: SourceRange) {
        self.name = name
        self.value = value
        self.range = range
    }

    /// Why `name` cannot be a cookie's name, or nil when it can: what would break the
    /// `Cookie:` line libcurl sends as is (RFC 6265 §4.1.1 names are tokens).
    package static func problem(withName name: String) -> String? {
        if name.isEmpty { return "a cookie name cannot be empty" }
        if let bad = name.unicodeScalars.first(where: { "=;, \t\r\n\"".unicodeScalars.contains($0) }) {
            return "the cookie name '\(name.debugDescription.dropFirst().dropLast())' contains \(shown(bad))"
        }
        return nil
    }

    /// Why `value` cannot be a cookie's value, or nil when it can: a `;` would start another
    /// cookie and a line break another header.
    package static func problem(withValue value: String, name: String) -> String? {
        guard let bad = value.unicodeScalars.first(where: { $0 == ";" || $0 == "\r" || $0 == "\n" }) else { return nil }
        return "the value of cookie '\(name)' contains \(shown(bad)); percent-encode it (e.g. with '| url_encode')"
    }

    private static func shown(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case " ": "a space"
        case "\t": "a tab"
        case "\r", "\n": "a line break"
        default: "'\(scalar)'"
        }
    }
}

/// Per-request credentials.
package enum RequestAuth: Sendable {
    case bearer(Template)
    case basic(username: Template, password: Template)
    /// HTTP Digest (RFC 7616), answered by libcurl: no header is built; the password is a secret.
    case digest(username: Template, password: Template)
    /// An API-key style header.
    case header(name: Template, value: Template)
    /// `auth: none`: send without the workflow's `auth.apply`.
    case none
}

/// The request body: at most one kind per request.
package enum Body: Sendable {
    /// Sent as JSON; `Content-Type: application/json` unless a header sets it.
    case json(TemplateValue)
    /// `application/x-www-form-urlencoded`; names may hold templates.
    case form([(name: Template, value: Template)])
    case multipart([RequestMultipartPart])
    /// `body:` sent as is.
    case text(Template, contentType: Template?)
    /// `body_file:` streamed from disk; the path is relative to ``Workflow/directory``.
    case file(Template, contentType: Template?)
}

/// One part of a `multipart:` body as written (templates); rendered into CourierHTTP's `MultipartPart`.
package struct RequestMultipartPart: Sendable {
    package enum Content: Sendable {
        case value(Template)
        /// A path relative to ``Workflow/directory``, streamed from disk.
        case file(Template)
    }

    package var name: Template
    package var content: Content
    package var filename: Template?
    package var contentType: Template?
    package var range: SourceRange

    package init(name: Template, content: Content, filename: Template? = nil, contentType: Template? = nil, range: SourceRange) {
        self.name = name
        self.content = content
        self.filename = filename
        self.contentType = contentType
        self.range = range
    }
}
