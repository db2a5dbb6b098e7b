/// Cookies dropped from a jar just before a request is sent, as libcurl's `CURLOPT_COOKIELIST`
/// (`SESS`, `ALL`) drops them: whether or not the request itself then uses the jar.
public struct CookieJarClearing: Sendable {
    /// Which cookies go.
    public enum Scope: Sendable, Equatable {
        /// Those without `Expires` or `Max-Age` (`SESS`), as a browser restart drops them.
        case session
        /// Every cookie (`ALL`).
        case all
    }

    /// The jar to clear.
    public var jar: CookieJar
    /// Which of its cookies to drop.
    public var scope: Scope

    /// Drops `scope`'s cookies from `jar` before the request.
    public init(jar: CookieJar, scope: Scope) {
        self.jar = jar
        self.scope = scope
    }
}
