import CourierHTTP
import CourierSecrets
import Foundation

/// A `curl` command line reproducing a request (`--curl`), for POSIX sh.
///
/// The promise (docs/workflow-format.md §11): run with the variables it names exported, the
/// command sends a request equal byte for byte to the one Courier sent — request line, header
/// lines in order, body — but for the `User-Agent` value and the multipart boundary. Only
/// options of curl 7.81 are used: `--globoff` (the URL as it is), `--data-raw` (no `@FILE`),
/// `--form-string` and quoted `-F` words (no `@`/`<` in a value read as a file).
///
/// Built at attempt time from the live request, since the recorded one is masked (`***`
/// cannot be sent again), and from the header block libcurl sent when it was recorded (the
/// `Cookie` its jar added, as `-b`). Each secret value is replaced by a shell variable named
/// after the secret (`$COURIER_SECRET_TOKEN`) where it occurs; a secret that travels
/// percent-encoded (query, `form:` fields) by a variable holding that encoding
/// (`$COURIER_SECRET_TOKEN_PCT`), in place, so a signed URL stays as it was; Basic credentials
/// are built from the variable by the shell. Comment lines before the command name the
/// variables to export. What is left is masked with the policy before it is quoted, so a secret
/// in a form no variable holds (JSON-escaped, base64) shows as `***`.
///
/// A request Courier refused, or one curl's options cannot send as it was, gets no command:
/// only a comment line saying why.
///
///     # export COURIER_SECRET_TOKEN=…
///     curl -H "Authorization: Bearer $COURIER_SECRET_TOKEN" --globoff 'http://127.0.0.1:8080/me'
struct CurlCommand {
    let policy: MaskingPolicy

    /// Inline bodies above this size are not printed (`--data-binary @body.bin` with a note instead).
    static let inlineBodyLimit = 64 * 1024

    /// `# no curl command: …`, the text recorded instead of a command.
    static func noCommand(_ reason: String) -> String { "# no curl command: \(reason)" }

    /// The text for a request that failed with `error`: no command when Courier refused to send
    /// it (the request never left, and running a command would do what Courier would not).
    func render(_ request: HTTPRequest, failedWith error: HTTPError) -> String {
        if Self.refusedKinds.contains(error.kind) {
            return Self.noCommand("Courier did not send this request (\(error.kind)): \(policy.mask(error.message))")
        }
        return render(request, sent: error.sentRequests)
    }

    /// Errors for which nothing was sent because Courier (not the network) decided so.
    static let refusedKinds: Set<HTTPError.Kind> = [.invalidHeader, .invalidURL, .fileUnreadable, .requestBodyTooLarge, .clientShutDown]

    /// `sent`: the header blocks libcurl sent for this request, when recorded (empty otherwise).
    func render(_ request: HTTPRequest, sent: [HTTPSentRequest] = []) -> String {
        if let reason = unsendable(request) { return Self.noCommand(reason) }
        var line = CurlArguments(policy: policy, substitutions: CurlSubstitutions(policy: policy))
        method(request, into: &line)
        for field in request.headers {
            // Basic credentials holding a named secret: the shell builds the base64 from the variable.
            if let credentials = basicCredentials(field) {
                line.option("-H", raw: line.basicHeader(field, scheme: credentials.scheme, credentials: credentials.decoded))
                continue
            }
            // `Name;` is curl's way to send a header with an empty value.
            line.option("-H", field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)")
        }
        // The jar's cookies: libcurl added them, so only the block it sent holds them.
        // `-b` (not `-H`) so curl's own cookie engine places them, and carries them across
        // redirects, as libcurl did for Courier.
        for cookie in Self.jarCookies(sent, request: request) { line.option("-b", cookie) }
        // `cookie:`, which libcurl sent after the jar's (CURLOPT_COOKIE), as `curl -b` sends it.
        if let cookie = request.options.cookie { line.option("-b", cookie) }
        // Digest: curl answers the challenge as libcurl did, the password a variable when it is a
        // named secret (else masked). Not the `Authorization: Digest …` sent: its nonce is spent.
        if case .digest(let username, let password)? = request.options.authentication {
            line.flag("--digest")
            line.option("-u", username + ":" + password)
        }
        switch request.body {
        case .none, .multipart:
            break
        case .bytes, .file, .stream:
            // curl labels a body `application/x-www-form-urlencoded`; Courier sends no type of its own.
            if !request.headers.contains("Content-Type") { line.option("-H", "Content-Type:") }
        }
        if case .none = request.body {} else if !request.headers.contains("Expect") { line.option("-H", "Expect:") }
        if let reason = body(request.body, into: &line) { return Self.noCommand(reason) }
        options(request.options, into: &line)
        // `[1-3]` and `{a,b}` are curl's URL globs: without this one request would become several.
        line.flag("--globoff")
        line.argument(request.url)
        return line.text()
    }

    /// Why curl's options cannot send `request` as it was, or nil when they can.
    private func unsendable(_ request: HTTPRequest) -> String? {
        for field in request.headers {
            // The one rule Courier sends by: such a request is refused, never sent.
            if HTTPHeaders.lineBreakProblem(field) != nil {
                return "Courier does not send a header holding a line break or NUL (invalid_header)"
            }
            if field.name.hasPrefix("@") {
                return "curl reads `-H @…` as a file of headers, so it cannot send the header '\(policy.mask(field.name))'"
            }
        }
        return nil
    }

