/// MD5 (RFC 1321) for `bytes.md5`: many download pages and `Content-MD5`-era APIs still
/// publish it. Not for security, only to compare with a published digest; in Swift for the
/// reasons ``SHA256`` gives.
package enum MD5 {
    private static let k: [UInt32] = [
        0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
        0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
        0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
        0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
        0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
        0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
        0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
        0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
    ]
    /// The left rotations of each round, four per round.
    private static let shifts: [UInt32] = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21]

    /// The 16-byte digest of `message`.
    package static func digest(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476]
        var m = [UInt32](repeating: 0, count: 16)
        message.withUnsafeBufferPointer { bytes in
            let whole = bytes.count / 64 * 64
            for start in stride(from: 0, to: whole, by: 64) {
                compress(UnsafeBufferPointer(rebasing: bytes[start..<start + 64]), &h, &m)
            }
            for block in BlockPadding.tail(bytes[whole...], length: bytes.count, bigEndian: false) {
                block.withUnsafeBufferPointer { compress($0, &h, &m) }
            }
        }
        return h.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32($0 * 8)) } }
    }

    /// The digest in lower-case hex, as `md5sum` prints it.
    package static func hexDigest(_ message: [UInt8]) -> String {
        HexText.encode(digest(message))
    }

    private static func compress(_ block: UnsafeBufferPointer<UInt8>, _ h: inout [UInt32], _ m: inout [UInt32]) {
        for i in 0..<16 {
            let j = i * 4
            m[i] = UInt32(block[j]) | UInt32(block[j + 1]) << 8 | UInt32(block[j + 2]) << 16 | UInt32(block[j + 3]) << 24
        }
        var (a, b, c, d) = (h[0], h[1], h[2], h[3])
        for i in 0..<64 {
            var f: UInt32
            let g: Int
            switch i / 16 {
            case 0: f = (b & c) | (~b & d); g = i
            case 1: f = (d & b) | (~d & c); g = (5 * i + 1) % 16
            case 2: f = b ^ c ^ d; g = (3 * i + 5) % 16
            default: f = c ^ (b | ~d); g = (7 * i) % 16
            }
            f = f &+ a &+ k[i] &+ m[g]
            let s = shifts[i / 16 * 4 + i % 4]
            (a, d, c) = (d, c, b)
            b = b &+ (f << s | f >> (32 - s))
        }
        h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d
    }
}
