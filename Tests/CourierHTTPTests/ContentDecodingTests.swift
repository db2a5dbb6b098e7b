@testable import CourierHTTP
import Foundation
import Testing

/// Courier's own undoing of Content-Encoding (for steps that read raw bytes): every coding
/// libcurl would undo, and every way a body can be wrong, as a clear error, never a crash,
/// and never more than the limit in memory.
@Suite struct ContentDecodingTests {
    /// 340 bytes of UTF-8, encoded in each coding below (Python's gzip and zlib, libbrotlienc).
    static let text = Array(String(repeating: "hello, bytes ✓ ", count: 20).utf8)
    static let gzip = bytes("H4sIAAAAAAACA8tIzcnJ11FIqixJLVZ4NGeyQsaoAKUCAFuZXPZUAQAA")
    static let zlib = bytes("eJzLSM3JyddRSKosSS1WeDRnskLGqAClAgD65ojh")
    static let rawDeflate = bytes("y0jNycnXUUiqLEktVng0Z7JCxqgApQIA")
    static let brotli = bytes("G1MB+B0JNk7x4dpqJUgZXU1ytthcnrgaZMAC4SKdpk+nAw==")
    /// Two gzip members, "first," and "second" (RFC 1952 §2.2).
    static let twoMembers = bytes("H4sIAAAAAAACA0vLLCou0QEA1zZHFQYAAAAfiwgAAAAAAAIDK05Nzs9LAQBpER+2BgAAAA==")
    /// 64 MiB of zeros in 106 bytes of brotli.
    static let brotliBomb = bytes("y///P/gnAOKxQCD3/o///3/wTwDEYRGA7v0f////4J8AiMMCAN37P/7//8E/ARCHBQC693/8//+DfwIgDgsAdO//+P//B/8EQBwWAOje//H//w/+CYA4LADQvf/L//8//BMAcVgAoHv/Bw==")

    private static func bytes(_ base64: String) -> [UInt8] { Array(Data(base64Encoded: base64) ?? Data()) }

    private static func response(_ body: [UInt8], encoding: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Encoding": encoding], body: body)
    }

    private static func decoded(_ body: [UInt8], _ encoding: String, limit: Int = 1 << 20) throws(HTTPError) -> HTTPResponse {
        try ContentDecoding.decoded(response(body, encoding: encoding), limit: limit)
    }

    private static func failure(_ body: [UInt8], _ encoding: String, limit: Int = 1 << 20) -> HTTPError? {
        do throws(HTTPError) { _ = try decoded(body, encoding, limit: limit) } catch { return error }
        return nil
    }

    @Test(arguments: [("gzip", gzip), ("x-gzip", gzip), ("deflate", zlib), ("deflate", rawDeflate), ("br", brotli), ("GZIP", gzip)])
    func eachCodingIsUndoneAndTheReceivedBytesKept(encoding: String, body: [UInt8]) throws {
        let response = try Self.decoded(body, encoding)
        #expect(response.body == Self.text)
        #expect(response.encodedBody == body)
    }

    @Test func codingsAreUndoneLastFirst() throws {
        // `Content-Encoding: gzip, identity, gzip`: gzip applied twice.
        let twice = try #require(try? Self.gzipped(Self.gzip))
        #expect(try Self.decoded(twice, "gzip, identity, gzip").body == Self.text)
    }

    @Test func concatenatedGzipMembersAreOneBody() throws {
        #expect(try Self.decoded(Self.twoMembers, "gzip").body == Array("first,second".utf8))
    }

    @Test func nothingToUndoKeepsOneCopy() throws {
        let identity = try Self.decoded(Self.text, "identity")
        #expect(identity.body == Self.text && identity.encodedBody == nil)
        let none = try ContentDecoding.decoded(HTTPResponse(status: 200, body: Self.text), limit: 1 << 20)
        #expect(none.encodedBody == nil)
        // HEAD, 204 and 304 name the coding of a body they do not have.
        let empty = try Self.decoded([], "gzip")
        #expect(empty.body.isEmpty && empty.encodedBody == nil)
    }

