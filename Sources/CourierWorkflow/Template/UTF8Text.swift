/// A string's UTF-8 bytes for the template and expression parsers, with
/// byte offsets turned into the Unicode-scalar offsets that positions count.
///
/// The parsers' tokens are all ASCII, so they scan bytes; for ASCII text (the
/// usual case) a byte offset is already a scalar offset.
struct UTF8Text {
    private let bytes: [UInt8]
    /// True when every byte is ASCII.
    private let isASCII: Bool

    init(_ text: String) {
        bytes = Array(text.utf8)
        isASCII = bytes.allSatisfy { $0 < 0x80 }
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
        var count = 0
        for byte in bytes[..<min(offset, bytes.count)] where byte & 0xC0 != 0x80 { count += 1 }
        return count + max(0, offset - bytes.count)
    }
}
