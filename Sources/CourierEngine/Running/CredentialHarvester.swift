import CourierHTTP
import CourierJSON
import CourierResults
import CourierSecrets
import CourierWorkflow
import Foundation

/// Everything of a workflow run that registers a value to mask: declared secrets, secret
/// captures, and the credentials in each request as built and as libcurl sent it.
///
/// Values are registered the moment they are met, committed or not: the registry is what
/// masks every output, and a failed attempt's transcript must be masked too.
struct CredentialHarvester {
    private let registry: SecretRegistry
    /// The `*_proxy` environment variables libcurl reads, those set: their credentials are
    /// registered before each request.
    private let environmentProxies: [String]

    init(registry: SecretRegistry, environment: [String: String]) {
        self.registry = registry
        self.environmentProxies = URLCredentials.proxyEnvironmentVariables.compactMap { environment[$0] }
    }

    // MARK: - Secrets

    /// A `secrets:` value: its name first (for output that names a secret rather than hides
    /// it), then the value as ``secret(_:)`` registers it.
    func declaredSecret(_ value: JSONValue, name: String) {
        if case .string(let text) = value { registry.register(text, name: name) }
        secret(value)
    }

    /// The text quoted inside a secret's expressions, which is what it is computed from.
    func textsQuoted(in definition: TemplateValue) {
        for text in TemplateLiterals.quotedStrings(in: definition) where !SecretLength.isTooShort(text) {
            registry.register(text, name: nil)
        }
    }

    /// Registers a secret value: every string and number leaf of a list or map on its
    /// own (`{{ creds.key }}`, `{{ toks[0] }}` and `for_each` items print leaves), and
    /// the whole as compact and as pretty JSON (`{{ creds }}`, `| json`, reports).
    func secret(_ value: JSONValue) {
        // A stack, not recursion: values may be nested 512 deep.
        var pending = [value]
        while let next = pending.popLast() {
            switch next {
            case .string(let s): registry.register(s, name: nil)
            case .number(let n): registry.register(n.text, name: nil)
            case .null, .bool: break
            case .array(let items): pending += items
            case .object(let object): pending += object.values
            }
        }
        switch value {
        case .array, .object:
            registry.register(value.serialized(), name: nil)
            registry.register(value.serialized(pretty: true), name: nil)
        default:
            break
        }
    }

    // MARK: - Requests

    /// The credentials of a request as built, before it is sent: its credential headers, what
    /// `apply` added (a credential whatever its header's or parameter's name), the TLS key's
    /// password, Digest's password, and the userinfo of its URL, its proxy and the environment's proxies.
    func built(_ request: HTTPRequest, applied: [String]) {
        for value in applied { credential(value) }
        headers(request.headers)
        // The spec counts `tls.password` among the secrets, whoever wrote it where.
        if let password = request.options.nonDefaultTLS?.password, !password.isEmpty { registry.register(password, name: nil) }
        // Digest's password never travels; the `Authorization: Digest …` libcurl builds from it
        // is registered when sent (``sent(_:)``). A server may still echo the password back.
        if case .digest(let username, let password)? = request.options.authentication {
            credential(password)
            credential(username + ":" + password)
        }
        urlCredentials(of: request.url)
        // The proxy: the step's or --proxy, else the environment's, as libcurl picks it.
        if let proxy = request.options.proxy { urlCredentials(of: proxy) }
        for proxy in environmentProxies { urlCredentials(of: proxy) }
    }

    /// Credentials in what libcurl really sent (its jar's `Cookie`, Basic credentials built
    /// from a URL's userinfo, `Proxy-Authorization`, also on a proxy's `CONNECT`), for a
    /// transfer that failed.
    func sent(_ requests: [HTTPSentRequest]) {
        for request in requests { headers(request.headers) }
    }

    /// ``sent(_:)`` for a response, and the cookies every hop's response set.
    func sent(_ response: HTTPResponse) {
        sent(response.sentRequests)
        for hop in response.redirects { headers(hop.headers) }
        headers(response.headers)
    }

    /// A value taken from a credential header or a URL's userinfo. Unlike a declared or
    /// captured secret, a short one is left alone: `Cookie: lang=en` must not mask every
    /// `en` of the output, and a credential that short protects nothing.
    private func credential(_ text: String) {
        guard !SecretLength.isTooShort(text) else { return }
        registry.register(text, name: nil)
    }

    /// The password (and `user:password`) of a URL's userinfo, raw and decoded: libcurl
    /// turns it into Basic credentials that no header of ours shows.
    private func urlCredentials(of url: String) {
        guard let credentials = URLCredentials(url: url) else { return }
        for text in credentials.sensitiveTexts { credential(text) }
    }

    /// Credential header values (``CredentialHeaderNames``) are secrets whatever the workflow says:
    /// a server may echo them back in a body, where no header name marks them.
    private func headers(_ headers: HTTPHeaders) {
        // Most blocks hold no credential: asked of each name in place.
        guard headers.fields.indices.contains(where: { CredentialHeaders.isCredential(headers.fields[$0].name) }) else { return }
        // By index, not `for field in`: most fields are not credentials, and are then not copied.
        for index in headers.indices where CredentialHeaders.isCredential(headers[index].name) {
            let field = headers[index]
            switch field.name.lowercased() {
            case "authorization", "proxy-authorization": authorization(field.value)
            case "cookie": cookie(field.value)
            case "set-cookie": setCookie(field.value)
            default:
                // `X-Api-Key`, `Api-Key`: the whole value is the key.
                credential(field.value)
            }
        }
    }

    /// The value, the credential after its scheme, and Basic credentials decoded (the
    /// password alone may show up too).
    private func authorization(_ value: String) {
        credential(value)
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return }
        let token = String(parts[1]).trimmingCharacters(in: .whitespaces)
        credential(token)
        if parts[0].lowercased() == "basic", let data = Data(base64Encoded: token),
           let decoded = String(data: data, encoding: .utf8) {
            credential(decoded)
            if let colon = decoded.firstIndex(of: ":") { credential(String(decoded[decoded.index(after: colon)...])) }
        }
    }

    private func cookie(_ value: String) {
        credential(value)
        for pair in value.split(separator: ";") {
            if let equals = pair.firstIndex(of: "=") {
                credential(pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces))
            }
        }
    }

    /// The jar sends it back as `Cookie:` on its own: the pair and its value are secrets (spec §12).
    private func setCookie(_ value: String) {
        let pair = value.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
        guard let equals = pair.firstIndex(of: "=") else { return }
        let cookieValue = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        guard !cookieValue.isEmpty else { return }
        credential(pair)
        credential(cookieValue)
    }
}
