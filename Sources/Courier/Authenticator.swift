import CourierHTTP
/// Adds credentials to requests and renews them when the server rejects them.
///
/// The client calls ``authenticate(_:)`` before every attempt. After a 401 it calls
/// ``refresh(after:response:)`` once; when that returns true the request is
/// authenticated and sent again, once. A second 401 is ``APIError/Kind/unauthorized``.
/// ``TokenAuthenticator`` is the bearer-token implementation.
public protocol Authenticator: Sendable {
    /// The request with credentials added (an `Authorization` field, a signed query).
    func authenticate(_ request: HTTPRequest) async throws -> HTTPRequest
    /// Called after `request` got `response` with status 401: renew the credentials and
    /// return true to have the request sent again, or false to fail with ``APIError/Kind/unauthorized``.
    func refresh(after request: HTTPRequest, response: HTTPResponse) async throws -> Bool
}
