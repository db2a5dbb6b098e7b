import CourierHTTP
/// An HTTP request method.
///
/// The common methods are static members; any other token works too:
///
/// ```swift
/// var method: HTTPMethod { .patch }
/// var method: HTTPMethod { "PURGE" }
/// ```
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method token as sent, e.g. `GET`.
    public let rawValue: String

    /// A method named `rawValue`, sent as written (methods are case-sensitive).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A method named `value`.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// `GET`.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `POST`.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `HEAD`.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `OPTIONS`.
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    /// Whether sending the request twice does what sending it once does (RFC 9110 §9.2.2):
    /// only these are retried after the server may have seen them.
    public var isIdempotent: Bool { RetryPolicy.isIdempotent(rawValue) }

    /// The token, e.g. `GET`.
    public var description: String { rawValue }
}
