import CourierHTTP
import Foundation

/// One operation of an API: where it lives, how it is called and what it returns.
///
/// Only `path` and `Response` are required; `method` defaults to `.get`, `headers` and
/// `query` to empty, `body` to nil.
///
/// ```swift
/// struct GetUser: Endpoint {
///     typealias Response = User
///     let id: Int
///     var path: String { "/users/\(id)" }
/// }
/// let user = try await client.send(GetUser(id: 42))
/// ```
///
/// `Response` decides how the body is read: `String` is the body as text (decoded with
/// the charset its `Content-Type` declares, UTF-8 otherwise), `Data` is the bytes as
/// received, ``EmptyResponse`` ignores the body, and any other type is decoded from JSON
/// with the client's decoder (``APIClient/Configuration``'s key and date strategies).
///
/// Endpoints are `Sendable` values (``APIClient/send(all:maxConcurrency:)`` hands them to
/// child tasks): a struct of `let`s, as above, is.
public protocol Endpoint: Sendable {
    /// What a successful (2xx) response is decoded into.
    associatedtype Response: Decodable & Sendable

    /// The path appended to the client's base URL (`/users/42`); a leading `/` is
    /// optional. Characters not allowed in a path (spaces, non-ASCII) are
    /// percent-encoded; `%` is kept, so an already encoded path is sent as it is.
    /// An absolute `http://` or `https://` URL is used instead of the base URL.
    var path: String { get }
    /// The method; default `.get`.
    var method: HTTPMethod { get }
    /// Header fields added to the client's default headers, replacing those of the same name; default none.
    var headers: HTTPHeaders { get }
    /// Query parameters, in order, percent-encoded (everything but `A–Z a–z 0–9 - . _ ~`); default none.
    var query: [URLQueryItem] { get }
    /// What the request carries; default nil (no body).
    var body: RequestBody? { get }
}

extension Endpoint {
    /// `.get`.
    public var method: HTTPMethod { .get }
    /// No fields.
    public var headers: HTTPHeaders { [:] }
    /// No parameters.
    public var query: [URLQueryItem] { [] }
    /// No body.
    public var body: RequestBody? { nil }
}

/// The `Response` of an endpoint whose body does not matter (`204 No Content`, a `DELETE`).
public struct EmptyResponse: Codable, Sendable, Equatable {
    /// The only value.
    public init() {}
    /// Decodes from anything: the body is never read.
    public init(from decoder: any Decoder) throws {}
    /// Encodes nothing.
    public func encode(to encoder: any Encoder) throws {}
}
