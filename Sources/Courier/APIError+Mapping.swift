import CourierHTTP
import Foundation

// MARK: - Building errors from what the transport returned

extension APIError {
    /// An error for a response whose status is not 2xx.
    init(response: HTTPResponse, request: APIClient.Prepared) {
        let status = response.status
        let kind: Kind
        var hint: String?
        switch status {
        case 401:
            kind = .unauthorized
            hint = "check the credentials (configuration.authenticator)"
        case 403: kind = .forbidden
        case 404: kind = .notFound
        case 429: kind = .rateLimited
        case 400..<500: kind = .clientError
        case 500..<600: kind = .serverError
        default:
            kind = .unexpectedStatus
            if (300..<400).contains(status) {
                hint = response.headers["Location"].map { "the server redirects to '\($0)'; set configuration.followRedirects to follow it" }
            }
        }
        self.init(kind: kind, message: "\(status) \(Self.reason(status))", hint: hint, method: request.method,
                  url: Redaction.url(request.request.url), statusCode: status, headers: response.headers, body: Data(response.body))
        if RetryPolicy.retryAfterStatuses.contains(status), let header = response.headers["Retry-After"] {
            retryAfter = RetryAfter.parse(header)
        }
        secrets = Redaction.secrets(in: request.request.headers)
    }

    /// An error for a request that got no response.
    init(transport error: HTTPError, request: APIClient.Prepared) {
        let kind: Kind
        switch error.kind {
        case .timeout: kind = .timeout
        case .tls, .clientCertificateRequired, .pinMismatch: kind = .tls
        case .invalidURL: kind = .invalidURL
        case .cancelled: kind = .cancelled
        case .clientShutDown: kind = .shutDown
        case .fileUnreadable, .fileUnwritable: kind = .file
        default: kind = .transport
        }
        let text = error.text(naming: Self.settingName)
        self.init(kind: kind, message: text.message, hint: text.hint, method: request.method, url: Redaction.url(request.request.url))
        transportError = error
        secrets = Redaction.secrets(in: request.request.headers)
    }

    /// An error for a 2xx body that does not decode into `type`.
    init<R>(decoding error: any Error, as type: R.Type, response: HTTPResponse, request: APIClient.Prepared) {
        var path: [any CodingKey] = []
        var detail = "\(error)"
        if let error = error as? DecodingError {
            switch error {
            case .keyNotFound(let key, let context):
                path = context.codingPath + [key]
                detail = "the key is missing"
            case .valueNotFound(_, let context):
                path = context.codingPath
                detail = "the value is null or missing"
            case .typeMismatch(let expected, let context):
                path = context.codingPath
                detail = "expected \(expected): \(context.debugDescription)"
            case .dataCorrupted(let context):
                path = context.codingPath
                detail = context.debugDescription
            @unknown default:
                break
            }
        }
        self.init(kind: .decoding, message: "the response does not decode as \(R.self): \(detail)",
                  hint: "check the type's properties and configuration.keyDecodingStrategy", method: request.method,
                  url: Redaction.url(request.request.url), statusCode: response.status, headers: response.headers,
                  body: Data(response.body))
        codingPath = Self.describe(path)
        underlyingError = error
        secrets = Redaction.secrets(in: request.request.headers)
    }

    /// `items[2].fullName`.
    static func describe(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                if !text.isEmpty { text += "." }
                text += key.stringValue
            }
        }
        return text
    }

    /// What `HTTPError`'s hints call settings: the library's configuration properties,
    /// never the runner's YAML keys or flags.
    static func settingName(_ setting: HTTPSetting) -> String? {
        switch setting {
        case .caFile: "configuration.tls.caCertificate"
        case .clientCertificate: "configuration.tls.clientCertificate"
        case .clientKey: "the key of configuration.tls.clientCertificate"
        case .password: "the password of configuration.tls.clientCertificate"
        case .pinnedKey: "configuration.tls.pinnedPublicKey"
        case .insecure: "configuration.tls.insecure"
        case .connectTimeout: "configuration.connectTimeout"
        case .timeout: "configuration.timeout"
        case .maxResponseBytes: "configuration.maxResponseBytes"
        case .noFollowRedirects: "configuration.followRedirects to false"
        case .proxy, .maxRedirects, .notCompressed, .http1_1, .bodyFile, .multipartFile: nil
        @unknown default: nil
        }
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 400: "bad request"
        case 401: "unauthorized"
        case 403: "forbidden"
        case 404: "not found"
        case 405: "method not allowed"
        case 409: "conflict"
        case 410: "gone"
        case 412: "precondition failed"
        case 413: "content too large"
        case 415: "unsupported media type"
        case 422: "unprocessable content"
        case 429: "too many requests"
        case 500: "internal server error"
        case 501: "not implemented"
        case 502: "bad gateway"
        case 503: "service unavailable"
        case 504: "gateway timeout"
        case 300..<400: "redirect not followed"
        case 400..<500: "client error"
        case 500..<600: "server error"
        default: "unexpected status"
        }
    }
}
