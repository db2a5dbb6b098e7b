import CourierDiagnostics

extension WorkflowDecoder {
    /// Keys users put one level off, with a message saying where they belong.
    static let requestHints: [String: String] = [
        "retry": "'retry' belongs to the step, not the request; move it one level up (next to 'request')",
        "expect": "'expect' belongs to the step, not the request; move it one level up (next to 'request')",
        "capture": "'capture' belongs to the step, not the request; move it one level up (next to 'request')",
    ]
    static let defaultsHints: [String: String] = [
        "url": "'url' is per request; for a common prefix use 'base_url' in defaults",
        "cookie": "'cookie' (cookies to send) is per request; put it in the request, or set a 'Cookie' header in defaults",
        "clear_cookies": "'clear_cookies' empties the jar once, before one request; put it in the request that should start without them",
    ]
    static let optionKeys = ["base_url", "timeout", "connect_timeout", "follow_redirects", "max_redirects",
                             "http_version", "compressed", "cookies", "proxy", "tls"]
    static let bodyKeys = ["json", "form", "multipart", "body", "body_file"]
    static let requestKeys = ["method", "url", "query", "headers", "cookie", "clear_cookies", "auth"] + bodyKeys + ["content_type"] + optionKeys
    static let defaultsKeys = ["headers", "auth"] + optionKeys + ["retry"]

    // MARK: - Request

    func request(_ node: YAMLNode) -> Request? {
        guard let f = fields(node, in: "request", allowed: Self.requestKeys, hints: Self.requestHints) else { return nil }

        let method = f["method"].flatMap { template($0, for: "method") } ?? Template(literal: "GET", range: node.range)
        var url: Template?
        if let urlNode = f["url"] {
            url = template(urlNode, for: "url")
        } else {
            error("missing required key 'url' in request", at: node.range)
        }
        // Everything is worked out first and the request built once: its setters replace its storage.
        let query = f["query"].map(query) ?? []
        let auth = f["auth"].flatMap(requestAuth)
        var options = options(f, context: "request")
        if let h = f["headers"] { options.headers = headers(h, for: "headers") }
        let cookie = f["cookie"].map(cookieEntries) ?? []
        let clearCookies = f["clear_cookies"].flatMap { choice($0, for: "clear_cookies", [("session", CookieClearing.session), ("all", .all)]) }
        let body = body(f)
        guard let url else { return nil }
        return Request(method: method, url: url, query: query, auth: auth, body: body, cookie: cookie, clearCookies: clearCookies,
                       options: options, range: node.range)
    }

    func query(_ node: YAMLNode) -> [(name: Template, values: [TemplateValue])] {
        guard let entries = namedEntries(node, for: "'query'") else { return [] }
        return entries.compactMap { entry in
            let name = parseTemplate(entry.name, entry.key)
            switch entry.value.kind {
            case .scalar:
                return (name, [templateValue(entry.value)])
            case .sequence(let items):
                let values = items.compactMap { item -> TemplateValue? in
                    guard item.scalar != nil else {
                        error("expected a string or number in query parameter '\(entry.name)', found \(item.kindDescription)", at: item.range)
                        return nil
                    }
                    return templateValue(item)
                }
                return (name, values)
            case .mapping:
                error("expected a value or a list of values for query parameter '\(entry.name)', found a mapping", at: entry.value.range)
                return nil
            }
        }
    }

    /// Header map; `null` values remove a header set by `defaults`. Names may hold
    /// templates (rendered when the request is built); a fixed name is checked now.
    func headers(_ node: YAMLNode, for key: String) -> [HeaderEntry] {
        guard let entries = namedEntries(node, for: "'\(key)'") else { return [] }
        return entries.compactMap { entry in
            let name = parseTemplate(entry.name, entry.key)
            if let literal = name.literalText, let problem = HeaderEntry.problem(withName: literal) {
                error(problem, at: entry.key.range)
                return nil
            }
            if entry.value.isNull { return HeaderEntry(name: name, value: nil, range: entry.key.range) }
            guard let value = template(entry.value, for: entry.name) else { return nil }
            return HeaderEntry(name: name, value: value, range: entry.key.range)
        }
    }

