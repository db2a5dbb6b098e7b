/// A request's `clear_cookies:` (spec section 5): which of the workflow jar's cookies are
/// dropped before it is sent, as libcurl's `CURLOPT_COOKIELIST` drops them.
package enum CookieClearing: Sendable, Equatable {
    /// `session`: the cookies without `Expires` or `Max-Age`, as a browser restart drops them.
    case session
    /// `all`: every cookie, as a fresh jar.
    case all
}
