/// The escapes a server, an encoder or an output may apply to any part of a value, decoded in
/// one left-to-right pass: the view of a text that ``SecretMatcher`` searches.
///
/// A server re-quotes what it echoes in its own way (werkzeug keeps `/ : @` and encodes
/// `& = +` and the space; Go and .NET write `&`, `<`, `>`, `'` and `+` as `\u0026`…), and may do
/// so to a part of a value only. Listing every such form of a secret cannot end, so matching
/// runs on the text with each escape decoded, whatever mix and case of hex it is written in:
///
/// - `%XX` (either case of hex) → the byte;
/// - `\uXXXX` (either case; surrogate pairs joined) → the UTF-8 of the scalar, and the JSON
///   escapes `\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t`;
/// - `&#NNN;` and `&#xHHH;` → the UTF-8 of the scalar, and `&amp;` `&lt;` `&gt;` `&quot;` `&apos;`;
/// - `+` is folded to a space (form encoding), in the text and in every pattern alike: a
///   literal `+` of a secret then also matches a space, which masks a little more, never less.
///
/// Decoding is one level: `%2541` is `%41`, as a server decodes it. Patterns are decoded with
/// the same function, so a form and its text decode alike wherever the form starts on an
/// escape's boundary (where it starts inside one, the matcher scans from there as well).
///
///     EscapeDecoding.decoded(Array(#"p@ss%20w0rd\u0026x%3d1"#.utf8))   // "p@ss w0rd&x=1"
enum EscapeDecoding {
    /// An escape's input bytes per decoded byte, at most (`&#0000065;` is one byte): a match of
    /// `n` decoded bytes spans at most `n` times this many bytes of the text.
    static let maximumExpansion = 10

    /// One escape: how many input bytes it takes, and the 1 to 4 bytes it stands for.
    struct Token {
        var length: Int
        var count: Int
        var bytes: (UInt8, UInt8, UInt8, UInt8)

        init(length: Int, byte: UInt8) {
            self.length = length
            count = 1
            bytes = (byte, 0, 0, 0)
        }

        init?(length: Int, scalar: UInt32) {
            guard let scalar = Unicode.Scalar(scalar) else { return nil }
            self.length = length
            var out: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
            var count = 0
            UTF8.encode(scalar) { byte in
                switch count {
                case 0: out.0 = byte
                case 1: out.1 = byte
                case 2: out.2 = byte
                default: out.3 = byte
                }
                count += 1
            }
            self.count = count
            bytes = out
        }

        func byte(_ index: Int) -> UInt8 {
            switch index {
            case 0: return bytes.0
            case 1: return bytes.1
            case 2: return bytes.2
            default: return bytes.3
            }
        }
    }

    static let plus = UInt8(ascii: "+"), space = UInt8(ascii: " ")
    private static let percent = UInt8(ascii: "%"), backslash = UInt8(ascii: "\\"), ampersand = UInt8(ascii: "&")

    /// Whether `byte` may begin an escape or is folded: every other byte stands for itself.
    @inline(__always)
    static func isSpecial(_ byte: UInt8) -> Bool {
        byte == percent || byte == ampersand || byte == plus || byte == backslash
    }

    /// The folded form of a decoded byte (`+` as a space).
    @inline(__always)
    static func folded(_ byte: UInt8) -> UInt8 { byte == plus ? space : byte }

