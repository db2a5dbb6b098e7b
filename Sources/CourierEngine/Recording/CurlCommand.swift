import CourierHTTP
import CourierSecrets
import Foundation

/// A `curl` command line reproducing a request (`--curl`), for POSIX sh.
///
/// Built at attempt time from the live request, since the recorded one is
/// masked (`***` cannot be sent again), and from the header block libcurl sent
/// when it was recorded (the `Cookie` its jar added, as `-b`). Each secret value
/// is replaced by a shell variable named after the secret (`$COURIER_SECRET_TOKEN`);
/// a comment line before the command names the variables to export. A secret that
/// travels encoded goes to curl raw, for curl to encode: a query value through
/// `--url-query`, a `form:` field through `--data-urlencode`, Basic credentials
/// through `-u`. What is left is masked with the policy before it is quoted, so a
/// secret in a form no variable holds (JSON-escaped, in a URL's path) shows as `***`.
///
///     # export COURIER_SECRET_TOKEN=…
///     curl -H "Authorization: Bearer $COURIER_SECRET_TOKEN" 'http://127.0.0.1:8080/me'
struct CurlCommand {
    let policy: MaskingPolicy

    /// Inline bodies above this size are not printed (`--data-binary @FILE` with a note instead).
    static let inlineBodyLimit = 64 * 1024

    /// One piece of an argument: literal text or a secret's variable.
    private enum Segment: Equatable {
        case text(String)
        case variable(String)
    }

    /// The secrets with the variable each is shown as, longest value first so a
    /// secret holding another is replaced whole.
    private var substitutions: [(value: String, variable: String)] {
        var seen = Set<String>()
        var named: [(value: String, variable: String)] = []
        var unnamed: [(value: String, variable: String)] = []
        for (index, secret) in policy.secrets.enumerated() where !secret.value.isEmpty {
            // An unnamed secret (a credential header's whole value) gets its position.
            var variable = MaskingPolicy.shellVariable(forName: secret.name ?? String(index + 1))
            while seen.contains(variable) { variable += "_" }
            seen.insert(variable)
            if secret.name == nil { unnamed.append((secret.value, variable)) } else { named.append((secret.value, variable)) }
        }
        // Named secrets first: a credential header registered whole (`Bearer …`) then
        // still shows the name of the secret inside it.
        let longestFirst = { (first: (value: String, variable: String), second: (value: String, variable: String)) in
            first.value.utf8.count > second.value.utf8.count
        }
        return named.sorted(by: longestFirst) + unnamed.sorted(by: longestFirst)
    }

    /// `sent`: the header blocks libcurl sent for this request, when recorded (empty otherwise).
    func render(_ request: HTTPRequest, sent: [HTTPSentRequest] = []) -> String {
        let substitutions = self.substitutions
        var used: [String] = []
        var notes: [String] = []
        var arguments: [String] = ["curl"]

        var maskedAny = false
        func argument(_ text: String) -> String {
            // Masked before quoting: quoting splits a form (`'` becomes `'\''`) so that no
            // mask would find it afterwards.
            let segments = Self.segments(of: text, substitutions: substitutions).map { segment -> Segment in
                guard case .text(let literal) = segment else { return segment }
                let masked = policy.mask(literal)
                if masked != literal { maskedAny = true }
                return .text(masked)
            }
            for case .variable(let name) in segments where !used.contains(name) { used.append(name) }
            return Self.quoted(segments)
        }
        func option(_ name: String, _ value: String) {
            arguments.append(name)
            arguments.append(argument(value))
        }

        let hasBody: Bool
        if case .none = request.body { hasBody = false } else { hasBody = true }
        switch request.method {
        case "GET" where !hasBody: break
        case "POST" where hasBody: break
        // `-X HEAD` makes curl wait for a body that never comes.
        case "HEAD" where !hasBody: arguments.append("--head")
        default: option("-X", request.method)
        }
        for field in request.headers {
            // Basic credentials holding a named secret: `-u` lets curl build the base64 from the variable.
            if let credentials = basicCredentials(field) {
                option("-u", credentials)
                continue
            }
            // `Name;` is curl's way to send a header with an empty value.
            option("-H", field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)")
        }
        // The jar's cookies: libcurl added them, so only the block it sent holds them.
        // `-b` (not `-H`) so curl's own cookie engine carries them across redirects as libcurl did.
        for cookie in Self.jarCookies(sent, request: request) { option("-b", cookie) }
        switch request.body {
        case .none, .multipart:
            break
        case .bytes, .file, .stream:
            // curl labels a body `application/x-www-form-urlencoded`; Courier sends no type of its own.
            if !request.headers.contains("Content-Type") { option("-H", "Content-Type:") }
        }
        if hasBody && !request.headers.contains("Expect") { option("-H", "Expect:") }
        switch request.body {
        case .none:
            break
        case .bytes(let bytes):
            if bytes.count > Self.inlineBodyLimit || bytes.contains(0) || String(validating: bytes, as: UTF8.self) == nil {
                notes.append("# the body (\(bytes.count) bytes) is not shown: put it in body.bin")
                option("--data-binary", "@body.bin")
            } else if Self.isForm(request), let fields = Self.formFields(String(decoding: bytes, as: UTF8.self), substitutions: substitutions) {
                // curl joins its data options with `&`, in order: the same body, a secret's field encoded by curl.
                for field in fields { option(field.encodedByCurl ? "--data-urlencode" : "--data-binary", field.text) }
            } else {
                option("--data-binary", String(decoding: bytes, as: UTF8.self))
            }
        case .file(let path):
            option("--data-binary", "@" + path)
        case .stream(let stream):
            notes.append("# the body was streamed (\(stream.length.map { "\($0) bytes" } ?? "length unknown")): put it in body.bin")
            option("--data-binary", "@body.bin")
        case .multipart(let parts):
            for part in parts {
                var extras = ""
                if let filename = part.filename { extras += ";filename=\(filename)" }
                if let type = part.contentType { extras += ";type=\(type)" }
                switch part.content {
                case .value(let value):
                    // `--form-string` takes the value as it is (`-F` reads `@` and `<` as files).
                    option(extras.isEmpty ? "--form-string" : "-F", extras.isEmpty ? "\(part.name)=\(value)" : "\(part.name)=\(value)\(extras)")
                case .file(let path):
                    option("-F", "\(part.name)=@\(path)\(extras)")
                case .data(let bytes):
                    notes.append("# part \(part.name) was read from a pipe (\(bytes.count) bytes): put it in \(part.name).bin")
                    option("-F", "\(part.name)=@\(part.name).bin\(extras)")
                }
            }
        }
        options(request.options, option: option, flag: { arguments.append($0) })
        // A secret in the query is percent-encoded there: `--url-query` encodes the value
        // of the variable the same way when curl builds the URL.
        let (url, queries) = Self.splitSecretQueries(request.url, substitutions: substitutions)
        for query in queries { option("--url-query", query) }
        arguments.append(argument(url))

        var lines = used.map { "# export \($0)=…" }
        lines += notes
        let command = arguments.joined(separator: " ")
        // Masked once more whole, as every output is (a form across two arguments).
        let masked = policy.mask(command)
        if maskedAny || masked != command {
            // A secret sent encoded (JSON-escaped, base64, percent-encoded in the path): no variable holds that form.
            lines.append("# \(MaskingPolicy.mask) stands for a secret sent in an encoded form: put that form in before running")
        }
        lines.append(masked)
        return lines.joined(separator: "\n")
    }

