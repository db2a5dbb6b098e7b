import CourierHTTP
import Foundation

/// Turns a ``RequestBody`` into what the transport sends.
enum BodyEncoder {
    struct Encoded {
        var body: HTTPRequestBody
        var contentType: String?
        var sensitive: Bool
    }

    static func encode(_ body: RequestBody, with encoder: JSONEncoder, method: HTTPMethod, url: String) throws(APIError) -> Encoded {
        switch body {
        case .json(let value):
            do {
                let data = try encoder.encode(value)
                return Encoded(body: .bytes([UInt8](data)), contentType: "application/json", sensitive: false)
            } catch {
                var failure = APIError(kind: .encoding, message: "the JSON body could not be encoded: \(error)", method: method,
                                       url: Redaction.url(url))
                failure.underlyingError = error
                throw failure
            }
        case .form(let fields):
            return Encoded(body: .bytes(Array(URLBuilder.form(fields).utf8)), contentType: "application/x-www-form-urlencoded",
                           sensitive: false)
        case .raw(let data, let contentType):
            return Encoded(body: .bytes([UInt8](data)), contentType: contentType, sensitive: false)
        case .multipart(let form):
            // libcurl writes the Content-Type with its boundary itself.
            return Encoded(body: .multipart(form.parts), contentType: nil, sensitive: false)
        case .sensitive(let inner):
            var encoded = try encode(inner, with: encoder, method: method, url: url)
            encoded.sensitive = true
            return encoded
        }
    }
}
