import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// libcrypto (OpenSSL 3, Debian `libssl3`), loaded on first use like zlib and libbrotlidec
/// (``Zlib``): only the `jwt` predicate's RS256 and ES256 need it, so a run that never checks
/// such a token never loads it, and a machine without it gets a message naming the package.
///
/// The function pointers are resolved once and never change: `@unchecked Sendable` is safe.
package struct LibCrypto: @unchecked Sendable {
    private typealias D2iPubkey = @convention(c) (UnsafeMutablePointer<OpaquePointer?>?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, Int) -> OpaquePointer?
    private typealias PkeyFree = @convention(c) (OpaquePointer?) -> Void
    private typealias MDCtxNew = @convention(c) () -> OpaquePointer?
    private typealias MDCtxFree = @convention(c) (OpaquePointer?) -> Void
    private typealias Digest = @convention(c) () -> OpaquePointer?
    private typealias VerifyInit = @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?, OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32
    private typealias Verify = @convention(c) (OpaquePointer?, UnsafePointer<UInt8>?, Int, UnsafePointer<UInt8>?, Int) -> Int32
    private typealias ClearError = @convention(c) () -> Void

    private let d2iPubkey: D2iPubkey
    private let pkeyFree: PkeyFree
    private let mdCtxNew: MDCtxNew
    private let mdCtxFree: MDCtxFree
    private let sha256: Digest
    private let verifyInit: VerifyInit
    private let verify: Verify
    private let clearError: ClearError

    /// The library, or why it cannot be used (its message names `libssl3`).
    package static let loaded = load("libcrypto.so.3")

    /// `name` loaded (another name only in tests: the message of a machine without it).
    package static func load(_ name: String) -> Result<LibCrypto, LibraryUnavailable> { Result { () throws(LibraryUnavailable) -> LibCrypto in
        let library = try LibraryUnavailable.open(name, package: "libssl3")
        return LibCrypto(d2iPubkey: try library.symbol("d2i_PUBKEY"), pkeyFree: try library.symbol("EVP_PKEY_free"),
                         mdCtxNew: try library.symbol("EVP_MD_CTX_new"), mdCtxFree: try library.symbol("EVP_MD_CTX_free"),
                         sha256: try library.symbol("EVP_sha256"), verifyInit: try library.symbol("EVP_DigestVerifyInit"),
                         verify: try library.symbol("EVP_DigestVerify"), clearError: try library.symbol("ERR_clear_error"))
    } }

    /// Whether `signature` (PKCS #1 v1.5 for RSA, DER `ECDSA-Sig-Value` for EC) verifies over
    /// `message` with SHA-256 under `publicKey`, a DER SubjectPublicKeyInfo; nil when
    /// libcrypto cannot read the key.
    package func verifySHA256(publicKey: [UInt8], message: [UInt8], signature: [UInt8]) -> Bool? {
        // libcurl shares this thread's OpenSSL error queue: leave nothing in it.
        defer { clearError() }
        let key: OpaquePointer? = publicKey.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2iPubkey(nil, &cursor, buffer.count)
        }
        guard let key else { return nil }
        defer { pkeyFree(key) }
        guard let context = mdCtxNew() else { return nil }
        defer { mdCtxFree(context) }
        guard verifyInit(context, nil, sha256(), nil, key) == 1 else { return nil }
        let result = signature.withUnsafeBufferPointer { sig in
            message.withUnsafeBufferPointer { tbs in verify(context, sig.baseAddress, sig.count, tbs.baseAddress, tbs.count) }
        }
        return result == 1
    }
}
