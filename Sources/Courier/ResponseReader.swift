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
            // The bytes are borrowed, not copied: decoding ends before the buffer can go away.
            return try response.body.withUnsafeBytes { buffer throws in
                guard let base = buffer.baseAddress, buffer.count > 0 else { return try decoder.decode(R.self, from: Data()) }
                return try decoder.decode(R.self, from: Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: buffer.count,
                                                             deallocator: .none))
            }
        } catch {
            throw APIError(decoding: error, as: R.self, response: response, request: request)
        }
    }
}