    @inline(__always)
    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: return UInt32(byte - 0x30)
        case 0x41...0x46: return UInt32(byte - 0x41 + 10)
        case 0x61...0x66: return UInt32(byte - 0x61 + 10)
        default: return nil
        }
    }

    /// The escape that begins at `index`, or nil when the bytes there stand for themselves.
    static func token(at index: Int, in bytes: UnsafePointer<UInt8>, count: Int) -> Token? {
        let available = count - index
        switch bytes[index] {
        case percent:
            guard available >= 3, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else { return nil }
            return Token(length: 3, byte: UInt8(high << 4 | low))
        case backslash:
            guard available >= 2 else { return nil }
            switch bytes[index + 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Token(length: 2, byte: bytes[index + 1])
            case UInt8(ascii: "b"): return Token(length: 2, byte: 0x08)
            case UInt8(ascii: "f"): return Token(length: 2, byte: 0x0C)
            case UInt8(ascii: "n"): return Token(length: 2, byte: 0x0A)
            case UInt8(ascii: "r"): return Token(length: 2, byte: 0x0D)
            case UInt8(ascii: "t"): return Token(length: 2, byte: 0x09)
            case UInt8(ascii: "u"):
                guard let unit = unicodeEscape(at: index, in: bytes, count: count) else { return nil }
                if (0xD800...0xDBFF).contains(unit) {
                    guard let low = unicodeEscape(at: index + 6, in: bytes, count: count), (0xDC00...0xDFFF).contains(low) else { return nil }
                    return Token(length: 12, scalar: 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                }
                return Token(length: 6, scalar: unit)
            default: return nil
            }
        case ampersand:
            return entity(at: index, in: bytes, count: count)
        default:
            return nil
        }
    }

    /// The code unit of `\uXXXX` at `index`, or nil.
    private static func unicodeEscape(at index: Int, in bytes: UnsafePointer<UInt8>, count: Int) -> UInt32? {
        guard count - index >= 6, bytes[index] == backslash, bytes[index + 1] == UInt8(ascii: "u") else { return nil }
        var unit: UInt32 = 0
        for offset in 2..<6 {
            guard let digit = hexValue(bytes[index + offset]) else { return nil }
            unit = unit << 4 | digit
        }
        return unit
    }

    private static let namedEntities: [(name: [UInt8], byte: UInt8)] = [
        (Array("amp;".utf8), UInt8(ascii: "&")), (Array("lt;".utf8), UInt8(ascii: "<")), (Array("gt;".utf8), UInt8(ascii: ">")),
        (Array("quot;".utf8), UInt8(ascii: "\"")), (Array("apos;".utf8), UInt8(ascii: "'")),
    ]
    /// Digits of a numeric entity, at most: `&#1114111;`, `&#x10FFFF;` (leading zeros count).
    private static let maximumEntityDigits = (decimal: 7, hex: 6)

    private static func entity(at index: Int, in bytes: UnsafePointer<UInt8>, count: Int) -> Token? {
        var position = index + 1
        guard position < count else { return nil }
        if bytes[position] != UInt8(ascii: "#") {
            for (name, byte) in namedEntities where count - position >= name.count {
                if (0..<name.count).allSatisfy({ bytes[position + $0] == name[$0] }) { return Token(length: 1 + name.count, byte: byte) }
            }
            return nil
        }
        position += 1
        let isHex = position < count && (bytes[position] | 0x20) == UInt8(ascii: "x")
        if isHex { position += 1 }
        let limit = isHex ? maximumEntityDigits.hex : maximumEntityDigits.decimal
        var value: UInt32 = 0
        var digits = 0
        while position < count, digits < limit {
            let byte = bytes[position]
            let digit: UInt32?
            if isHex { digit = hexValue(byte) } else { digit = (0x30...0x39).contains(byte) ? UInt32(byte - 0x30) : nil }
            guard let digit else { break }
            value = value * (isHex ? 16 : 10) + digit
            digits += 1
            position += 1
        }
        guard digits > 0, position < count, bytes[position] == UInt8(ascii: ";") else { return nil }
        return Token(length: position + 1 - index, scalar: value)
    }

    // MARK: - Whole values

    /// `bytes` decoded and folded, as the matcher sees a text.
    static func decoded(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return [] }
            var out: [UInt8] = []
            out.reserveCapacity(buffer.count)
            var index = 0
            while index < buffer.count {
                if isSpecial(base[index]), let token = token(at: index, in: base, count: buffer.count) {
                    for offset in 0..<token.count { out.append(folded(token.byte(offset))) }
                    index += token.length
                } else {
                    out.append(folded(base[index]))
                    index += 1
                }
            }
            return out
        }
    }

    /// What the matcher looks for to find `form` in a text: its decoded view, and where the
    /// form ends in what begins an escape (`…%`, `…&#3`), the view without that end, since in
    /// the text the bytes after the form may complete it (`%` before `41`). (A form whose first
    /// bytes join a byte before it into an escape, a hex key after a lone `%`, is found by the
    /// scan itself: see ``SecretMatcher``.) `raw`: the form itself, to be searched as it is,
    /// when its decoded view is shorter than `minimumBytes` (a secret `&amp;` would otherwise
    /// mask every `&`).
    static func patterns(for form: [UInt8], minimumBytes: Int) -> (decoded: [[UInt8]], raw: [UInt8]?) {
        let view = decoded(form)
        guard view.count >= minimumBytes else { return ([], form) }
        var out = [view]
        let unfinished = form.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { incompleteEscapeLength(atEndOf: $0, count: buffer.count) } ?? 0
        }
        if unfinished > 0 {
            let kept = decoded(Array(form.dropLast(unfinished)))
            if kept.count >= minimumBytes { out.append(kept) }
        }
        return (out, nil)
    }

    /// How many bytes at the end of `bytes` begin an escape that more bytes would complete
    /// (`%4`, `\u00`, `&#22`, `&am`); 0 when there is none.
    static func incompleteEscapeLength(atEndOf bytes: UnsafePointer<UInt8>, count: Int) -> Int {
        // The longest unfinished escape is a high surrogate and 5 bytes of the low one.
        for start in max(0, count - 11)..<count where bytes[start] == percent || bytes[start] == backslash || bytes[start] == ampersand {
            if isUnfinished(UnsafeBufferPointer(start: bytes + start, count: count - start)) { return count - start }
        }
        return 0
    }

    private static func isUnfinished(_ tail: UnsafeBufferPointer<UInt8>) -> Bool {
        let rest = Array(tail.dropFirst())
        func allHex(_ part: ArraySlice<UInt8>) -> Bool { part.allSatisfy { hexValue($0) != nil } }
        switch tail[0] {
        case percent:
            return rest.count < 2 && allHex(rest[...])
        case backslash:
            if rest.isEmpty { return true }
            guard rest[0] == UInt8(ascii: "u") else { return false }
            let digits = rest.dropFirst()
            if digits.count < 4 { return allHex(digits) }
            // `\uD83D` then the beginning of its low surrogate.
            guard allHex(digits.prefix(4)), let unit = UInt32(String(decoding: digits.prefix(4), as: UTF8.self), radix: 16),
                  (0xD800...0xDBFF).contains(unit) else { return false }
            let low = Array(digits.dropFirst(4))
            let shape = Array("\\u".utf8)
            return low.count < 6 && zip(low, shape).allSatisfy { $0 == $1 } && allHex(low.dropFirst(2)[...])
        default:
            if rest.isEmpty { return true }
            if rest[0] != UInt8(ascii: "#") {
                return namedEntities.contains { $0.name.count > rest.count && $0.name.starts(with: rest) }
            }
            var digits = rest.dropFirst()
            var isHex = false
            if let first = digits.first, first | 0x20 == UInt8(ascii: "x") { isHex = true; digits = digits.dropFirst() }
            let limit = isHex ? maximumEntityDigits.hex : maximumEntityDigits.decimal
            return digits.count <= limit && digits.allSatisfy { isHex ? hexValue($0) != nil : (0x30...0x39).contains($0) }
        }
    }
}
