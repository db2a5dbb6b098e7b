import CourierDiagnostics
import CourierHTTP
import CourierJSON
import CourierWorkflow
import Foundation

/// Resolves a step's request — templates, defaults, auth, body — into the
/// exact `HTTPRequest` to send.
struct RequestBuilder {
    let renderer: TemplateRenderer
    /// `--max-body-size`: what the run's settings say (not the whole settings: copying
    /// them for every request cost a retain of each of their many references).
    let maxResponseBytes: Int
    /// Relative paths (files, certificates) resolve against this directory.
    let directory: String
    let cookieJar: CookieJar?

    /// Builds the request with the workflow `auth:` flow's `apply` when `flow` is given (the
    /// caller decides which requests get it). Credentials, by precedence: the request's own
    /// `auth` (`none`: nothing), else `apply`, else `defaults.auth`. `applied` holds the
    /// rendered `apply` values: credentials, whatever their header's name.
    /// `layers` are `defaults` over the command line's options, merged once per workflow.
    func build(_ request: Request, defaults: RequestOptions, layers: RequestOptions.LowerLayers,
               applying flow: AuthFlow?) throws(EvaluationError) -> (request: HTTPRequest, applied: [String]) {
        // Read once: each read of a request's options copies them out of the model.
        let written = request.options
        let options = RequestOptions.layered(request: written, over: layers)

        var url = try renderer.string(request.url)
        if !Self.hasScheme(url) {
            guard let base = try options.baseURL.map({ (t: Template) throws(EvaluationError) in try renderer.string(t) }), !base.isEmpty else {
                throw EvaluationError(.invalid, "'\(url)' is not an absolute URL and no base_url is set; write http://host/… or set defaults.base_url", at: request.url.range)
            }
            url = Self.join(base, url)
        }
        url = try appendQuery(request.query, to: url)
        var applied: [String] = []
        if let flow, !flow.applyQuery.isEmpty {
            url = try appendQuery(flow.applyQuery, to: url, rendered: &applied)
        }

        var headers = HTTPHeaders()
        // In layer order (defaults first): a later entry replaces an earlier one of the
        // same rendered name, case-insensitively, and `null` removes it.
        for entry in options.headers {
            let name = try headerName(entry)
            if let value = entry.value {
                headers.set(name: name, value: try renderer.string(value))
            } else {
                headers.remove(name: name)
            }
        }
        if let flow {
            // Over `defaults.headers`, under the request's own headers of the same name.
            for entry in flow.applyHeaders {
                let name = try headerName(entry)
                var own = false
                for header in written.headers where try headerName(header).caseInsensitiveEquals(name) { own = true }
                guard !own, let value = entry.value else { continue }
                let rendered = try renderer.string(value)
                headers.set(name: name, value: rendered)
                applied.append(rendered)
            }
        }
        let authentication = flow == nil ? try applyAuth(request.auth ?? defaults.auth, to: &headers) : nil

        // The merge drops `null` headers, so the step's own list tells whether it removed the type.
        let contentTypeRemoved = written.headers.contains { $0.value == nil && ((try? headerName($0))?.caseInsensitiveEquals("Content-Type") ?? false) }
        let body = try self.body(request.body, headers: &headers, contentTypeRemoved: contentTypeRemoved)
        let method = try renderer.string(request.method).uppercased()
        var transport = try transportOptions(options)
        if !request.cookie.isEmpty { transport.cookie = try cookieLine(request.cookie) }
        transport.authentication = authentication
        if let clearing = request.clearCookies, let jar = cookieJar {
            transport.clearsCookies = CookieJarClearing(jar: jar, scope: clearing == .all ? .all : .session)
        }
        return (HTTPRequest(method: method.isEmpty ? "GET" : method, url: url, headers: headers, body: body,
                            options: transport), applied)
    }

    /// `cookie:` as libcurl sends it, `a=1; b=2`, each rendered name and value checked as a
    /// fixed one is at load: what would break the `Cookie:` line is a step error.
    private func cookieLine(_ cookies: [CookieEntry]) throws(EvaluationError) -> String {
        var pairs: [String] = []
        for cookie in cookies {
            let name: String
            if let literal = cookie.name.literalText { name = literal } else { name = try renderer.string(cookie.name) }
            if let problem = CookieEntry.problem(withName: name) { throw EvaluationError(.invalid, problem, at: cookie.range) }
            let value = try renderer.string(cookie.value)
            if let problem = CookieEntry.problem(withValue: value, name: name) {
                throw EvaluationError(.invalid, problem, at: cookie.value.range)
            }
            pairs.append(name + "=" + value)
        }
        return pairs.joined(separator: "; ")
    }