    /// `cookie:`, a map of cookies to send. Its values may be templates; a fixed name or value
    /// that would break the `Cookie:` line is checked now (a rendered one when the request is built).
    func cookieEntries(_ node: YAMLNode) -> [CookieEntry] {
        if case .bool(let flag)? = node.scalar?.value {
            // `cookies: true|false` is the jar's switch (section 6); `cookie:` sends cookies.
            error("'cookie' is a map of cookies to send, like { session: abc }; to turn the cookie jar "
                  + "\(flag ? "on" : "off") write 'cookies: \(flag)'", at: node.range)
            return []
        }
        guard let entries = namedEntries(node, for: "'cookie'") else { return [] }
        return entries.compactMap { entry in
            let name = parseTemplate(entry.name, entry.key)
            if let literal = name.literalText, let problem = CookieEntry.problem(withName: literal) {
                error(problem, at: entry.key.range)
                return nil
            }
            guard let value = template(entry.value, for: entry.name) else { return nil }
            if let literal = value.literalText, let problem = CookieEntry.problem(withValue: literal, name: entry.name) {
                error(problem, at: entry.value.range)
                return nil
            }
            return CookieEntry(name: name, value: value, range: entry.key.range)
        }
    }

    func requestAuth(_ node: YAMLNode) -> RequestAuth? {
        if let scalar = node.scalar, scalar.text == "none" { return RequestAuth.none }
        let schemes = ["bearer", "basic", "digest", "header"]
        guard let f = fields(node, in: "auth", allowed: schemes) else { return nil }
        let present = schemes.filter(f.has)
        guard present.count == 1 else {
            if present.isEmpty {
                error("'auth' needs one of 'bearer', 'basic', 'digest' or 'header' (or write 'auth: none')", at: node.range)
            } else if let second = f.key(present[1]) {
                error("'auth' takes one scheme; '\(present[1])' conflicts with '\(present[0])'", at: second.range)
            }
            return nil
        }
        switch present[0] {
        case "bearer":
            return f["bearer"].flatMap { template($0, for: "bearer") }.map(RequestAuth.bearer)
        case "basic":
            return credentials(f["basic"], in: "basic auth").map { RequestAuth.basic(username: $0.username, password: $0.password) }
        case "digest":
            return credentials(f["digest"], in: "digest auth").map { RequestAuth.digest(username: $0.username, password: $0.password) }
        default:
            guard let h = f["header"].flatMap({ fields($0, in: "header auth", allowed: ["name", "value"]) }) else { return nil }
            guard let name = required(h, "name", in: "header auth").flatMap({ template($0, for: "name") }),
                  let value = required(h, "value", in: "header auth").flatMap({ template($0, for: "value") }) else { return nil }
            return .header(name: name, value: value)
        }
    }

    /// `{ username: U, password: P }` of `basic` and `digest`, both required.
    private func credentials(_ node: YAMLNode?, in context: String) -> (username: Template, password: Template)? {
        guard let c = node.flatMap({ fields($0, in: context, allowed: ["username", "password"]) }) else { return nil }
        guard let user = required(c, "username", in: context).flatMap({ template($0, for: "username") }),
              let password = required(c, "password", in: context).flatMap({ template($0, for: "password") }) else { return nil }
        return (user, password)
    }

    /// The value of a key that must be present.
    func required(_ f: Fields, _ key: String, in context: String) -> YAMLNode? {
        if let value = f[key] { return value }
        error("missing required key '\(key)' in \(context)", at: f.range)
        return nil
    }

    // MARK: - Body