    private func options(_ options: HTTPRequestOptions, option: (String, String) -> Void, flag: (String) -> Void) {
        if options.followRedirects {
            flag("-L")
            option("--max-redirs", String(options.maxRedirects))
        }
        option("--max-time", Self.seconds(options.timeoutMilliseconds))
        option("--connect-timeout", Self.seconds(options.connectTimeoutMilliseconds))
        switch options.httpVersion {
        case .automatic: break
        case .http1_1: flag("--http1.1")
        case .http2: flag("--http2")
        }
        if options.compressed { flag("--compressed") }
        if let proxy = options.proxy {
            if proxy.isEmpty { option("--noproxy", "*") } else { option("--proxy", proxy) }
        }
        let tls = options.tls
        if tls.insecure { flag("-k") }
        if let path = tls.caPath { option("--cacert", path) }
        if let path = tls.certificatePath {
            option("--cert", path)
            if path.lowercased().hasSuffix(".p12") || path.lowercased().hasSuffix(".pfx") { option("--cert-type", "P12") }
        }
        if let path = tls.keyPath { option("--key", path) }
        if let password = tls.password { option("--pass", password) }
        if let pin = tls.pinnedPublicKey { option("--pinnedpubkey", pin) }
    }

    /// The URL without the query parameters whose decoded value holds a secret, and
    /// those parameters as `name=value` with the value decoded.
    static func splitSecretQueries(_ url: String, substitutions: [(value: String, variable: String)]) -> (String, [String]) {
        guard let mark = url.firstIndex(of: "?") else { return (url, []) }
        let fragmentStart = url[mark...].firstIndex(of: "#") ?? url.endIndex
        let query = url[url.index(after: mark)..<fragmentStart]
        var kept: [Substring] = []
        var moved: [String] = []
        for parameter in query.split(separator: "&", omittingEmptySubsequences: false) {
            let equals = parameter.firstIndex(of: "=")
            let name = equals.map { parameter[..<$0] } ?? parameter
            let value = equals.map { parameter[parameter.index(after: $0)...] } ?? ""
            if let decoded = percentDecoded(value), decoded != String(value),
               substitutions.contains(where: { decoded.contains($0.value) }) {
                moved.append("\(name)=\(decoded)")
            } else {
                kept.append(parameter)
            }
        }
        guard !moved.isEmpty else { return (url, []) }
        let base = String(url[..<mark]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
        return (base + url[fragmentStart...], moved)
    }

    // MARK: - Encoded secrets

    /// Whether the body is `application/x-www-form-urlencoded` (a `form:` body).
    private static func isForm(_ request: HTTPRequest) -> Bool {
        guard let type = request.headers["Content-Type"] else { return false }
        return type.lowercased().hasPrefix("application/x-www-form-urlencoded")
    }

    /// A form body's fields in order, when one holds a secret only its decoded value shows:
    /// that field as `name=value` decoded (for `--data-urlencode`), the others as they were
    /// sent. Nil when no field needs it. A field with no name stays as sent (`--data-urlencode`
    /// would drop its `=`).
    static func formFields(_ body: String, substitutions: [(value: String, variable: String)])
        -> [(text: String, encodedByCurl: Bool)]? {
        var fields: [(text: String, encodedByCurl: Bool)] = []
        var any = false
        for pair in body.split(separator: "&", omittingEmptySubsequences: false) {
            if let equals = pair.firstIndex(of: "="), equals != pair.startIndex,
               let decoded = percentDecoded(pair[pair.index(after: equals)...]), decoded != String(pair[pair.index(after: equals)...]),
               substitutions.contains(where: { decoded.contains($0.value) }) {
                fields.append(("\(pair[..<equals])=\(decoded)", true))
                any = true
            } else {
                fields.append((String(pair), false))
            }
        }
        return any ? fields : nil
    }

    /// `user:password` of an `Authorization: Basic …` header whose decoded credentials hold
    /// a named secret; nil otherwise (the header is then shown as it is, or masked).
    private func basicCredentials(_ field: HTTPHeaders.Field) -> String? {
        guard field.name.lowercased() == "authorization" else { return nil }
        let parts = field.value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
              let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
              let decoded = String(data: data, encoding: .utf8), decoded.contains(":"),
              // Exactly what `-u` sends again: curl base64-encodes `user:password` as given.
              Data(decoded.utf8).base64EncodedString() == String(parts[1]).trimmingCharacters(in: .whitespaces),
              // Only for a declared secret: its variable is one the user knows how to set.
              policy.secrets.contains(where: { $0.name != nil && !$0.value.isEmpty && decoded.contains($0.value) })
        else { return nil }
        return decoded
    }

    /// The `Cookie` values libcurl sent from its jar on the first hop: those of its block
    /// that the request did not set itself.
    static func jarCookies(_ sent: [HTTPSentRequest], request: HTTPRequest) -> [String] {
        guard let first = sent.first(where: { !$0.isProxyConnect }) else { return [] }
        let own = Set(request.headers.values(for: "Cookie"))
        return first.headers.values(for: "Cookie").filter { !own.contains($0) && !$0.isEmpty }
    }

    /// `%2F` → `/`, `+` → space (a query's form encoding); nil when not valid UTF-8 or a `%` is malformed.
    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next(), let low = iterator.next(),
                      let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else { return nil }
                bytes.append(value)
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
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

    // MARK: - Quoting

    /// `text` cut where a secret's value occurs, each occurrence a variable.
    private static func segments(of text: String, substitutions: [(value: String, variable: String)]) -> [Segment] {
        var segments: [Segment] = [.text(text)]
        for substitution in substitutions {
            segments = segments.flatMap { segment -> [Segment] in
                guard case .text(let text) = segment, text.contains(substitution.value) else { return [segment] }
                var pieces: [Segment] = []
                for (index, piece) in text.split(separator: substitution.value, omittingEmptySubsequences: false).enumerated() {
                    if index > 0 { pieces.append(.variable(substitution.variable)) }
                    if !piece.isEmpty { pieces.append(.text(String(piece))) }
                }
                return pieces
            }
        }
        return segments
    }

    /// Characters that need no quoting in sh.
    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_./:=@,+%".unicodeScalars.contains(scalar))
    }