    @Test func aTruncatedStreamSaysSo() {
        let cut = Array(Self.gzip.dropLast(12))
        let error = Self.failure(cut, "gzip")
        #expect(error?.kind == .badResponse)
        #expect(error?.message == "the body could not be decoded as gzip: the data ends early, after \(cut.count) bytes (truncated?)")
        #expect(error?.text(naming: { $0 == .notCompressed ? "'compressed: false'" : nil }).hint
            == "set 'compressed: false' to receive it as sent")
        #expect(Self.failure(Array(Self.brotli.dropLast(5)), "br")?.message.contains("the data ends early") == true)
    }

    @Test func corruptStreamsNameTheProblem() {
        var corrupt = Self.gzip
        corrupt[10] = 0xff  // the first deflate block header: an invalid block type
        #expect(Self.failure(corrupt, "gzip")?.message == "the body could not be decoded as gzip: invalid block type")
        #expect(Self.failure(Self.text, "gzip")?.message == "the body could not be decoded as gzip: incorrect header check")
        var badCheck = Self.zlib
        badCheck[badCheck.count - 1] ^= 0xff
        #expect(Self.failure(badCheck, "deflate")?.message == "the body could not be decoded as deflate: incorrect data check")
        let brotli = Self.failure(Array("not brotli at all".utf8), "br")
        #expect(brotli?.kind == .badResponse)
        #expect(brotli?.message.hasPrefix("the body could not be decoded as br: ") == true)
        #expect(brotli?.message.contains("_ERROR") == false, "\(brotli?.message ?? "")")
    }

    @Test func anUnknownCodingIsABadResponse() {
        let error = Self.failure(Self.text, "zstd")
        #expect(error?.kind == .badResponse)
        #expect(error?.message == "the body is sent with Content-Encoding 'zstd', which Courier cannot decode")
    }

    /// A decompression bomb is stopped at the limit: an error, not 64 MiB (or an OOM).
    @Test func aBombIsBoundedByTheLimit() throws {
        let error = Self.failure(Self.brotliBomb, "br", limit: 1 << 20)
        #expect(error?.kind == .responseTooLarge)
        #expect(error?.message == "the decoded response body is larger than 1 MiB (106 bytes as received, br)")
        let zeros = try Self.gzipped([UInt8](repeating: 0, count: 4 << 20))
        #expect(zeros.count < 10_000)
        #expect(Self.failure(zeros, "gzip", limit: 1 << 20)?.kind == .responseTooLarge)
        // Exactly at the limit is allowed.
        #expect(try Self.decoded(zeros, "gzip", limit: 4 << 20).body.count == 4 << 20)
    }

    @Test func theAcceptedCodingsAreTheOnesCourierCanUndo() {
        // Both libraries are on every machine Courier is tested on (libcurl depends on them).
        #expect(ContentDecoding.acceptEncoding == "gzip, deflate, br")
        #expect(ContentDecoding.readable("_ERROR_FORMAT_PADDING_1") == "format padding 1")
        #expect(ContentDecoding.isZlibHeader(Self.zlib) && !ContentDecoding.isZlibHeader(Self.rawDeflate))
    }

    /// A library that cannot be loaded is named with the package to install, not a crash.
    @Test func aMissingLibraryNamesItsPackage() {
        do throws(LibraryUnavailable) {
            _ = try LibraryUnavailable.open("libcourier-nothing.so.1", package: "libcourier-nothing1")
            Issue.record("expected an error")
        } catch {
            #expect(error.message.hasPrefix("cannot load libcourier-nothing.so.1 ("))
            #expect(error.message.hasSuffix("); install it, e.g. 'apt-get install libcourier-nothing1'"))
        }
        #expect(ContentCoding.gzip.unavailable == nil && ContentCoding.brotli.unavailable == nil)
    }

    /// `gzip -c` of `input` (gzip is in every Debian base system).
    private static func gzipped(_ input: [UInt8]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "gzip -c"]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        let writer = Thread {
            stdin.fileHandleForWriting.write(Data(input))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Array(output)
    }
}