    private func body(_ f: Fields) -> Body? {
        guard f.hasAny(of: Self.bodyKeys) || f.has("content_type") else { return nil }
        let present = f.order.filter { Self.bodyKeys.contains($0) }
        if present.count > 1, let second = f.key(present[1]), let first = f.key(present[0]) {
            error("a request has at most one body; '\(present[1])' conflicts with '\(present[0])'", at: second.range,
                  notes: [.note("'\(present[0])' is set here", at: first.range)])
        }
        let contentType = f["content_type"].flatMap { template($0, for: "content_type") }
        if let ct = f.key("content_type"), let kind = present.first, kind != "body", kind != "body_file" {
            error("'content_type' applies to 'body' and 'body_file'; for '\(kind)' set a 'Content-Type' header instead", at: ct.range)
        }
        guard let kind = present.first, let node = f[kind] else { return nil }
        switch kind {
        case "json":
            return .json(templateValue(node))
        case "form":
            guard let entries = namedEntries(node, for: "'form'") else { return nil }
            return .form(entries.compactMap { entry in
                template(entry.value, for: entry.name).map { (parseTemplate(entry.name, entry.key), $0) }
            })
        case "multipart":
            return multipart(node).map(Body.multipart)
        case "body":
            return template(node, for: "body").map { .text($0, contentType: contentType) }
        default:
            return template(node, for: "body_file").map { checkFile($0, for: "body_file"); return .file($0, contentType: contentType) }
        }
    }

    private func multipart(_ node: YAMLNode) -> [RequestMultipartPart]? {
        switch node.kind {
        case .mapping:
            // Map shorthand: `{ caption: Sunset, title: x }` — value parts only.
            guard let entries = namedEntries(node, for: "'multipart'") else { return nil }
            return entries.compactMap { shorthandPart($0.name, key: $0.key, value: $0.value) }
        case .sequence(let items):
            return items.compactMap(multipartPart)
        default:
            error("expected a sequence of parts for 'multipart', found \(node.kindDescription)", at: node.range)
            return nil
        }
    }

    private func shorthandPart(_ name: String, key: YAMLNode, value: YAMLNode) -> RequestMultipartPart? {
        guard let content = template(value, for: name) else { return nil }
        return RequestMultipartPart(name: parseTemplate(name, key), content: .value(content), range: key.range.union(value.range))
    }

    private func multipartPart(_ node: YAMLNode) -> RequestMultipartPart? {
        let keys = ["name", "value", "file", "filename", "content_type"]
        // `- { caption: Sunset }`: a one-entry map without `name` is the shorthand.
        if let pairs = node.mapping, pairs.count == 1, let key = pairs[0].key.scalar?.text, !keys.contains(key) {
            return shorthandPart(key, key: pairs[0].key, value: pairs[0].value)
        }
        guard let f = fields(node, in: "multipart part", allowed: keys) else { return nil }
        guard let name = required(f, "name", in: "multipart part").flatMap({ template($0, for: "name") }) else { return nil }
        let content: RequestMultipartPart.Content
        switch (f["value"], f["file"]) {
        case (let value?, nil):
            guard let t = template(value, for: "value") else { return nil }
            content = .value(t)
        case (nil, let file?):
            guard let t = template(file, for: "file") else { return nil }
            checkFile(t, for: "file")
            content = .file(t)
        case (_?, _?):
            if let key = f.key("file") { error("a multipart part has 'value' or 'file', not both", at: key.range) }
            return nil
        case (nil, nil):
            error("a multipart part needs 'value' or 'file'", at: node.range)
            return nil
        }
        return RequestMultipartPart(name: name, content: content,
                             filename: f["filename"].flatMap { template($0, for: "filename") },
                             contentType: f["content_type"].flatMap { template($0, for: "content_type") },
                             range: node.range)
    }

    // MARK: - Options

    /// `defaults:`: request options plus headers and retry.
    func defaults(_ node: YAMLNode) -> RequestOptions {
        guard let f = fields(node, in: "defaults", allowed: Self.defaultsKeys, hints: Self.defaultsHints) else { return RequestOptions() }
        var options = options(f, context: "defaults")
        if let h = f["headers"] { options.headers = headers(h, for: "headers") }
        if let r = f["retry"] { options.retry = retryPolicy(r) }
        if let a = f["auth"] { options.auth = requestAuth(a) }
        return options
    }

