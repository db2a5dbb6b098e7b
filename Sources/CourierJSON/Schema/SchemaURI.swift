/// URI references as JSON Schema uses them: `$id`, `$ref` and `$schema` values resolved against
/// a base URI (RFC 3986 §5.2), and JSON Pointer fragments (RFC 6901).
///
/// Only what identifiers need: no normalization beyond dot-segment removal, no percent-decoding
/// except of pointer fragments.
struct SchemaURI: Equatable {
    var scheme: String?
    var authority: String?
    var path: String
    var query: String?
    var fragment: String?

    /// Splits `text` into its RFC 3986 components (appendix B's regular expression, by hand).
    init(_ text: String) {
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        if let colon = rest.firstIndex(of: ":"),
            let first = rest.first, first.isASCII, first.isLetter,
            rest[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        {
            scheme = String(rest[..<colon])
            rest = rest[rest.index(after: colon)...]
        }
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            authority = String(rest[..<end])
            rest = rest[end...]
        }
        path = String(rest)
    }

    private init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    var text: String {
        var result = ""
        if let scheme { result += scheme + ":" }
        if let authority { result += "//" + authority }
        result += path
        if let query { result += "?" + query }
        if let fragment { result += "#" + fragment }
        return result
    }

    /// The URI without its fragment.
    var withoutFragment: String {
        var copy = self
        copy.fragment = nil
        return copy.text
    }

    /// Resolves `reference` against this (absolute) base URI, RFC 3986 §5.2.2.
    func resolving(_ reference: String) -> SchemaURI {
        let r = SchemaURI(reference)
        if r.scheme != nil {
            return SchemaURI(scheme: r.scheme, authority: r.authority, path: Self.removeDotSegments(r.path),
                             query: r.query, fragment: r.fragment)
        }
        if r.authority != nil {
            return SchemaURI(scheme: scheme, authority: r.authority, path: Self.removeDotSegments(r.path),
                             query: r.query, fragment: r.fragment)
        }
        if r.path.isEmpty {
            return SchemaURI(scheme: scheme, authority: authority, path: path, query: r.query ?? query,
                             fragment: r.fragment)
        }
        let merged: String
        if r.path.hasPrefix("/") {
            merged = r.path
        } else if authority != nil && path.isEmpty {
            merged = "/" + r.path
        } else if let slash = path.lastIndex(of: "/") {
            merged = path[...slash] + r.path
        } else {
            merged = r.path
        }
        return SchemaURI(scheme: scheme, authority: authority, path: Self.removeDotSegments(merged),
                         query: r.query, fragment: r.fragment)
    }

    /// RFC 3986 §5.2.4.
    static func removeDotSegments(_ path: String) -> String {
        guard path.contains(".") else { return path }
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (i, segment) in segments.enumerated() {
            let isLast = i == segments.count - 1
            switch segment {
            case ".":
                if isLast { output.append("") }
            case "..":
                if output.count > 1 || (output.count == 1 && !output[0].isEmpty) { output.removeLast() }
                if isLast { output.append("") }
            default:
                output.append(segment)
            }
        }
        var result = output.joined(separator: "/")
        if path.hasPrefix("/") && !result.hasPrefix("/") { result = "/" + result }
        return result
    }
}

// MARK: - JSON Pointer

enum JSONPointer {
    /// `token` escaped for a pointer (`~` → `~0`, `/` → `~1`).
    static func escape(_ token: String) -> String {
        guard token.contains(where: { $0 == "~" || $0 == "/" }) else { return token }
        return token.replacing("~", with: "~0").replacing("/", with: "~1")
    }

    /// The tokens of a pointer written in a URI fragment (percent-decoded first), or `nil` when
    /// the fragment is not a pointer.
    static func tokens(fromFragment fragment: String) -> [String]? {
        guard let decoded = percentDecoded(fragment) else { return nil }
        if decoded.isEmpty { return [] }
        guard decoded.hasPrefix("/") else { return nil }
        return decoded.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).replacing("~1", with: "/").replacing("~0", with: "~")
        }
    }

    /// `text` with `%XX` sequences decoded as UTF-8, or `nil` when they are malformed.
    static func percentDecoded(_ text: String) -> String? {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "%") {
                guard iterator.count >= 2,
                    let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(value)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