    /// A header's name, rendered when it holds a template and then checked like a fixed
    /// name is at load: what libcurl would send as a broken header line is a step error.
    private func headerName(_ entry: HeaderEntry) throws(EvaluationError) -> String {
        if let literal = entry.literalName { return literal }
        let name = try renderer.string(entry.name)
        if let problem = HeaderEntry.problem(withName: name) {
            throw EvaluationError(.invalid, problem, at: entry.range)
        }
        return name
    }

    // MARK: - URL

    /// Whether `url` starts with `scheme://` (RFC 3986 scheme characters). A byte scan: this
    /// runs for every request, and Foundation's substring search showed in profiles.
    static func hasScheme(_ url: String) -> Bool {
        var bytes = url.utf8.makeIterator()
        var length = 0
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                length += 1
            case UInt8(ascii: ":"):
                return length > 0 && bytes.next() == UInt8(ascii: "/") && bytes.next() == UInt8(ascii: "/")
            default:
                return false
            }
        }
        return false
    }

    /// `http://h/api` + `/users` → `http://h/api/users`: a base URL's path is kept, one slash between.
    static func join(_ base: String, _ path: String) -> String {
        if path.isEmpty { return base }
        let left = base.hasSuffix("/") ? String(base.dropLast()) : base
        let right = path.hasPrefix("/") || path.hasPrefix("?") ? path : "/" + path
        return left + right
    }

    private func appendQuery(_ query: [(name: Template, values: [TemplateValue])], to url: String) throws(EvaluationError) -> String {
        var rendered: [String] = []
        return try appendQuery(query, to: url, rendered: &rendered)
    }

    /// `rendered` collects the values as sent (for `apply`, whose values are credentials).
    private func appendQuery(_ query: [(name: Template, values: [TemplateValue])], to url: String,
                             rendered: inout [String]) throws(EvaluationError) -> String {
        guard !query.isEmpty else { return url }
        var pairs: [String] = []
        for (nameTemplate, values) in query {
            let name = try renderer.string(nameTemplate)
            for value in values {
                let resolved = try renderer.value(value)
                // A list value repeats the parameter: `tag: [a, b]` → `tag=a&tag=b`.
                let items: [JSONValue] = if case .array(let list) = resolved { list } else { [resolved] }
                for item in items {
                    rendered.append(TemplateRenderer.interpolation(item))
                    pairs.append(Filters.percentEncode(name) + "=" + Filters.percentEncode(TemplateRenderer.interpolation(item)))
                }
            }
        }
        let (beforeFragment, fragment) = Self.splitFragment(url)
        let separator = beforeFragment.contains("?") ? (beforeFragment.hasSuffix("?") || beforeFragment.hasSuffix("&") ? "" : "&") : "?"
        return beforeFragment + separator + pairs.joined(separator: "&") + fragment
    }

    private static func splitFragment(_ url: String) -> (String, String) {
        guard let hash = url.firstIndex(of: "#") else { return (url, "") }
        return (String(url[..<hash]), String(url[hash...]))
    }

    // MARK: - Auth

    /// Sets the credential header of `auth`, or returns the credentials libcurl answers a
    /// challenge with (Digest), which no header can hold.
    private func applyAuth(_ auth: RequestAuth?, to headers: inout HTTPHeaders) throws(EvaluationError) -> HTTPAuthentication? {
        switch auth {
        case nil, .none?:
            break
        case .digest(let username, let password)?:
            return .digest(username: try renderer.string(username), password: try renderer.string(password))
        case .bearer(let token)?:
            headers.set(name: "Authorization", value: "Bearer " + (try renderer.string(token)))
        case .basic(let username, let password)?:
            let credentials = (try renderer.string(username)) + ":" + (try renderer.string(password))
            headers.set(name: "Authorization", value: "Basic " + Data(credentials.utf8).base64EncodedString())
        case .header(let name, let value)?:
            headers.set(name: try renderer.string(name), value: try renderer.string(value))
        }
        return nil
    }

    // MARK: - Body

    private func body(_ body: Body?, headers: inout HTTPHeaders, contentTypeRemoved: Bool) throws(EvaluationError) -> HTTPRequestBody {
        func defaultContentType(_ type: String) {
            // `Content-Type: null` removed it on purpose: then the body goes without one.
            if !headers.contains("Content-Type") && !contentTypeRemoved { headers.set(name: "Content-Type", value: type) }
        }
        switch body {
        case nil:
            return .none
        case .json(let value)?:
            defaultContentType("application/json")
            return .bytes(try renderer.value(value).serializedBytes())
        case .form(let fields)?:
            defaultContentType("application/x-www-form-urlencoded")
            var pairs: [String] = []
            for field in fields {
                pairs.append(Filters.percentEncode(try renderer.string(field.name)) + "=" + Filters.percentEncode(try renderer.string(field.value)))
            }
            return .bytes(Array(pairs.joined(separator: "&").utf8))
        case .multipart(let parts)?:
            var result: [MultipartPart] = []
            for part in parts {
                let content: MultipartPart.Content
                switch part.content {
                case .value(let value): content = .value(try renderer.string(value))
                case .file(let path): content = .file(path: try resolveBodyPath(path))
                }
                result.append(MultipartPart(
                    name: try renderer.string(part.name), content: content,
                    filename: try part.filename.map { (t: Template) throws(EvaluationError) in try renderer.string(t) },
                    contentType: try part.contentType.map { (t: Template) throws(EvaluationError) in try renderer.string(t) }))
            }
            return .multipart(result)
        case .text(let text, let contentType)?:
            // The text is sent as UTF-8, so that is what it says it is unless told otherwise.
            defaultContentType(try contentType.map { (t: Template) throws(EvaluationError) in try renderer.string(t) } ?? "text/plain; charset=utf-8")
            return .bytes(Array(try renderer.string(text).utf8))
        case .file(let path, let contentType)?:
            // A file is bytes of unknown kind (RFC 9110 §8.3), never libcurl's form default.
            defaultContentType(try contentType.map { (t: Template) throws(EvaluationError) in try renderer.string(t) } ?? "application/octet-stream")
            // Read (and a missing file reported, as `file_unreadable`) when the request is sent;
            // a pipe or `-` (standard input) is read then too (PipedBodyReader).
            return .file(path: try resolveBodyPath(path))
        }
    }

    /// Like `resolvePath`, but `-` stays `-`: standard input, not a file named `-`.
    private func resolveBodyPath(_ template: Template) throws(EvaluationError) -> String {
        FilePaths.resolve(try renderer.string(template), against: directory, standardInput: true)
    }

    private func resolvePath(_ template: Template) throws(EvaluationError) -> String {
        FilePaths.resolve(try renderer.string(template), against: directory)
    }

    // MARK: - Transport options

    /// The layered options (every built-in set) rendered for the transport; relative
    /// files resolve against the directory of the workflow that names them.
    private func transportOptions(_ options: RequestOptions) throws(EvaluationError) -> HTTPRequestOptions {
        var result = HTTPRequestOptions()
        if let timeout = options.timeout { result.timeoutMilliseconds = Int(timeout.wholeMilliseconds) }
        if let timeout = options.connectTimeout { result.connectTimeoutMilliseconds = Int(timeout.wholeMilliseconds) }
        if let follow = options.followRedirects { result.followRedirects = follow }
        if let trusted = options.trustedRedirects { result.unrestrictedAuth = trusted }
        if let max = options.maxRedirects { result.maxRedirects = max }
        switch options.httpVersion {
        case nil: result.httpVersion = .automatic
        case .http1_0?: result.httpVersion = .http1_0
        case .http1_1?: result.httpVersion = .http1_1
        case .http2?: result.httpVersion = .http2
        }
        if let compressed = options.compressed { result.compressed = compressed }
        result.cookieJar = options.cookies == false ? nil : cookieJar
        if let names = options.onlyCookies { result.onlyCookies = Set(names) }
        if let proxy = options.proxy { result.proxy = try renderer.string(proxy) }
        result.maxResponseBytes = maxResponseBytes

        // Only when some layer names TLS settings: the defaults are what the options hold already.
        if let given = options.tls {
            var tls = TLSOptions()
            func path(_ t: Template?) throws(EvaluationError) -> String? {
                guard let t else { return nil }
                return try resolvePath(t)
            }
            tls.caPath = try path(given.ca)
            tls.certificatePath = try path(given.cert)
            tls.keyPath = try path(given.key)
            if let password = given.password { tls.password = try renderer.string(password) }
            if let insecure = given.insecure { tls.insecure = insecure }
            if let pin = given.pinnedKey { tls.pinnedPublicKey = try renderer.string(pin) }
            result.tls = tls
        }
        return result
    }
}