    private func method(_ request: HTTPRequest, into line: inout CurlArguments) {
        let hasBody: Bool
        if case .none = request.body { hasBody = false } else { hasBody = true }
        switch request.method {
        case "GET" where !hasBody: break
        case "POST" where hasBody: break
        // `-X HEAD` makes curl wait for a body that never comes.
        case "HEAD" where !hasBody: line.flag("--head")
        default: line.option("-X", request.method)
        }
    }

    /// The body's options; a reason when curl cannot send it as it was.
    private func body(_ body: HTTPRequestBody, into line: inout CurlArguments) -> String? {
        switch body {
        case .none:
            return nil
        case .bytes(let bytes):
            if bytes.count > Self.inlineBodyLimit || bytes.contains(0) || String(validating: bytes, as: UTF8.self) == nil {
                line.note("# the body (\(bytes.count) bytes) is not shown: put the bytes Courier sent in body.bin")
                line.option("--data-binary", "@body.bin")
            } else {
                // `--data-raw`: a body starting with `@` is sent as it is, never read from a file.
                line.option("--data-raw", String(decoding: bytes, as: UTF8.self))
            }
            return nil
        case .file(let path):
            // `@-` would read standard input, not the file named `-`.
            line.option("--data-binary", "@" + (path == "-" ? "./-" : path))
            return nil
        case .stream(let stream):
            line.note("# the body was streamed (\(stream.length.map { "\($0) bytes" } ?? "length unknown")): put it in body.bin")
            line.option("--data-binary", "@body.bin")
            return nil
        case .multipart(let parts):
            for (index, part) in parts.enumerated() {
                if let reason = CurlFormPart(part, index: index).render(into: &line) { return reason }
            }
            return nil
        }
    }

    private func options(_ options: HTTPRequestOptions, into line: inout CurlArguments) {
        if options.followRedirects {
            line.flag(options.unrestrictedAuth ? "--location-trusted" : "-L")
            line.option("--max-redirs", String(options.maxRedirects))
        }

        line.option("--max-time", Self.seconds(options.timeoutMilliseconds))
        line.option("--connect-timeout", Self.seconds(options.connectTimeoutMilliseconds))
        switch options.httpVersion {
        case .automatic: break
        case .http1_0: line.flag("--http1.0")
        case .http1_1: line.flag("--http1.1")
        case .http2: line.flag("--http2")
        }
        if options.compressed { line.flag("--compressed") }
        if let proxy = options.proxy {
            if proxy.isEmpty { line.option("--noproxy", "*") } else { line.option("--proxy", proxy) }
        }
        let tls = options.tls
        if tls.insecure { line.flag("-k") }
        if let path = tls.caPath { line.option("--cacert", path) }
        if let path = tls.certificatePath {
            line.option("--cert", path)
            if path.lowercased().hasSuffix(".p12") || path.lowercased().hasSuffix(".pfx") { line.option("--cert-type", "P12") }
        }
        if let path = tls.keyPath { line.option("--key", path) }
        if let password = tls.password { line.option("--pass", password) }
        if let pin = tls.pinnedPublicKey { line.option("--pinnedpubkey", pin) }
    }

    /// The scheme word and `user:password` of an `Authorization: Basic …` header whose
    /// decoded credentials hold a named secret; nil otherwise (the header is then shown as
    /// it is, or masked).
    private func basicCredentials(_ field: HTTPHeaders.Field) -> (scheme: String, decoded: String)? {
        guard field.name.lowercased() == "authorization" else { return nil }
        let parts = field.value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].lowercased() == "basic",
              let data = Data(base64Encoded: String(parts[1])),
              let decoded = String(data: data, encoding: .utf8),
              // Exactly what the shell's `base64` gives again: the same text, byte for byte.
              Data(decoded.utf8).base64EncodedString() == String(parts[1]),
              // Only for a declared secret: its variable is one the user knows how to set.
              policy.secrets.contains(where: { $0.name != nil && !$0.value.isEmpty && decoded.contains($0.value) })
        else { return nil }
        return (String(parts[0]), decoded)
    }

    /// The `Cookie` values libcurl sent from its jar on the first hop: those of its block
    /// that the request did not set itself.
    static func jarCookies(_ sent: [HTTPSentRequest], request: HTTPRequest) -> [String] {
        guard let first = sent.first(where: { !$0.isProxyConnect }) else { return [] }
        let own = Set(request.headers.values(for: "Cookie"))
        return first.headers.values(for: "Cookie").compactMap { line -> String? in
            guard !own.contains(line) else { return nil }
            // libcurl appends `cookie:` to the jar's line: `jar=1; own=2`, or `own=2` alone.
            var jar = line
            if let mine = request.options.cookie {
                if jar == mine { return nil }
                if jar.hasSuffix("; " + mine) { jar.removeLast(mine.count + 2) }
            }
            return jar.isEmpty ? nil : jar
        }
    }

    /// `1500` → `1.5`, `30000` → `30`.
    static func seconds(_ milliseconds: Int) -> String {
        let whole = milliseconds / 1000, rest = milliseconds % 1000
        guard rest != 0 else { return String(whole) }
        var fraction = String(rest)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction)"
    }
}
