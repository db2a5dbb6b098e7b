import CourierDiagnostics

/// A step's `request:` (spec section 5).
package struct Request: Sendable {
    /// `GET` when not written (then its range is the request's).
    package var method: Template
    package var url: Template
    /// Query parameters in file order; a YAML list repeats the parameter.
    package var query: [(name: String, values: [TemplateValue])]
    package var auth: RequestAuth?
    package var body: Body?
    /// Options written on the request itself, including its `headers`
    /// (in `options.headers`). Merge with `options.merged(over: workflow.defaults)`.
    package var options: RequestOptions
    package var range: SourceRange

    package init(method: Template, url: Template, query: [(name: String, values: [TemplateValue])] = [],
                 auth: RequestAuth? = nil, body: Body? = nil, options: RequestOptions = RequestOptions(), range: SourceRange) {
        self.method = method
        self.url = url
        self.query = query
        self.auth = auth
        self.body = body
        self.options = options
        self.range = range
    }

    /// The request's own headers (`options.headers`); a nil value removes a default.
    package var headers: [HeaderEntry] { options.headers }
}

/// A header line; `value == nil` (`X-Debug: null`) removes a header set by `defaults`.
package struct HeaderEntry: Sendable {
    package var name: String
    package var value: Template?
    package var range: SourceRange

    package init(name: String, value: Template?, range: SourceRange) {
        self.name = name
        self.value = value
        self.range = range
    }
}

/// Per-request credentials.
package enum RequestAuth: Sendable {
    case bearer(Template)
    case basic(username: Template, password: Template)
    /// An API-key style header.
    case header(name: Template, value: Template)
    /// `auth: none`: send without the workflow's `auth.apply`.
    case none
}

/// The request body: at most one kind per request.
package enum Body: Sendable {
    /// Sent as JSON; `Content-Type: application/json` unless a header sets it.
    case json(TemplateValue)
    /// `application/x-www-form-urlencoded`.
    case form([(name: String, value: Template)])
    case multipart([MultipartPart])
    /// `body:` sent as is.
    case text(Template, contentType: Template?)
    /// `body_file:` streamed from disk; the path is relative to ``Workflow/directory``.
    case file(Template, contentType: Template?)
}

/// One part of a `multipart:` body.
package struct MultipartPart: Sendable {
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
