import Foundation

/// Every form in which one secret value can show up in an output.
///
/// A secret travels encoded: base64 in `Authorization: Basic` (built by libcurl
/// from `user:password`, so the password sits at any offset of a longer base64
/// text), percent-encoded in URLs and form bodies, JSON-escaped in echoed
/// bodies, XML-escaped in JUnit reports, shell-quoted in `--curl` lines, and in
/// either Unicode normalization. Masking the plain value alone leaks it in every
/// other form, so the forms are derived once per value, here, and the
/// ``SecretMatcher`` looks for all of them — in the decoded view of a text
/// (``EscapeDecoding``), so a percent, JSON or entity escape of any part of a
/// form, in any mix, is found too; the escaping forms below then differ only
/// where decoding one level does not undo them (escapes of escapes, shell quoting).
///
///     SecretForms.forms(of: "p@ss word-1")
///     // ["p@ss word-1", "p%40ss%20word-1", "p%40ss+word-1", "cEBzcyB3b3JkLTE=", …]
package enum SecretForms {
    /// Values shorter than this (in characters) get their plain form masked
    /// only: a short value's encodings collide with ordinary text, and a
    /// declared secret this short is refused at load time anyway.
    package static let minimumLength = 4
    /// Derived forms shorter than this (in bytes) are not registered: a base64
    /// core of two characters would mask half of every report.
    package static let minimumFormBytes = 4

    /// The plain value first, then every derived form, without duplicates.
    ///
    /// Empty for an empty value. A value shorter than ``minimumLength`` yields
    /// its plain form only.
    package static func forms(of value: String) -> [String] {
        guard !value.isEmpty else { return [] }
        var forms = OrderedForms()
        forms.add(value, minimumBytes: 1)
        guard value.count >= minimumLength else { return forms.list }
        var variants = [value]
        // Compared by bytes: Swift's `==` holds NFC and NFD equal.
        for normalized in [value.precomposedStringWithCanonicalMapping, value.decomposedStringWithCanonicalMapping]
        where !variants.contains(where: { $0.utf8.elementsEqual(normalized.utf8) }) {
            variants.append(normalized)
        }
        // A multi-line value shows line by line where a line break ends a field: libcurl sends
        // a header's value as it is, and the server (like the parser of libcurl's sent block
        // for `-v`) ends the field at the bare line feed, so the first line arrives and is
        // echoed back alone. Each line long enough to mask safely is a value of its own.
        for variant in variants where variant.contains(where: \.isNewline) {
            for line in variant.split(whereSeparator: \.isNewline) {
                // Servers trim a field's value: its first line may arrive without its spaces.
                for text in [String(line), line.trimmingCharacters(in: .whitespaces)] where text.count >= minimumLength
                    && !variants.contains(where: { $0.utf8.elementsEqual(text.utf8) }) {
                    variants.append(text)
                }
            }
        }
        for variant in variants {
            let bytes = Array(variant.utf8)
            forms.add(variant)
            for form in base64Forms(bytes) { forms.add(form) }
            for form in percentForms(bytes) { forms.add(form) }
            for form in jsonForms(variant) { forms.add(form) }
            for form in markupForms(variant) { forms.add(form) }
            for form in shellForms(variant) { forms.add(form) }
            forms.add(hex(bytes, upper: false))
            forms.add(hex(bytes, upper: true))
            for form in nestedForms(variant) { forms.add(form) }
        }
        return forms.list
    }

    // MARK: - Escapes of escapes

    /// The value escaped twice or three times over, as echoes nest it: a JSON body echoed
    /// inside a JSON string (`"data": "{\"key\":\"p\\\"ss\"}"`, as httpbin and most echo
    /// servers write it), and either of those inside Courier's own XML report.
    ///
    /// Only the compositions that outputs produce are derived (JSON in JSON, XML of JSON,
    /// XML of JSON in JSON), each with the JSON variants of ``jsonForms(_:)`` minus `\/` and
    /// the XML of Courier's own writer (text and attribute): a few dozen forms for a value
    /// full of characters that escape, none for one that has none.
    static func nestedForms(_ value: String) -> [String] {
        func courierXML(_ text: String) -> [String] {
            [markupEscape(text.unicodeScalars, quote: "\"", apostrophe: "'", entities: 0, attribute: false),
             markupEscape(text.unicodeScalars, quote: "&quot;", apostrophe: "'", entities: 0, attribute: true)]
        }
        func json(_ text: String) -> [String] {
            let hasNonASCII = text.unicodeScalars.contains { !$0.isASCII }
            return (hasNonASCII ? [NonASCII.raw, .lowerHex, .upperHex] : [.raw]).map {
                jsonEscape(text, escapeSlash: false, nonASCII: $0)
            }
        }
        var out: [String] = []
        let once = json(value).filter { $0 != value }
        for escaped in once {
            out += courierXML(escaped)
            for twice in json(escaped) where twice != escaped {
                out.append(twice)
                out += courierXML(twice)
            }
        }
        return out
    }

    // MARK: - Base64

    /// Standard and URL-safe alphabets, with and without padding, and the
    /// characters fully determined by the value when it starts at byte 0, 1 or 2
    /// of a 3-byte group inside a longer text (`user:` before a password).
    static func base64Forms(_ bytes: [UInt8]) -> [String] {
        var out: [String] = []
        let standard = Data(bytes).base64EncodedString()
        let unpadded = String(standard.prefix { $0 != "=" })
        out += [standard, unpadded, urlSafe(standard), urlSafe(unpadded)]
        for offset in 0..<3 {
            // Encode behind `offset` filler bytes; keep the characters whose six
            // bits all come from the value: from ceil(8·offset/6) to floor(8·(offset+n)/6).
            let encoded = Array(Data([UInt8](repeating: 0, count: offset) + bytes).base64EncodedString().utf8)
            let first = (8 * offset + 5) / 6
            let end = (8 * (offset + bytes.count)) / 6
            guard end > first else { continue }
            let core = String(decoding: encoded[first..<end], as: UTF8.self)
            out += [core, urlSafe(core)]
        }
        return out
    }

    private static func urlSafe(_ base64: String) -> String {
        String(base64.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }

    // MARK: - Percent-encoding

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    /// The sets of bytes left as they are by the encoders a secret meets.
    private static let keptSets: [@Sendable (UInt8) -> Bool] = [
        // RFC 3986 unreserved: ALPHA DIGIT - . _ ~
        { isAlphanumeric($0) || "-._~".utf8.contains($0) },
        // JavaScript's encodeURIComponent.
        { isAlphanumeric($0) || "-_.!~*'()".utf8.contains($0) },
        // WHATWG application/x-www-form-urlencoded (Python's quote_plus keeps ~ too).
        { isAlphanumeric($0) || "*-._".utf8.contains($0) },
        // Everything but letters and digits.
        { isAlphanumeric($0) },
        // Query component (RFC 3986 pchar + / ?), as Foundation's urlQueryAllowed.
        { isAlphanumeric($0) || "-._~!$&'()*+,;=:@/?".utf8.contains($0) },
        // Path component, as Foundation's urlPathAllowed.
        { isAlphanumeric($0) || "-._~!$&'()*+,;=:@/".utf8.contains($0) },
        // userinfo of a URL (`https://user:p%40ss@host`), as curl and WHATWG write it.
        { isAlphanumeric($0) || "-._~!$&'()*+,;=".utf8.contains($0) },
    ]

    static func percentForms(_ bytes: [UInt8]) -> [String] {
        var out: [String] = []
        for kept in keptSets {
            for upper in [true, false] {
                for spaceAsPlus in [false, true] {
                    out.append(percentEncode(bytes, kept: kept, upper: upper, spaceAsPlus: spaceAsPlus))
                }
            }
        }
        return out
    }

    private static func percentEncode(_ bytes: [UInt8], kept: (UInt8) -> Bool, upper: Bool, spaceAsPlus: Bool) -> String {
        var out = ""
        out.reserveCapacity(bytes.count * 3)
        for byte in bytes {
            if byte == 0x20 && spaceAsPlus {
                out += "+"
            } else if kept(byte) && !(spaceAsPlus && byte == UInt8(ascii: "+")) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + hexByte(byte, upper: upper)
            }
        }
        return out
    }

    // MARK: - JSON

    /// As JSON encoders write the value inside a string: `\"`, `\\`, `\n`, `\t`…
    /// with non-ASCII raw or as `\uXXXX` (surrogate pairs beyond U+FFFF, hex in
    /// either case), and `/` raw or as `\/`.
    static func jsonForms(_ value: String) -> [String] {
        let hasSlash = value.contains("/")
        let hasNonASCII = value.unicodeScalars.contains { !$0.isASCII }
        var out: [String] = []
        for escapeSlash in hasSlash ? [false, true] : [false] {
            for nonASCII in hasNonASCII ? [NonASCII.raw, .lowerHex, .upperHex] : [.raw] {
                out.append(jsonEscape(value, escapeSlash: escapeSlash, nonASCII: nonASCII))
            }
        }
        return out
    }

    private enum NonASCII { case raw, lowerHex, upperHex }

    private static func jsonEscape(_ value: String, escapeSlash: Bool, nonASCII: NonASCII) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/" where escapeSlash: out += "\\/"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                let upper = nonASCII == .upperHex
                if scalar.value < 0x20 {
                    out += "\\u" + hex16(UInt16(scalar.value), upper: upper)
                } else if scalar.isASCII || nonASCII == .raw {
                    out.unicodeScalars.append(scalar)
                } else {
                    for unit in String(scalar).utf16 { out += "\\u" + hex16(unit, upper: upper) }
                }
            }
        }
        return out
    }

    // MARK: - XML and HTML

    /// As XML and HTML escapers write the value, Courier's own JUnit writer
    /// included (`&#10;` for a newline in an attribute): `&amp; &lt; &gt;`, the
    /// quote as `&quot;`/`&#34;`, the apostrophe as `&apos;`/`&#39;`/`&#039;`/`&#x27;`,
    /// and non-ASCII raw or as decimal or hex numeric entities.
    static func markupForms(_ value: String) -> [String] {
        let scalars = value.unicodeScalars
        let quotes = scalars.contains("\"") ? ["\"", "&quot;", "&#34;"] : ["\""]
        let apostrophes = scalars.contains("'") ? ["'", "&apos;", "&#39;", "&#039;", "&#x27;"] : ["'"]
        let hasNonASCII = scalars.contains { !$0.isASCII }
        let hasWhitespace = scalars.contains { $0 == "\n" || $0 == "\r" || $0 == "\t" }
        var out: [String] = []
        for quote in quotes {
            for apostrophe in apostrophes {
                for entities in hasNonASCII ? [0, 10, 16] : [0] {
                    for attribute in hasWhitespace ? [false, true] : [false] {
                        out.append(markupEscape(scalars, quote: quote, apostrophe: apostrophe, entities: entities, attribute: attribute))
                    }
                }
            }
        }
        return out
    }

    private static func markupEscape(_ scalars: String.UnicodeScalarView, quote: String, apostrophe: String,
                                     entities: Int, attribute: Bool) -> String {
        var out = ""
        for scalar in scalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += quote
            case "'": out += apostrophe
            case "\r": out += "&#13;"
            case "\n" where attribute: out += "&#10;"
            case "\t" where attribute: out += "&#9;"
            default:
                if scalar.isASCII || entities == 0 {
                    out.unicodeScalars.append(scalar)
                } else {
                    out += entities == 10 ? "&#\(scalar.value);" : "&#x\(String(scalar.value, radix: 16, uppercase: true));"
                }
            }
        }
        return out
    }

    // MARK: - Shell

    /// Inside single quotes (`'` as `'\''`), inside double quotes (`\` `"` `$` `` ` `` escaped),
    /// and backslash-escaped outside quotes.
    static func shellForms(_ value: String) -> [String] {
        let single = value.replacingOccurrences(of: "'", with: "'\\''")
        var double = ""
        var bare = ""
        for character in value {
            if "\\\"$`".contains(character) { double += "\\" }
            double.append(character)
            if character.isASCII && !(character.isLetter || character.isNumber || "-._/,:@%+=".contains(character)) {
                bare += "\\"
            }
            bare.append(character)
        }
        return [single, double, bare]
    }

    // MARK: - Hex

    static func hex(_ bytes: [UInt8], upper: Bool) -> String {
        bytes.map { hexByte($0, upper: upper) }.joined()
    }

    private static func hexByte(_ byte: UInt8, upper: Bool) -> String {
        let digits = Array((upper ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
    }

    private static func hex16(_ unit: UInt16, upper: Bool) -> String {
        hexByte(UInt8(unit >> 8), upper: upper) + hexByte(UInt8(unit & 0xFF), upper: upper)
    }
}

/// Forms in the order found, each once.
private struct OrderedForms {
    var list: [String] = []
    /// By bytes: a `Set<String>` would hold the NFC and NFD forms equal and keep one.
    var seen = Set<[UInt8]>()

    mutating func add(_ form: String, minimumBytes: Int = SecretForms.minimumFormBytes) {
        guard form.utf8.count >= minimumBytes, seen.insert(Array(form.utf8)).inserted else { return }
        list.append(form)
    }
}
