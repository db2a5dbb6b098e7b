import CourierHTTP
import Testing

/// Bodies in the charset their `Content-Type` declares (`CharsetDecoder`, `BodyCharset`).
@Suite struct CharsetDecodingTests {
    @Test(arguments: [
        ("iso-8859-1", [0x63, 0x61, 0x66, 0xE9], "café"),
        ("latin1", [0x63, 0x61, 0x66, 0xE9], "café"),
        // Latin-1 and ASCII labels are read as windows-1252, as browsers do.
        ("ISO-8859-1", [0x93, 0x35, 0x20, 0x80, 0x94], "“5 €”"),
        ("us-ascii", [0x93, 0x41, 0x94], "“A”"),
        ("windows-1252", [0x93, 0x35, 0x20, 0x80, 0x94], "“5 €”"),
        ("windows-1250", [0xA3, 0xF3, 0x64, 0x9F], "Łódź"),
        ("windows-1251", [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2], "Привет"),
        ("windows-1253", [0xC1, 0xE8, 0xDE, 0xED, 0xE1], "Αθήνα"),
        ("KOI8-R", [0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4], "Привет"),
        ("GB2312", [0xD6, 0xD0, 0xCE, 0xC4], "中文"),
        // GB2312 labels carry GBK in practice: 測試 is GBK only.
        ("gb2312", [0xD6, 0xD0, 0xCE, 0xC4, 0x9C, 0x79, 0xD4, 0x87], "中文測試"),
        ("GBK", [0xD6, 0xD0, 0xCE, 0xC4, 0x9C, 0x79, 0xD4, 0x87], "中文測試"),
        ("GB18030", [0x95, 0x32, 0x82, 0x36], "𠀀"),
        ("Shift_JIS", [0x93, 0xFA, 0x96, 0x7B, 0x8C, 0xEA], "日本語"),
        ("shift_jis", [0x87, 0x40], "①"),
        ("EUC-JP", [0xC6, 0xFC, 0xCB, 0xDC, 0xB8, 0xEC], "日本語"),
        ("UTF-16LE", [0x47, 0x00, 0xFC, 0x00], "Gü"),
        ("UTF-16BE", [0x00, 0x47, 0x00, 0xFC], "Gü"),
        // No BOM: big-endian (RFC 2781 §4.3).
        ("utf-16", [0x00, 0x47, 0x00, 0xFC], "Gü"),
        ("UTF-32", [0x00, 0x00, 0x00, 0xFC], "ü"),
        ("utf-8", [0x63, 0x61, 0x66, 0xC3, 0xA9], "café"),
    ] as [(String, [UInt8], String)])
    func decodesTheDeclaredCharset(charset: String, bytes: [UInt8], text: String) {
        let decoded = CharsetDecoder.decode(bytes, charset: charset)
        #expect(decoded.text == text)
        #expect(decoded.bytesRead == bytes.count)
        #expect(decoded.unknownCharset == nil)
    }

    @Test("a byte order mark wins over the declared charset and is not part of the text")
    func byteOrderMarks() {
        #expect(CharsetDecoder.decode([0xFF, 0xFE, 0x47, 0x00, 0xFC, 0x00], charset: "iso-8859-1").text == "Gü")
        #expect(CharsetDecoder.decode([0xFE, 0xFF, 0x00, 0x47, 0x00, 0xFC], charset: "utf-16le").text == "Gü")
        #expect(CharsetDecoder.decode([0xEF, 0xBB, 0xBF, 0x63, 0xC3, 0xA9], charset: "shift_jis").text == "cé")
        #expect(CharsetDecoder.decode([0xFF, 0xFE, 0x47, 0x00], charset: nil).text == "G")
    }

    @Test("bytes invalid in the charset become U+FFFD, and decoding goes on")
    func invalidBytes() {
        // A Shift_JIS lead byte with nothing after it, in the middle and at the end.
        #expect(CharsetDecoder.decode([0x41, 0x93, 0x20, 0x42, 0x93], charset: "Shift_JIS").text == "A\u{FFFD} B\u{FFFD}")
        #expect(CharsetDecoder.decode([0x41, 0xFF, 0x42], charset: "GBK").text == "A\u{FFFD}B")
        // An odd trailing byte in UTF-16; a lone surrogate skips one whole unit.
        #expect(CharsetDecoder.decode([0x41, 0x00, 0x42], charset: "UTF-16LE").text == "A\u{FFFD}")
        #expect(CharsetDecoder.decode([0x00, 0xD8, 0x41, 0x00], charset: "UTF-16LE").text.hasSuffix("A"))
        #expect(CharsetDecoder.decode([0x63, 0xE9], charset: nil).text == "c\u{FFFD}")
    }

    @Test("a prefix ending inside a character stops before it and says how far it read")
    func prefixes() {
        let gbk: [UInt8] = [0xD6, 0xD0, 0xCE, 0xC4]
        let cut = CharsetDecoder.decode(gbk.dropLast(), charset: "GBK", isPrefix: true)
        #expect(cut.text == "中")
        #expect(cut.bytesRead == 2)
        let utf8 = CharsetDecoder.decode(Array("aé".utf8).dropLast(), charset: nil, isPrefix: true)
        #expect(utf8.text == "a")
        #expect(utf8.bytesRead == 1)
        let whole = CharsetDecoder.decode(gbk.dropLast(), charset: "GBK")
        #expect(whole.text == "中\u{FFFD}")
        #expect(whole.bytesRead == 3)
    }

    @Test("an unknown or malformed charset name: UTF-8 with replacements, and the name is reported")
    func unknownCharsets() {
        for name in ["x-no-such-charset", "utf-8//TRANSLIT", "../../etc/passwd", "", String(repeating: "a", count: 80)] {
            let decoded = CharsetDecoder.decode([0x63, 0x61, 0x66, 0xE9], charset: name)
            #expect(decoded.text == "caf\u{FFFD}", "\(name)")
            #expect(decoded.unknownCharset == name, "\(name)")
        }
    }

    @Test(arguments: [
        ("text/plain; charset=ISO-8859-1", "ISO-8859-1"),
        ("text/html;charset=\"Shift_JIS\"", "Shift_JIS"),
        ("text/plain; format=flowed; Charset=koi8-r", "koi8-r"),
        ("TEXT/PLAIN; CHARSET=LATIN1", "LATIN1"),
        ("text/plain; char", nil),
        ("text/plain; charset=utf-8", nil),
        ("text/plain; charset=UTF8", nil),
        ("text/plain", nil),
        ("application/json; charset=iso-8859-1", nil),
        ("application/problem+json; charset=gbk", nil),
        ("image/png; charset=iso-8859-1", nil),
        ("application/octet-stream; charset=latin1", nil),
        ("image/svg+xml; charset=windows-1252", "windows-1252"),
        ("application/xml; charset=EUC-JP", "EUC-JP"),
    ] as [(String, String?)])
    func declaredCharset(contentType: String, charset: String?) {
        #expect(BodyCharset.declared(byContentType: contentType) == charset)
    }

    @Test("HTTPResponse.text decodes with the Content-Type's charset")
    func responseText() {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/plain; charset=GB2312")
        let response = HTTPResponse(status: 200, headers: headers, body: [0xD6, 0xD0, 0xCE, 0xC4])
        #expect(response.text == "中文")
        #expect(response.charset == "GB2312")
    }
}
