@testable import CourierHTTP
import Testing

/// The header parser the header callback feeds, one raw line at a time (CRLF already cut).
@Suite struct ReceivedHeaderBlockTests {
    /// Runs `body` with `line`'s bytes as the slice libcurl's buffer gives the callback.
    func withLine<T>(_ line: String, _ body: (Slice<UnsafeBufferPointer<UInt8>>) -> T) -> T {
        Array(line.utf8).withUnsafeBufferPointer { body($0[...]) }
    }

    @Test(arguments: [
        ("HTTP/1.1 200 OK", 200), ("HTTP/2 204", 204), ("HTTP/1.0 404 Not Found", 404),
        ("HTTP/1.1 20 OK", 0), ("HTTP/1.1 abc", 0), ("HTTP/1.1", 0),
    ])
    func statusLine(line: String, status: Int) {
        #expect(withLine(line) { ReceivedHeaderBlock.isStatusLine($0) })
        #expect(withLine(line) { ReceivedHeaderBlock(statusLine: $0, url: "http://h/").status } == status)
    }

    @Test(arguments: ["HTTP", "http/1.1 200 OK", "Server: HTTP/1.1", ""])
    func notAStatusLine(line: String) {
        #expect(!withLine(line) { ReceivedHeaderBlock.isStatusLine($0) })
    }

    @Test(arguments: [
        ("Content-Type: application/json", "Content-Type", "application/json"),
        ("X-Custom:\t  padded value \t", "X-Custom", "padded value"),
        ("x-empty:", "x-empty", ""),
        ("Location: http://a/b?c=d:e", "Location", "http://a/b?c=d:e"),
        // A common name in another spelling keeps the server's spelling.
        ("CONTENT-LENGTH: 5", "CONTENT-LENGTH", "5"),
    ])
    func field(line: String, name: String, value: String) {
        let field = withLine(line) { ReceivedHeaderBlock.field($0) }
        #expect(field?.name == name)
        #expect(field?.value == value)
    }

    @Test func aLineWithoutAColonIsNoField() {
        #expect(withLine("not a header") { ReceivedHeaderBlock.field($0) } == nil)
    }
}
