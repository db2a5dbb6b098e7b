import CCompression
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// zlib and libbrotlidec, loaded on first use like libcurl (`CurlGlobal`): a run that never
/// asks for raw bytes never loads them, and a machine without one gets a message naming its
/// Debian package when a step needs it, not a loader error at start-up.
///
/// The function pointers are resolved once and never change: `@unchecked Sendable` is safe.
struct Zlib: @unchecked Sendable {
    let inflateInit2: courier_inflate_init2_fn
    let inflate: courier_inflate_fn
    let inflateEnd: courier_inflate_end_fn
    let inflateReset: courier_inflate_reset_fn

    /// The library, or why it cannot be used.
    static let loaded: Result<Zlib, LibraryUnavailable> = Result { () throws(LibraryUnavailable) -> Zlib in
        let library = try LibraryUnavailable.open("libz.so.1", package: "zlib1g")
        return Zlib(inflateInit2: try library.symbol("inflateInit2_"), inflate: try library.symbol("inflate"),
                    inflateEnd: try library.symbol("inflateEnd"), inflateReset: try library.symbol("inflateReset"))
    }
}

/// See ``Zlib``.
struct Brotli: @unchecked Sendable {
    let create: courier_brotli_create_fn
    let destroy: courier_brotli_destroy_fn
    let decompressStream: courier_brotli_decompress_stream_fn
    let errorCode: courier_brotli_error_code_fn
    let errorString: courier_brotli_error_string_fn

    static let loaded: Result<Brotli, LibraryUnavailable> = Result { () throws(LibraryUnavailable) -> Brotli in
        let library = try LibraryUnavailable.open("libbrotlidec.so.1", package: "libbrotli1")
        return Brotli(create: try library.symbol("BrotliDecoderCreateInstance"), destroy: try library.symbol("BrotliDecoderDestroyInstance"),
                      decompressStream: try library.symbol("BrotliDecoderDecompressStream"),
                      errorCode: try library.symbol("BrotliDecoderGetErrorCode"),
                      errorString: try library.symbol("BrotliDecoderErrorString"))
    }
}

/// Why a library cannot be loaded, in words that name what to install.
package struct LibraryUnavailable: Error, Sendable {
    package let message: String

    /// An open library (never closed: its functions are used until the process ends).
    struct Library {
        let handle: UnsafeMutableRawPointer
        let name: String

        func symbol<Function>(_ symbol: String) throws(LibraryUnavailable) -> Function {
            guard let address = dlsym(handle, symbol) else {
                throw LibraryUnavailable(message: "\(name) has no symbol \(symbol)")
            }
            return unsafeBitCast(address, to: Function.self)
        }
    }

    static func open(_ name: String, package: String) throws(LibraryUnavailable) -> Library {
        // RTLD_LAZY as for libcurl; libcurl itself links both, so they are usually loaded already.
        guard let handle = dlopen(name, RTLD_LAZY | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            throw LibraryUnavailable(message: "cannot load \(name) (\(reason)); install it, e.g. 'apt-get install \(package)'")
        }
        return Library(handle: handle, name: name)
    }
}
