@testable import CourierReports
import CourierSecrets
import Testing

/// The response body in a transcript is the text its charset says, cut on whole characters.
@Suite struct TranscriptCharsetTests {
    let policy = MaskingPolicy(secrets: [(value: "Grüße-k7Q2vX9mZr", name: "token")])

    @Test("a declared charset is decoded; without one, bytes that are not UTF-8 stay '<N bytes of binary data>'")
    func decoded() {
        #expect(Transcript.bodyText([0x63, 0x61, 0x66, 0xE9], charset: "iso-8859-1", limit: 100, policy: policy) == "café")
        #expect(Transcript.bodyText([0xD6, 0xD0, 0xCE, 0xC4], charset: "GB2312", limit: 100, policy: policy) == "中文")
        #expect(Transcript.bodyText([0x63, 0xE9, 0x61, 0x66, 0x65, 0x73], charset: nil, limit: 100, policy: policy) == "<6 bytes of binary data>")
        #expect(Transcript.bodyText([0xFF, 0xFE, 0x47, 0x00, 0xFC, 0x00], charset: nil, limit: 100, policy: policy) == "Gü")
    }

    @Test("an unknown charset is named once, above the body")
    func unknown() {
        #expect(Transcript.bodyText(Array("plain".utf8), charset: "x-nope", limit: 100, policy: policy)
                == "* unknown charset 'x-nope': the body is shown as UTF-8\nplain")
    }

    @Test("a long body in a multi-byte charset is cut on a whole character, never into U+FFFD")
    func cutOnCharacters() {
        // 3,000 times 中 in GBK (2 bytes each); the window ends inside a character.
        let body = Array(repeating: [UInt8]([0xD6, 0xD0]), count: 3_000).flatMap { $0 }
        let shown = Transcript.bodyText(body, charset: "GBK", limit: 1_001, policy: policy)
        #expect(!shown.contains("\u{FFFD}"))
        let text = shown.split(separator: "\n").first.map(String.init) ?? ""
        #expect(!text.isEmpty && text.allSatisfy { $0 == "中" })
        #expect(shown.contains("more bytes)"))
    }

    @Test("a secret is masked in the decoded text")
    func masked() {
        let latin1: [UInt8] = Array("token=Gr".utf8) + [0xFC, 0xDF] + Array("e-k7Q2vX9mZr;".utf8)
        #expect(Transcript.bodyText(latin1, charset: "ISO-8859-1", limit: 100, policy: policy) == "token=***;")
    }
}
