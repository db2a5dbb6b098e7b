/// HMAC (RFC 2104) over SHA-256, SHA-384 and SHA-512: the signatures of the `jwt`
/// predicate's HS256, HS384 and HS512 (RFC 7518 §3.2). Tested against RFC 4231.
package enum HMAC {
    package enum Hash: Sendable {
        case sha256, sha384, sha512

        /// The block size the key is padded to: 64 bytes for SHA-256, 128 for the 64-bit ones.
        var blockSize: Int { self == .sha256 ? 64 : 128 }

        func digest(_ bytes: [UInt8]) -> [UInt8] {
            switch self {
            case .sha256: SHA256.digest(bytes)
            case .sha384: SHA512.digest384(bytes)
            case .sha512: SHA512.digest(bytes)
            }
        }
    }

    /// The authentication code of `message` under `key`.
    package static func code(_ hash: Hash, key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > hash.blockSize ? hash.digest(key) : key
        block += [UInt8](repeating: 0, count: hash.blockSize - block.count)
        let inner = hash.digest(block.map { $0 ^ 0x36 } + message)
        return hash.digest(block.map { $0 ^ 0x5c } + inner)
    }

    /// Whether two codes are equal, in time that depends on their length only: a comparison
    /// that stops at the first difference tells a server-side attacker how much was right.
    package static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
