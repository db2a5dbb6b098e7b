import CourierSecrets

/// A request prints without its credentials: a library user logs requests from an
/// authenticator or a custom transport, and the default reflection would show
/// `Authorization` and cookies in full.
extension HTTPRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Header fields whose values are credentials; shown as `<redacted>`.
    /// (The one list of ``CredentialHeaderNames``, which the runner masks too.)
    public static let credentialHeaderNames = Set(CredentialHeaderNames.all)

    /// `POST https://host/users`, then one `name: value` line per header field with
    /// credentials redacted, then the body's kind and size (never its bytes). A
    /// `user:password@` in the URL is redacted too.
    public var description: String {
        var text = "\(method) \(Self.redactingUserInfo(url))"
        for field in headers {
            let value = CredentialHeaderNames.contains(field.name) ? "<redacted>" : field.value
            text += "\n\(field.name): \(value)"
        }
        switch body {
        case .none: break
        case .bytes(let bytes): text += "\n<body, \(bytes.count) bytes>"
        case .file(let path): text += "\n<body from the file '\(path)'>"
        case .multipart(let parts): text += "\n<multipart body, \(parts.count) parts>"
        case .stream: text += "\n<streamed body>"
        }
        return text
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// Mirrors ``description``, so `dump` and debuggers do not reveal credentials either.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }

    /// `https://<redacted>@host/…` for a URL with user information.
    package static func redactingUserInfo(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return url }
        return String(url[..<scheme.upperBound]) + "<redacted>@" + String(rest[rest.index(after: at)...])
    }
}
