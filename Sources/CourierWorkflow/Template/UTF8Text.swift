/// A string's UTF-8 bytes for the template and expression parsers, with
/// byte offsets turned into the Unicode-scalar offsets that positions count.
///
/// The parsers' tokens are all ASCII, so they scan bytes; for ASCII text (the
/// usual case) a byte offset is already a scalar offset.
struct UTF8Text {
    private let bytes: [UInt8]
    /// True when every byte is ASCII.
    private let isASCII: Bool
    /// For non-ASCII text: the scalar count before every `stride`-th byte, so
    /// a position costs at most `stride` steps (scanning from the start made
    /// thousands of diagnostics in one long scalar quadratic).
    private let checkpoints: [Int]
    private static let stride = 64

    init(_ text: String) {
        bytes = Array(text.utf8)
        isASCII = bytes.allSatisfy { $0 < 0x80 }
        var checkpoints: [Int] = []
        if !isASCII {
            checkpoints.reserveCapacity(bytes.count / Self.stride + 1)
            var count = 0
            for (index, byte) in bytes.enumerated() {
                if index % Self.stride == 0 { checkpoints.append(count) }
                if byte & 0xC0 != 0x80 { count += 1 }
            }
        }
        self.checkpoints = checkpoints
    }

    var count: Int { bytes.count }

    subscript(index: Int) -> UInt8 { bytes[index] }

    /// The text of bytes `start..<end` (on character boundaries).
    func string(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// The number of Unicode scalars before byte `offset`.
    func scalarOffset(_ offset: Int) -> Int {
        if isASCII { return offset }
        let end = min(offset, bytes.count)
        let block = end / Self.stride
        guard block < checkpoints.count else { return offset }
        var count = checkpoints[block]
        for byte in bytes[(block * Self.stride)..<end] where byte & 0xC0 != 0x80 { count += 1 }
        return count + max(0, offset - bytes.count)
    }
}
