import CCompression

/// One Content-Encoding being undone over a body in memory: zlib's inflate (gzip, deflate with
/// or without its zlib wrapper) or brotli's decoder, driven the same way.
enum ContentCoding: Sendable, Equatable {
    /// gzip (RFC 1952), concatenated members included.
    case gzip
    /// deflate as RFC 9110 means it: zlib-wrapped (RFC 1950).
    case zlib
    /// deflate as some servers send it: raw RFC 1951 data without the zlib wrapper.
    case rawDeflate
    /// Brotli (RFC 7932).
    case brotli

    /// Why its library cannot be used, or nil once it is loaded.
    var unavailable: String? {
        switch self {
        case .brotli: if case .failure(let problem) = Brotli.loaded { return problem.message }
        case .gzip, .zlib, .rawDeflate: if case .failure(let problem) = Zlib.loaded { return problem.message }
        }
        return nil
    }
}

/// A decoder's state over one stream; the coding's library must have loaded.
final class StreamDecoder {
    enum Status { case needsInput, needsOutput, done, failed(String) }

    private let coding: ContentCoding
    private var zstream = courier_z_stream()
    private var brotliState: UnsafeMutableRawPointer?

    /// Nil when the library refuses to start (out of memory, an incompatible zlib).
    init?(_ coding: ContentCoding) {
        self.coding = coding
        switch coding {
        case .brotli:
            guard case .success(let brotli) = Brotli.loaded, let state = brotli.create(nil, nil, nil) else { return nil }
            brotliState = state
        case .gzip, .zlib, .rawDeflate:
            // 15 bits of window; +16: gzip only; negative: raw deflate; plain: the zlib wrapper.
            let bits: Int32 = coding == .gzip ? 15 + 16 : coding == .rawDeflate ? -15 : 15
            guard case .success(let zlib) = Zlib.loaded,
                  zlib.inflateInit2(&zstream, bits, "1.2.11", Int32(MemoryLayout<courier_z_stream>.size)) == 0 else { return nil }
        }
    }

    deinit {
        switch coding {
        case .brotli: if case .success(let brotli) = Brotli.loaded, let brotliState { brotli.destroy(brotliState) }
        case .gzip, .zlib, .rawDeflate: if case .success(let zlib) = Zlib.loaded { _ = zlib.inflateEnd(&zstream) }
        }
    }

    /// Decodes from `input` (advancing it) into `output` (advancing it).
    func run(_ input: inout UnsafeBufferPointer<UInt8>, _ output: inout UnsafeMutableBufferPointer<UInt8>) -> Status {
        switch coding {
        case .brotli: runBrotli(&input, &output)
        case .gzip, .zlib, .rawDeflate: runZlib(&input, &output)
        }
    }

    private func runZlib(_ input: inout UnsafeBufferPointer<UInt8>, _ output: inout UnsafeMutableBufferPointer<UInt8>) -> Status {
        guard case .success(let zlib) = Zlib.loaded else { return .failed("zlib is not loaded") }
        // zlib counts in 32 bits: hand over at most 1 GiB at a time.
        let most = 1 << 30
        while true {
            let offered = min(input.count, most), room = min(output.count, most)
            zstream.next_in = input.baseAddress
            zstream.avail_in = UInt32(offered)
            zstream.next_out = output.baseAddress
            zstream.avail_out = UInt32(room)
            let code = zlib.inflate(&zstream, 0)
            let taken = offered - Int(zstream.avail_in), made = room - Int(zstream.avail_out)
            input = UnsafeBufferPointer(rebasing: input[taken...])
            output = UnsafeMutableBufferPointer(rebasing: output[made...])
            switch code {
            case 1:  // Z_STREAM_END
                // gzip allows members one after another (RFC 1952 §2.2): go on with the next.
                if coding == .gzip, input.count >= 2, input[0] == 0x1f, input[1] == 0x8b {
                    _ = zlib.inflateReset(&zstream)
                    continue
                }
                return .done
            case 2:  // Z_NEED_DICT
                return .failed("the stream needs a preset dictionary")
            case 0, -5:  // Z_OK, Z_BUF_ERROR (no progress possible until there is more room or input)
                if output.isEmpty { return .needsOutput }
                if input.isEmpty { return .needsInput }
            default:
                return .failed(zstream.msg.map { String(cString: $0) } ?? "corrupt data")
            }
        }
    }

    private func runBrotli(_ input: inout UnsafeBufferPointer<UInt8>, _ output: inout UnsafeMutableBufferPointer<UInt8>) -> Status {
        guard case .success(let brotli) = Brotli.loaded, let brotliState else { return .failed("libbrotlidec is not loaded") }
        var availableIn = input.count, availableOut = output.count
        var nextIn = input.baseAddress, nextOut = output.baseAddress
        let result = brotli.decompressStream(brotliState, &availableIn, &nextIn, &availableOut, &nextOut, nil)
        input = UnsafeBufferPointer(rebasing: input[(input.count - availableIn)...])
        output = UnsafeMutableBufferPointer(rebasing: output[(output.count - availableOut)...])
        switch result {
        case 1: return .done         // BROTLI_DECODER_RESULT_SUCCESS
        case 2: return .needsInput   // NEEDS_MORE_INPUT
        case 3: return .needsOutput  // NEEDS_MORE_OUTPUT
        default:
            return .failed(brotli.errorString(brotli.errorCode(brotliState)).map { String(cString: $0) } ?? "corrupt data")
        }
    }
}
