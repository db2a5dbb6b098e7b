import Foundation

/// One response's header block as it arrives: its status line, then its fields.
struct ReceivedHeaderBlock {
    var status: Int
    var headers = HTTPHeaders()
    /// The URL this block answered, as libcurl says when its status line arrives
    /// (`CURLINFO_EFFECTIVE_URL` is the hop being fetched while a redirect is followed).
    var url: String

    /// From a status line, `HTTP/1.1 200 OK` or `HTTP/2 200`; 0 when it has no number.
    init(statusLine: Slice<UnsafeBufferPointer<UInt8>>, url: String) {
        self.url = url
        var status = 0
        if let space = statusLine.firstIndex(of: UInt8(ascii: " ")) {
            var digits = 0
            for byte in statusLine[(space + 1)...] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 3 else { break }
                status = status * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            }
            if digits != 3 { status = 0 }
        }
        self.status = status
    }

    static func isStatusLine(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        let base = line.base.baseAddress.map { $0 + line.startIndex }
        guard line.count >= 5, let base else { return false }
        // "HTTP/" byte by byte: the generic `starts(with:)` over a UTF8View cost more than the rest.
        return base[0] == 0x48 && base[1] == 0x54 && base[2] == 0x54 && base[3] == 0x50 && base[4] == 0x2F
    }

    /// `Name: value` with the value's surrounding spaces and tabs trimmed; nil without a colon.
    static func field(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> (name: String, value: String)? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        var value = line[(colon + 1)...]
        while let first = value.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { value.removeFirst() }
        while let last = value.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { value.removeLast() }
        let name = UnsafeBufferPointer(rebasing: line[..<colon])
        return (commonName(name) ?? String(decoding: name, as: UTF8.self),
                String(decoding: UnsafeBufferPointer(rebasing: value), as: UTF8.self))
    }

    /// Field names nearly every response carries, spelled as servers usually spell them.
    private static let commonNames: [(bytes: [UInt8], name: String)] = [
        "Server", "Date", "Content-Type", "Content-Length", "Last-Modified", "Connection", "ETag", "Accept-Ranges",
        "Cache-Control", "Vary", "Transfer-Encoding", "Content-Encoding", "Keep-Alive", "Location", "Expires",
        "server", "date", "content-type", "content-length", "last-modified", "connection", "etag", "vary",
    ].map { (Array($0.utf8), $0) }

    /// The string of a common field name spelled exactly so (byte for byte, case included),
    /// made once: decoding and validating the same few names for every response showed in profiles.
    private static func commonName(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let base = bytes.baseAddress else { return nil }
        for known in commonNames where known.bytes.count == bytes.count {
            if known.bytes.withUnsafeBufferPointer({ $0.baseAddress.map { memcmp($0, base, bytes.count) == 0 } ?? false }) { return known.name }
        }
        return nil
    }
}
