/// What `expect.cookies.NAME` can check of a cookie the response sets (spec section 7): its
/// value and the attributes of its `Set-Cookie` line, keyed as written in YAML.
package enum CookieAttribute: String, Sendable, CaseIterable {
    case value, path, domain, expires
    case maxAge = "max_age"
    case secure
    case httpOnly = "http_only"
    case sameSite = "same_site"

    /// The attribute's name in a `Set-Cookie` line (RFC 6265 §4.1.1), compared in any case;
    /// nil for the value, which is not an attribute.
    package var setCookieName: String? {
        switch self {
        case .value: nil
        case .path: "Path"
        case .domain: "Domain"
        case .expires: "Expires"
        case .maxAge: "Max-Age"
        case .secure: "Secure"
        case .httpOnly: "HttpOnly"
        case .sameSite: "SameSite"
        }
    }

    /// `Secure` and `HttpOnly` have no value: they are there (true) or not (false).
    package var isFlag: Bool { self == .secure || self == .httpOnly }

    package static let keys: [String] = allCases.map(\.rawValue)
}