    /// The option keys shared by `defaults:` and `request:`.
    func options(_ f: Fields, context: String) -> RequestOptions {
        var o = RequestOptions()
        guard f.hasAny(of: Self.optionKeys) else { return o }
        o.baseURL = f["base_url"].flatMap { template($0, for: "base_url") }
        o.timeout = f["timeout"].flatMap { duration($0, for: "timeout") }
        o.connectTimeout = f["connect_timeout"].flatMap { duration($0, for: "connect_timeout") }
        if let follow = f["follow_redirects"].flatMap(followRedirects) {
            (o.followRedirects, o.trustedRedirects) = (follow.follow, follow.trusted)
        }
        o.maxRedirects = f["max_redirects"].flatMap { int($0, for: "max_redirects", minimum: 0) }
        o.httpVersion = f["http_version"].flatMap { choice($0, for: "http_version", [("1.0", RequestHTTPVersion.http1_0), ("1.1", .http1_1), ("2", .http2), ("2.0", .http2)]) }
        o.compressed = f["compressed"].flatMap { bool($0, for: "compressed") }
        if let node = f["cookies"], let use = cookieJarUse(node) { (o.cookies, o.onlyCookies) = use }
        o.proxy = f["proxy"].flatMap { template($0, for: "proxy") }
        o.tls = f["tls"].flatMap(tlsOptions)
        return o
    }

    /// `true`, `false` or `{ trusted: true }` (follow, and send credentials to other hosts
    /// too). `true` and `false` trust no other host, whatever a lower layer said.
    private func followRedirects(_ node: YAMLNode) -> (follow: Bool, trusted: Bool)? {
        // `yes`/`no` get bool's YAML 1.2 hint.
        guard case .mapping = node.kind else { return bool(node, for: "follow_redirects").map { ($0, false) } }
        guard let f = fields(node, in: "'follow_redirects'", allowed: ["trusted"]) else { return nil }
        guard let value = f["trusted"] else {
            // An unknown key (`trustd`) has been reported with its did-you-mean already.
            if node.mapping?.isEmpty ?? true { error("missing required key 'trusted' in 'follow_redirects'", at: node.range) }
            return nil
        }
        return bool(value, for: "trusted").map { (true, $0) }
    }

    /// `cookies: true|false`, or `{ only: [names] }` (the jar on, sending those of its cookies);
    /// another mapping there is a request's `cookie:` in the wrong place.
    private func cookieJarUse(_ node: YAMLNode) -> (on: Bool, only: [String]?)? {
        guard case .mapping = node.kind else { return bool(node, for: "cookies").map { ($0, nil) } }
        guard node["only"] != nil else {
            error("'cookies' turns the cookie jar on or off (true or false) or picks its cookies ({ only: [name, …] }); "
                  + "to send cookies write 'cookie: { name: value }' in the request", at: node.range)
            return nil
        }
        guard let f = fields(node, in: "'cookies'", allowed: ["only"]), let list = f["only"],
              let items = sequence(list, for: "cookies.only") else { return nil }
        guard !items.isEmpty else {
            error("'cookies.only' needs at least one cookie name; to send none of the jar's cookies write 'cookies: false'", at: list.range)
            return nil
        }
        var names: [String] = []
        for item in items {
            guard let name = item.scalar?.text, item.scalar?.value != .null else {
                error("expected a cookie name in 'cookies.only', found \(item.kindDescription)", at: item.range)
                return nil
            }
            if let problem = CookieEntry.problem(withName: name) {
                error(problem, at: item.range)
                return nil
            }
            names.append(name)
        }
        return (true, names)
    }

    private func tlsOptions(_ node: YAMLNode) -> RequestTLSOptions? {
        guard let f = fields(node, in: "tls", allowed: ["ca", "cert", "key", "password", "insecure", "pinned_key"]) else { return nil }
        return RequestTLSOptions(
            ca: f["ca"].flatMap { template($0, for: "ca") }.map { checkFile($0, for: "tls.ca") },
            cert: f["cert"].flatMap { template($0, for: "cert") }.map { checkFile($0, for: "tls.cert") },
            key: f["key"].flatMap { template($0, for: "key") }.map { checkFile($0, for: "tls.key") },
            password: f["password"].flatMap { template($0, for: "password") },
            insecure: f["insecure"].flatMap { bool($0, for: "insecure") },
            pinnedKey: f["pinned_key"].flatMap { template($0, for: "pinned_key") })
    }
}
