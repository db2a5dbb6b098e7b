import Foundation

/// The `user:password@` part of a URL, from which libcurl builds `Authorization: Basic`
/// (or, for a proxy URL, `Proxy-Authorization: Basic`) on its own.
///
/// ```swift
/// URLCredentials(url: "http://bob:p%40ss@host/")?.password  // "p%40ss"
/// URLCredentials.redacting("http://bob:p%40ss@host/")       // "http://bob:***@host/"
/// ```
public struct URLCredentials: Sendable, Equatable {
    /// As written in the URL (percent-encoded, if it was).
    public var user: String
    /// As written in the URL; nil for `user@host`.
    public var password: String?

    /// The credentials of `url`, or nil when it has no userinfo. A URL without a
    /// scheme (`bob:pw@proxy:3128`, as proxies are often given) works too.
    public init?(url: String) {
        guard let range = Self.userinfoRange(in: url) else { return nil }
        let userinfo = url[range]
        if let colon = userinfo.firstIndex(of: ":") {
            user = String(userinfo[..<colon])
            password = String(userinfo[userinfo.index(after: colon)...])
        } else {
            user = String(userinfo)
            password = nil
        }
    }

    /// The texts a password-bearing URL exposes, as written and as libcurl decodes
    /// them: the password and `user:password` (what Basic credentials encode).
    public var sensitiveTexts: [String] {
        guard let password else { return [] }
        var texts = [password, "\(user):\(password)"]
        if let decodedPassword = password.removingPercentEncoding {
            let decodedUser = user.removingPercentEncoding ?? user
            texts += [decodedPassword, "\(decodedUser):\(decodedPassword)"]
        }
        var seen = Set<String>()
        return texts.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// The environment variables libcurl reads a proxy URL from when none is set.
    public static let proxyEnvironmentVariables = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]

    /// `url` with its password replaced by `***` (`http://bob:***@host/`), for messages.
    public static func redacting(_ url: String) -> String {
        guard let range = userinfoRange(in: url) else { return url }
        let userinfo = url[range]
        guard let colon = userinfo.firstIndex(of: ":") else { return url }
        return url[..<range.lowerBound] + userinfo[..<colon] + ":***" + url[range.upperBound...]
    }

    /// `url` without its `user:password@` (`http://host:3128`), and the credentials
    /// percent-decoded, to hand libcurl apart: libcurl 7.88 silently ignores a proxy URL
    /// whose decoded userinfo holds a control character (a newline in a password) and
    /// connects directly instead.
    public static func splitting(_ url: String) -> (url: String, user: String, password: String?)? {
        guard let range = userinfoRange(in: url), let credentials = URLCredentials(url: url) else { return nil }
        let bare = String(url[..<range.lowerBound] + url[url.index(after: range.upperBound)...])
        return (bare, credentials.user.removingPercentEncoding ?? credentials.user,
                credentials.password.map { $0.removingPercentEncoding ?? $0 })
    }

    /// The userinfo (before the last `@` of the authority), without the `@`.
    private static func userinfoRange(in url: String) -> Range<String.Index>? {
        // Asked of every request's URL on the driver thread: most have no `@` at all.
        // Over the native bytes: the generic `utf8.contains` walked them one by one.
        let hasAt = url.utf8.withContiguousStorageIfAvailable { $0.contains(UInt8(ascii: "@")) } ?? url.utf8.contains(UInt8(ascii: "@"))
        guard hasAt else { return nil }
        let authorityStart = url.range(of: "://")?.upperBound ?? url.startIndex
        let rest = url[authorityStart...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return nil }
        return authorityStart..<at
    }
}
