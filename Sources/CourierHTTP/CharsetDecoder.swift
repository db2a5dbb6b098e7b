import Foundation

/// Turns a body's bytes into text in the charset its `Content-Type` declares.
///
/// glibc's `iconv`, not Foundation: on Linux `String(data:encoding:)` gives nil for EUC-JP and
/// for GBK (measured with Swift 6.3), and would need a table from labels to CFString encodings,
/// while glibc converts every charset a server is likely to declare by its usual names
/// (windows-125x, ISO-8859-x, KOI8, GBK/GB18030, Shift_JIS, EUC-JP/KR, Big5, UTF-16/32).
/// Its conversion modules ship in `libc6` itself (`/usr/lib/<arch>/gconv`), so every Debian
/// has them, `bookworm-slim` included.
///
/// Bytes that are invalid in the charset become U+FFFD; nothing here fails.
public enum CharsetDecoder {
    public struct Decoded: Sendable, Equatable {
        public var text: String
        /// How many input bytes `text` covers: all of them, except an incomplete character
        /// at the end of a prefix (`isPrefix`), which is left for the caller to describe.
        public var bytesRead: Int
        /// The declared label when no converter knows it; `text` is then UTF-8 with
        /// invalid sequences repaired, and whoever shows the body says so.
        public var unknownCharset: String?

        public init(text: String, bytesRead: Int, unknownCharset: String? = nil) {
            self.text = text
            self.bytesRead = bytesRead
            self.unknownCharset = unknownCharset
        }
    }

    /// Decodes `bytes` in `charset` (nil: UTF-8).
    ///
    /// A byte order mark wins over the declared charset, as in browsers (WHATWG Encoding
    /// "decode"): a UTF-16 body with a BOM is read right whatever the header says. The BOM
    /// itself is not part of the text. With `isPrefix`, `bytes` is the start of a longer body
    /// and an incomplete character at its end is not decoded.
    public static func decode(_ bytes: ArraySlice<UInt8>, charset: String?, isPrefix: Bool = false) -> Decoded {
        var bytes = bytes
        var converter: String?
        var unknown: String?
        var bom = 0
        if let mark = byteOrderMark(bytes) {
            bom = mark.length
            bytes = bytes.dropFirst(bom)
            converter = mark.converter
        } else if let charset, converterName(charset) != "UTF-8" {
            converter = converterName(charset)
            if converter == nil { unknown = charset }
        }
        if let converter {
            if let (text, read) = convert(bytes, from: converter, isPrefix: isPrefix) {
                return Decoded(text: text, bytesRead: bom + read)
            }
            unknown = charset
        }
        let whole = isPrefix ? bytes.dropLast(incompleteUTF8Suffix(bytes)) : bytes
        return Decoded(text: String(decoding: whole, as: UTF8.self), bytesRead: bom + whole.count, unknownCharset: unknown)
    }

    /// Decodes a whole body.
    public static func decode(_ bytes: [UInt8], charset: String?) -> Decoded {
        decode(bytes[...], charset: charset)
    }

    /// Whether `bytes` start with a UTF-8 or UTF-16 byte order mark.
    public static func hasByteOrderMark(_ bytes: ArraySlice<UInt8>) -> Bool { byteOrderMark(bytes) != nil }

    // MARK: - Names

    /// The converter for a declared label: browsers' readings where they differ from the
    /// label's letter (WHATWG Encoding's label table), else the label itself for iconv.
    /// Nil for a label that cannot be a charset name.
    static func converterName(_ label: String) -> String? {
        let lower = label.lowercased()
        switch lower {
        case "utf-8", "utf8", "unicode-1-1-utf-8":
            return "UTF-8"
        // Servers that say latin-1 or ASCII send windows-1252 (curly quotes, the euro sign);
        // ISO-8859-1's C1 controls in their place are never meant.
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "l1", "cp819", "ibm819", "iso-ir-100",
             "csisolatin1", "latin-1", "us-ascii", "ascii", "ansi_x3.4-1968", "cp1252", "windows-1252", "x-cp1252":
            return "WINDOWS-1252"
        // GB2312 labels carry GBK (its superset) in practice.
        case "gb2312", "gbk", "x-gbk", "csgb2312", "chinese", "gb_2312-80", "iso-ir-58", "cp936", "windows-936":
            return "GBK"
        // Shift_JIS as sent is Microsoft's code page 932 (its superset).
        case "shift_jis", "shift-jis", "sjis", "ms_kanji", "x-sjis", "csshiftjis", "windows-31j", "ms932", "cp932":
            return "CP932"
        // Without a BOM, UTF-16 and UTF-32 are big-endian (RFC 2781 §4.3).
        case "utf-16", "utf16": return "UTF-16BE"
        case "utf-32", "utf32": return "UTF-32BE"
        default:
            // The name reaches iconv_open: letters, digits and the punctuation of real
            // charset names only (no '/', which would add iconv suffixes like //TRANSLIT).
            guard !lower.isEmpty, lower.count <= 40,
                  lower.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.:+".unicodeScalars.contains($0)) })
            else { return nil }
            return label.uppercased()
        }
    }

