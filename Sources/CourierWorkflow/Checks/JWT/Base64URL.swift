/// Base64url without padding (RFC 7515 §2, RFC 4648 §5): the encoding of a JWT's three parts.
enum Base64URL {
    /// The bytes of `text`, or why it is not base64url: a character outside `A–Z a–z 0–9 - _`
    /// (padding `=` included, which a JWS never writes), or a length no encoding gives.
    static func decode(_ text: Substring) -> Result<[UInt8], Base64URLProblem> {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for (offset, character) in text.utf8.enumerated() {
            guard let sextet = value(of: character) else {
                return .failure(.character(Character(Unicode.Scalar(character)), offset: offset + 1))
            }
            buffer = buffer << 6 | UInt32(sextet)
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        // One leftover character carries 6 bits, less than a byte: no encoder writes that.
        guard text.utf8.count % 4 != 1 else { return .failure(.length(text.utf8.count)) }
        return .success(bytes)
    }

    static func encode(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var word: UInt32 = 0
            for (i, byte) in chunk.enumerated() { word |= UInt32(byte) << UInt32(16 - i * 8) }
            for i in 0...chunk.count { out.append(alphabet[Int(word >> UInt32(18 - i * 6) & 63)]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}

/// Why a part of a token is not base64url.
enum Base64URLProblem: Error, Equatable {
    case character(Character, offset: Int)
    case length(Int)

    var reason: String {
        switch self {
        case .character(let character, let offset):
            character == "=" ? "padding '=' at character \(offset), which a JWT never has"
                : "'\(character.isASCII && !character.isWhitespace ? String(character) : character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined())' at character \(offset) is not base64url"
        case .length(let count): "\(count) characters is not a length base64url gives"
        }
    }
}
