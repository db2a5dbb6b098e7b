import CourierHTTP
import Foundation

/// Turns a 2xx response into the endpoint's `Response`.
enum ResponseReader {
    /// Whether `type` is read without JSON (`String`, `Data`, ``EmptyResponse``).
    static func isRaw<R>(_ type: R.Type) -> Bool {
        type == String.self || type == Data.self || type == EmptyResponse.self
    }
}

extension APIClient {
    func decode<R: Decodable & Sendable>(_ type: R.Type, from response: HTTPResponse, request: Prepared) throws(APIError) -> R {
        // The casts below cannot fail: each runs only when `R` is that very type.
        if type == EmptyResponse.self, let value = EmptyResponse() as? R { return value }
        if type == String.self, let value = response.text as? R { return value }
        if type == Data.self, let value = Data(response.body) as? R { return value }
        do {
            return try decoder.decode(R.self, from: Data(response.body))
        } catch {
            throw APIError(decoding: error, as: R.self, response: response, request: request)
        }
    }
}