    /// iconv_open's `(iconv_t) -1`.
    private static var invalidDescriptor: iconv_t? { iconv_t(bitPattern: -1) }

    // MARK: - Decoding

    private static func byteOrderMark(_ bytes: ArraySlice<UInt8>) -> (length: Int, converter: String?)? {
        let start = bytes.startIndex
        if bytes.count >= 3, bytes[start] == 0xEF, bytes[start + 1] == 0xBB, bytes[start + 2] == 0xBF { return (3, nil) }
        if bytes.count >= 2, bytes[start] == 0xFE, bytes[start + 1] == 0xFF { return (2, "UTF-16BE") }
        if bytes.count >= 2, bytes[start] == 0xFF, bytes[start + 1] == 0xFE { return (2, "UTF-16LE") }
        return nil
    }

    /// How many bytes at the end of `bytes` start a UTF-8 sequence they do not finish.
    static func incompleteUTF8Suffix(_ bytes: ArraySlice<UInt8>) -> Int {
        guard !bytes.isEmpty else { return 0 }
        for back in 1...min(3, bytes.count) {
            let byte = bytes[bytes.endIndex - back]
            if byte & 0xC0 == 0x80 { continue }
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            return length > back ? back : 0
        }
        return 0
    }

    private static let replacement = Array("\u{FFFD}".utf8)

    /// iconv in 64 KiB output pieces appended to one string: a 256 MiB body is held once as
    /// bytes and once as text, never as a third copy (measured: 256 MiB of windows-1252 in
    /// 1.8 s, of GBK in 2.1 s, of UTF-16 in 0.6 s; today's UTF-8 repair of the same latin-1
    /// bytes took 2.7 s). Nil when iconv has no converter by that name.
    private static func convert(_ bytes: ArraySlice<UInt8>, from name: String, isPrefix: Bool) -> (String, Int)? {
        let descriptor = iconv_open("UTF-8", name)
        guard descriptor != invalidDescriptor else { return nil }
        defer { iconv_close(descriptor) }
        // An invalid UTF-16 or UTF-32 unit is skipped whole, so the text stays aligned.
        let unit = name.hasPrefix("UTF-16") || name.hasPrefix("UCS-2") ? 2 : name.hasPrefix("UTF-32") || name.hasPrefix("UCS-4") ? 4 : 1
        var text = ""
        text.reserveCapacity(bytes.count)
        let capacity = 64 * 1024
        let output = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
        defer { output.deallocate() }
        var read = 0
        bytes.withUnsafeBufferPointer { input in
            guard let base = input.baseAddress else { return }
            var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(mutating: base).assumingMemoryBound(to: CChar.self)
            var inLeft = input.count
            func drain(_ outPointer: UnsafeMutablePointer<CChar>?) {
                let written = (outPointer ?? output) - output
                if written > 0 {
                    text += String(decoding: UnsafeRawBufferPointer(start: output, count: written), as: UTF8.self)
                }
            }
            while inLeft > 0 {
                var outPointer: UnsafeMutablePointer<CChar>? = output
                var outLeft = capacity
                let result = iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft)
                let failure = result == -1 ? errno : 0
                drain(outPointer)
                guard result == -1 else { break }
                switch failure {
                case E2BIG:
                    continue
                case EINVAL where isPrefix:
                    // An incomplete character at the end of a prefix: the rest of the body has it.
                    read = input.count - inLeft
                    return
                default:
                    // EILSEQ (invalid here), or EINVAL (the body ends mid-character).
                    text += String(decoding: replacement, as: UTF8.self)
                    let skip = min(unit, inLeft)
                    inPointer = inPointer.map { $0 + skip }
                    inLeft -= skip
                }
            }
            // Stateful charsets (ISO-2022-JP) may owe a shift back to their initial state.
            var outPointer: UnsafeMutablePointer<CChar>? = output
            var outLeft = capacity
            _ = iconv(descriptor, nil, nil, &outPointer, &outLeft)
            drain(outPointer)
            read = input.count
        }
        return (text, read)
    }
}
