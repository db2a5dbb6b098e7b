import CourierHTTP
import Foundation

/// A request as a ``MockTransport`` received it, for assertions in tests.
///
/// Its `description` shows method, URL and headers with `Authorization` and cookies
/// redacted, and the body's size only: it is safe to print in test logs.
public struct RecordedRequest: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// `GET`, `POST`, …
    public var method: HTTPMethod
    /// The absolute URL, query included.
    public var url: String
    /// The URL's path, percent-encoded as sent (`/users/42`).
    public var path: String
    /// The URL's query items, decoded.
    public var query: [URLQueryItem]
    /// The header fields, in order.
    public var headers: HTTPHeaders
    /// The body bytes; empty for no body, a file body or a multipart body.
    public var body: Data
    /// The parts of a multipart body, nil for other bodies.
    public var multipartParts: [MultipartPart]?
    /// Whether the body was marked ``RequestBody/sensitive(_:)``.
    public var isBodySensitive: Bool

    /// The body decoded from JSON into `type` (with default keys and ISO 8601 dates).
    public func decodedBody<T: Decodable>(as type: T.Type, keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys) throws -> T {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = keyDecodingStrategy
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(type, from: body)
    }

    /// The body as UTF-8 text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// `POST http://host/users` and the headers, credentials redacted, body as a size.
    public var description: String {
        var text = "\(method) \(Redaction.url(url))"
        if !headers.isEmpty { text += "\n" + Redaction.describe(headers) }
        if let multipartParts {
            text += "\n<multipart body, \(multipartParts.count) parts>"
        } else if !body.isEmpty {
            text += isBodySensitive ? "\n<sensitive body, \(body.count) bytes>" : "\n<body, \(body.count) bytes>"
        }
        return Redaction.mask(text, secrets: Redaction.secrets(in: headers))
    }

    /// The same as `description`: no credentials in debug output either.
    public var debugDescription: String { description }
}

extension RecordedRequest: CustomReflectable {
    /// Mirrors `description`, so `dump` and the debugger do not reveal credentials.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}