    /// Text with nothing a double-quoted string treats specially (`!` too: bash's history expansion).
    private static func fitsDoubleQuotes(_ text: String) -> Bool {
        !text.unicodeScalars.contains { "$`\"\\!\n".unicodeScalars.contains($0) }
    }

    /// Literal text in single quotes (`'\''` for a quote); variables, and the
    /// literal text around them when it can, in double quotes.
    private static func quoted(_ segments: [Segment]) -> String {
        if segments.count == 1, case .text(let text) = segments[0] {
            if !text.isEmpty && text.unicodeScalars.allSatisfy(isPlain) { return text }
            return singleQuoted(text)
        }
        var out = ""
        var double = ""  // the double-quoted run being built
        func closeDouble() {
            if !double.isEmpty { out += "\"" + double + "\"" }
            double = ""
        }
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .variable(let name):
                let next = index + 1 < segments.count ? segments[index + 1] : nil
                var needsBraces = false
                if case .text(let following)? = next, let first = following.unicodeScalars.first {
                    needsBraces = first == "_" || (first.isASCII && (first.properties.isAlphabetic || ("0"..."9").contains(first)))
                }
                double += needsBraces ? "${\(name)}" : "$\(name)"
            case .text(let text):
                if fitsDoubleQuotes(text) {
                    double += text
                } else {
                    closeDouble()
                    out += singleQuoted(text)
                }
            }
        }
        closeDouble()
        return out
    }

    private static func singleQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
