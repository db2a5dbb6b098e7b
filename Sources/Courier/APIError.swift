import CourierHTTP
import Foundation

/// Why a request did not produce the endpoint's `Response`.
///
/// A struct with a kind rather than an enum, so kinds can be added without breaking
/// your `switch`: compare kinds with `==`.
///
/// ```swift
/// do throws(APIError) {
///     let user = try await client.send(GetUser(id: 42))
/// } catch where error.kind == .notFound {
///     showMissingUser()
/// } catch where error.isRetryable {
///     scheduleRetry(after: error.retryAfter)
/// } catch {
///     print(error)   // redacted: no tokens, cookies or sensitive bodies
/// }
/// ```
///
/// (``APIClient``'s methods use typed throws; a plain `do` block sees `any Error`, so
/// write `do throws(APIError)` or `catch let error as APIError`.)
///
/// Its `description` never shows `Authorization`, cookies, the values the client sent in
/// them, or a body marked ``RequestBody/sensitive(_:)``.
public struct APIError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it was.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        enum Code: Sendable, Hashable {
            case invalidURL, encoding, transport, timeout, tls, cancelled, shutDown, file
            case unauthorized, forbidden, notFound, rateLimited, clientError, serverError, unexpectedStatus
            case decoding
        }
        let code: Code

        /// The base URL and endpoint path do not make a valid `http`/`https` URL.
        public static let invalidURL = Kind(code: .invalidURL)
        /// The request body could not be encoded (``APIError/underlyingError`` says why).
        public static let encoding = Kind(code: .encoding)
        /// No response: connection refused or closed, unknown host, proxy, a broken
        /// response (``APIError/transportError`` has libcurl's code and message).
        public static let transport = Kind(code: .transport)
        /// ``APIClient/Configuration/timeout`` or ``APIClient/Configuration/connectTimeout`` ran out.
        public static let timeout = Kind(code: .timeout)
        /// The TLS handshake failed: an untrusted certificate, a client certificate the
        /// server wants or rejects, a pin that does not match, unreadable certificate files.
        public static let tls = Kind(code: .tls)
        /// The calling task was cancelled (also while waiting to retry).
        public static let cancelled = Kind(code: .cancelled)
        /// The client was shut down (``APIClient/shutdown()``) before or during the request.
        public static let shutDown = Kind(code: .shutDown)
        /// A file to upload cannot be read, or a download's file cannot be written.
        public static let file = Kind(code: .file)
        /// 401, after the authenticator (if any) refreshed once and the resend got 401 again.
        public static let unauthorized = Kind(code: .unauthorized)
        /// 403.
        public static let forbidden = Kind(code: .forbidden)
        /// 404.
        public static let notFound = Kind(code: .notFound)
        /// 429; ``APIError/retryAfter`` holds the server's `Retry-After` when it sent one.
        public static let rateLimited = Kind(code: .rateLimited)
        /// Any other 4xx status.
        public static let clientError = Kind(code: .clientError)
        /// A 5xx status.
        public static let serverError = Kind(code: .serverError)
        /// A 1xx or 3xx final status (a redirect that was not followed).
        public static let unexpectedStatus = Kind(code: .unexpectedStatus)
        /// A 2xx body that does not decode into the endpoint's `Response`
        /// (``APIError/codingPath`` names the failing key).
        public static let decoding = Kind(code: .decoding)

        /// A short name: `not_found`, `rate_limited`, …
        public var description: String {
            switch code {
            case .invalidURL: "invalid_url"
            case .encoding: "encoding"
            case .transport: "transport"
            case .timeout: "timeout"
            case .tls: "tls"
            case .cancelled: "cancelled"
            case .shutDown: "shut_down"
            case .file: "file"
            case .unauthorized: "unauthorized"
            case .forbidden: "forbidden"
            case .notFound: "not_found"
            case .rateLimited: "rate_limited"
            case .clientError: "client_error"
            case .serverError: "server_error"
            case .unexpectedStatus: "unexpected_status"
            case .decoding: "decoding"
            }
        }
    }

    /// What kind of failure it was.
    public var kind: Kind
    /// What happened, in a sentence (lower case, no trailing period).
    public var message: String
    /// What you can do about it, when known; names ``APIClient/Configuration`` properties.
    public var hint: String?
    /// The request's method.
    public var method: HTTPMethod
    /// The request's URL (without user and password); empty for ``Kind/invalidURL``.
    public var url: String
    /// The response status, nil when there was no response.
    public var statusCode: Int?
    /// The response's header fields, nil when there was no response.
    public var headers: HTTPHeaders?
    /// The response body, nil when there was no response (for a download, its first 64 KiB).
    public var body: Data?
    /// The wait the server asked for in `Retry-After` (429 and 503), already parsed.
    public var retryAfter: Duration?
    /// The transport's error for ``Kind/transport``, ``Kind/timeout``, ``Kind/tls``,
    /// ``Kind/file``, ``Kind/cancelled`` and ``Kind/shutDown``: its `curlCode` and `message`
    /// say what libcurl saw.
    public var transportError: HTTPError?
    /// libcurl's `CURLcode` when libcurl failed, else nil.
    public var curlCode: Int? {
        guard let code = transportError?.curlCode, code != 0 else { return nil }
        return code
    }
    /// For ``Kind/decoding``: where decoding failed, as `items[2].fullName`; empty for the top level.
    public var codingPath: String?
    /// The error that caused this one when it was not the transport's (a `DecodingError`,
    /// an `EncodingError`, an authenticator's error).
    public var underlyingError: (any Error)?
    /// How many attempts were made (more than 1 after retries or a token refresh).
    public var attempts: Int = 1
    /// Secret values that must not appear in `description` (tokens and cookies sent).
    var secrets: [String] = []

    /// An error of `kind`; the client fills in the rest. Useful in tests and custom layers.
    public init(kind: Kind, message: String, hint: String? = nil, method: HTTPMethod = .get, url: String = "",
                statusCode: Int? = nil, headers: HTTPHeaders? = nil, body: Data? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
        self.method = method
        self.url = url
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }

    /// Whether the same request may succeed if sent again later: timeouts, network
    /// failures (connection refused or closed, unknown host), 429, 502, 503 and 504.
    /// Says nothing of whether resending is safe: that depends on the method.
    public var isRetryable: Bool {
        switch kind.code {
        case .timeout, .rateLimited: return true
        case .serverError: return [502, 503, 504].contains(statusCode ?? 0)
        case .transport:
            guard let transportError else { return false }
            return [.connectionRefused, .hostNotFound, .connectionClosed].contains(transportError.kind)
        default: return false
        }
    }

    /// `GET http://host/users/42: 404 not found; body: {"error":"no such user"}`, with
    /// secrets redacted and the body cut at 200 bytes.
    public var description: String {
        var text = method.rawValue
        if !url.isEmpty { text += " \(url)" }
        text += ": \(message)"
        if let codingPath, !codingPath.isEmpty { text += " at '\(codingPath)'" }
        if let hint { text += "; \(hint)" }
        if let excerpt = bodyExcerpt(limit: 200) { text += "; body: \(excerpt)" }
        return Redaction.mask(text, secrets: secrets)
    }

    /// The body's first `limit` bytes as text, secrets redacted; nil without a body.
    public func bodyExcerpt(limit: Int = 200) -> String? {
        guard let body, !body.isEmpty else { return nil }
        let cut = body.prefix(limit)
        var text = String(decoding: cut, as: UTF8.self)
        if body.count > limit { text += "… (\(body.count) bytes)" }
        return Redaction.mask(text, secrets: secrets)
    }
}
