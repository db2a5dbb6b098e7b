import Foundation

/// Undoes a response's `Content-Encoding` (gzip, deflate, br) in Courier, for a request that
/// keeps the body as received (``HTTPRequestOptions/keepsEncodedBody``): libcurl then hands
/// over the bytes from the wire, and one request gives both views.
///
/// zlib and libbrotlidec are loaded when first needed (``Zlib``, ``Brotli``). The decoded
/// size is bounded like the received one: a body that inflates past the limit (a
/// decompression bomb) is ``HTTPError/Kind/responseTooLarge``, found while decoding, with at
/// most the limit and one buffer in memory.
enum ContentDecoding {
    /// The `Accept-Encoding` such a request sends: what Courier can undo (libcurl's own list
    /// may name zstd), `br` only where libbrotlidec loads; nil when neither library loads.
    static let acceptEncoding: String? = {
        var names: [String] = []
        if ContentCoding.gzip.unavailable == nil { names += ["gzip", "deflate"] }
        if ContentCoding.brotli.unavailable == nil { names.append("br") }
        return names.isEmpty ? nil : names.joined(separator: ", ")
    }()

    /// `response` with its body decoded and the received bytes kept in ``HTTPResponse/encodedBody``
    /// (left nil when there was nothing to undo).
    static func decoded(_ response: HTTPResponse, limit: Int) throws(HTTPError) -> HTTPResponse {
        let codings = response.headers.values(for: "Content-Encoding")
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" }
        // A body-less answer (HEAD, 204, 304) may name the coding the body would have had.
        guard !codings.isEmpty, !response.body.isEmpty else { return response }
        var body = response.body
        // Listed in the order they were applied (RFC 9110 §8.4): undone last first.
        for name in codings.reversed() {
            body = try decode(body, name, limit: limit, received: response.body.count)
        }
        var result = response
        result.encodedBody = response.body
        result.body = body
        return result
    }

    /// `input` with one coding undone.
    static func decode(_ input: [UInt8], _ name: String, limit: Int, received: Int) throws(HTTPError) -> [UInt8] {
        let coding: ContentCoding
        switch name {
        case "gzip", "x-gzip": coding = .gzip
        // RFC 9110's deflate is zlib-wrapped; some servers send the raw stream.
        case "deflate": coding = isZlibHeader(input) ? .zlib : .rawDeflate
        case "br": coding = .brotli
        default:
            throw HTTPError(kind: .badResponse, wording: HTTPError.Wording { n in
                ("the body is sent with Content-Encoding '\(name)', which Courier cannot decode",
                 "\(n(.notCompressed).map { "set \($0)" } ?? "ask for it uncompressed") to receive it as sent")
            })
        }
        if let problem = coding.unavailable {
            throw HTTPError(kind: .transport, message: "cannot decode the \(name) body: \(problem)")
        }
        switch run(coding, input, limit: limit) {
        case .success(let output):
            return output
        case .failure(.tooLarge):
            throw HTTPError(kind: .responseTooLarge, wording: HTTPError.Wording { n in
                ("the decoded response body is larger than \(ByteCount.format(limit)) (\(ByteCount.format(received)) as received, \(name))",
                 HTTPError.responseTooLargeHint(limit, n))
            })
        case .failure(.corrupt(let detail)):
            throw HTTPError(kind: .badResponse, wording: HTTPError.Wording { n in
                ("the body could not be decoded as \(name): \(detail)",
                 "\(n(.notCompressed).map { "set \($0)" } ?? "ask for it uncompressed") to receive it as sent")
            })
        }
    }

    enum Failure: Error, Equatable {
        /// The output would pass the limit.
        case tooLarge
        /// The data is not valid in the coding (or ends before its end), in readable words.
        case corrupt(String)
    }

    /// Runs a decoder over `input`; its library must have loaded.
    static func run(_ coding: ContentCoding, _ input: [UInt8], limit: Int) -> Result<[UInt8], Failure> {
        guard let decoder = StreamDecoder(coding) else { return .failure(.corrupt("the decoder could not start (out of memory?)")) }
        var output: [UInt8] = []
        // A first guess at the size saves doublings; the limit bounds it.
        output.reserveCapacity(min(input.count.multipliedReportingOverflow(by: 4).partialValue, limit, 1 << 26))
        var scratch = [UInt8](repeating: 0, count: 1 << 16)
        return input.withUnsafeBufferPointer { whole -> Result<[UInt8], Failure> in
            var rest = whole
            while true {
                var produced = 0
                let status = scratch.withUnsafeMutableBufferPointer { buffer -> StreamDecoder.Status in
                    var room = buffer
                    let status = decoder.run(&rest, &room)
                    produced = buffer.count - room.count
                    return status
                }
                if output.count + produced > limit { return .failure(.tooLarge) }
                output.append(contentsOf: scratch[..<produced])
                switch status {
                case .done:
                    // Bytes after the end are ignored, as libcurl ignores them.
                    return .success(output)
                case .needsOutput:
                    continue
                case .needsInput:
                    if rest.isEmpty { return .failure(.corrupt("the data ends early, after \(input.count) bytes (truncated?)")) }
                case .failed(let message):
                    return .failure(.corrupt(readable(message)))
                }
            }
        }
    }

    /// A zlib header (RFC 1950 §2.2): method 8 with a window of at most 32 KiB, and a check
    /// value that makes the first two bytes a multiple of 31.
    static func isZlibHeader(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 2 else { return false }
        return bytes[0] & 0x0f == 8 && bytes[0] >> 4 <= 7 && (UInt16(bytes[0]) << 8 | UInt16(bytes[1])) % 31 == 0
    }

    /// zlib's messages stay as they are ("invalid block type"); brotli's are constant names
    /// ("_ERROR_FORMAT_PADDING_1"), turned into words ("format padding 1").
    static func readable(_ message: String) -> String {
        guard message.hasPrefix("_ERROR_") else { return message }
        return message.dropFirst("_ERROR_".count).lowercased().replacingOccurrences(of: "_", with: " ")
    }
}
