/// Bytes as lower-case hex (`bytes.hex`, digests) and back (the hex a workflow writes).
package enum HexText {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Two lower-case digits per byte.
    package static func encode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `text` is hex digits (either case) of whole bytes.
    package static func isHex(_ text: String) -> Bool {
        text.utf8.count % 2 == 0 && isHexDigits(text)
    }

    /// Whether `text` is hex digits only (either case), of any number.
    package static func isHexDigits(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0.isHexDigit }
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}
