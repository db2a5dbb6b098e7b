@testable import CourierEngine
import CourierResults
import CourierSecrets
import Testing

/// A body is recorded as the text its charset says, masked, and cut on whole characters.
@Suite struct BodyRecordingTests {
    let policy = MaskingPolicy(secrets: [(value: "Grüße-k7Q2vX9mZr", name: "token")])

    func record(_ bytes: [UInt8], charset: String?, limit: Int = 100) -> BodyRecord {
        BodyRecorder.record(bytes, charset: charset, policy: policy, limit: limit)
    }

    @Test("a declared charset is decoded; without one, bytes that are not UTF-8 are recorded as binary (size only)")
    func decoded() {
        #expect(record([0x63, 0x61, 0x66, 0xE9], charset: "iso-8859-1").text == "café")
        #expect(record([0xD6, 0xD0, 0xCE, 0xC4], charset: "GB2312").text == "中文")
        #expect(record([0x63, 0xE9, 0x61, 0x66, 0x65, 0x73], charset: nil) == BodyRecord(totalBytes: 6, binary: true))
        #expect(record([0xFF, 0xFE, 0x47, 0x00, 0xFC, 0x00], charset: nil).text == "Gü")
    }

    @Test("an unknown charset is recorded by name, the text read as UTF-8")
    func unknown() {
        let body = record(Array("plain".utf8), charset: "x-nope")
        #expect(body.unknownCharset == "x-nope")
        #expect(body.text == "plain")
    }

    @Test("a long body in a multi-byte charset is cut on a whole character, never into U+FFFD")
    func cutOnCharacters() {
        // 3,000 times 中 in GBK (2 bytes each); the window ends inside a character.
        let bytes = Array(repeating: [UInt8]([0xD6, 0xD0]), count: 3_000).flatMap { $0 }
        let body = record(bytes, charset: "GBK", limit: 1_001)
        #expect(!body.text.contains("\u{FFFD}"))
        #expect(!body.text.isEmpty && body.text.allSatisfy { $0 == "中" })
        #expect(body.truncated && body.totalBytes == 6_000)
    }

    @Test("a secret is masked in the decoded text")
    func masked() {
        let latin1: [UInt8] = Array("token=Gr".utf8) + [0xFC, 0xDF] + Array("e-k7Q2vX9mZr;".utf8)
        #expect(record(latin1, charset: "ISO-8859-1").text == "token=***;")
    }

    @Test("a 5 MB body is recorded as at most the 64 KiB bound, with its real size and the cut counted")
    func bounded() {
        let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 5_000_000)
        let body = BodyRecorder.record(bytes, charset: nil, policy: policy)
        #expect(body.text.utf8.count <= BodyRecord.limit)
        #expect(body.text.utf8.count > BodyRecord.limit - 16)
        #expect(body.totalBytes == 5_000_000)
        #expect(body.truncated)
        #expect(body.text.utf8.count + body.omittedBytes == 5_000_000)
    }
}
