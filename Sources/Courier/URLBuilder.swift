import CourierHTTP
import Foundation

/// Joins base URL, endpoint path and query without `URLComponents` (this runs on every
/// request, and its encoding rules are the ones documented on ``Endpoint``).
enum URLBuilder {
    /// `baseURL` as a string without a trailing `/`; nil unless it is http or https with a host.
    static func base(_ url: URL) -> String? {
        var text = url.absoluteString
        guard hasHTTPScheme(text), url.host?.isEmpty == false else { return nil }
        // Query and fragment of a base URL would end up in the middle of the path.
        if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = String(text[..<cut]) }
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    static func hasHTTPScheme(_ text: String) -> Bool {
        // Most paths start with `/`: decided without building a lowercased copy.
        guard let first = text.utf8.first, first | 0x20 == UInt8(ascii: "h") else { return false }
        let lower = text.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// The request URL; nil when there is no valid base and the path is not absolute.
    static func url(base: String?, path: String, query: [URLQueryItem]) -> String? {
        var url: String
        if hasHTTPScheme(path) {
            url = path
        } else {
            guard let base else { return nil }
            url = base
            if !path.isEmpty && !path.hasPrefix("/") { url += "/" }
            url += encode(path, keeping: pathAllowed)
        }
        guard !query.isEmpty else { return url }
        // Bytes, not `contains("?")`: with Foundation imported that resolves to an NSString search.
        url += url.utf8.contains(UInt8(ascii: "?")) ? "&" : "?"
        var first = true
        for item in query {
            if !first { url += "&" }
            first = false
            url += encode(item.name, keeping: unreserved)
            if let value = item.value { url += "=" + encode(value, keeping: unreserved) }
        }
        return url
    }

    /// Which bytes a part of a URL keeps as they are: a table, not a `Set`, because it is
    /// consulted for every byte of every URL.
    struct Allowed: Sendable {
        private let table: [Bool]

        init(_ characters: String) {
            var table = [Bool](repeating: false, count: 256)
            for byte in characters.utf8 { table[Int(byte)] = true }
            self.table = table
        }

        func contains(_ byte: UInt8) -> Bool { table[Int(byte)] }
    }

    private static let unreservedCharacters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    /// RFC 3986 unreserved characters: the only ones a query name or value keeps as they are.
    static let unreserved = Allowed(unreservedCharacters)
    /// A path keeps its separators, sub-delims, `:@` and existing escapes (`%`), and `?`
    /// for a path that carries its own query.
    static let pathAllowed = Allowed(unreservedCharacters + "/!$&'()*+,;=:@%?")

    static func encode(_ text: String, keeping allowed: Allowed) -> String {
        let utf8 = text.utf8
        if utf8.allSatisfy({ allowed.contains($0) }) { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count * 3)
        for byte in utf8 {
            if allowed.contains(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `application/x-www-form-urlencoded` (WHATWG): space as `+`, the rest like a query.
    static func form(_ fields: [String: String]) -> String {
        fields.sorted { $0.key < $1.key }
            .map { formEncode($0.key) + "=" + formEncode($0.value) }
            .joined(separator: "&")
    }

    private static let formAllowed = Allowed(unreservedCharacters + "* ")

    private static func formEncode(_ text: String) -> String {
        encode(text, keeping: formAllowed).replacingOccurrences(of: " ", with: "+")
    }
}
