import CourierHTTP
import CourierJSON
import CourierWorkflow

// MARK: - Redirects and URLs, as expectations, captures and `steps.<id>` read them

extension ResponseView {
    /// The URL of the last hop, after redirects.
    var url: String { response.effectiveURL }

    /// The status, `Location` or URL of the hop at `index`; nil past the last hop and for a
    /// hop without `Location`. A query parameter is read with ``redirectQuery(_:name:)``.
    func redirect(_ index: Int, _ part: RedirectHopPart) -> JSONValue? {
        guard response.redirects.indices.contains(index) else { return nil }
        let hop = response.redirects[index]
        switch part {
        case .status: return .number(JSONNumber(hop.status))
        case .url: return .string(hop.url)
        case .location: return hop.headers["Location"].map(JSONValue.string)
        case .query: return .object(Self.query(of: hop.headers["Location"] ?? ""))
        }
    }

    /// A parameter of the decoded query of the `Location` of the hop at `index` (a list when
    /// it is repeated); nil when there is no such hop or parameter.
    func redirectQuery(_ index: Int, name: String) -> JSONValue? {
        guard response.redirects.indices.contains(index) else { return nil }
        return Self.query(of: response.redirects[index].headers["Location"] ?? "")[name]
    }

    /// Every hop as `{status, location, url, query}`, oldest first (`location` is null when
    /// the redirect had none): what `redirects: true` captures and `steps.<id>.redirects` holds.
    var redirectList: JSONValue {
        .array(response.redirects.map { hop in
            let location = hop.headers["Location"]
            return .object(JSONObject([
                ("status", .number(JSONNumber(hop.status))),
                ("location", location.map(JSONValue.string) ?? .null),
                ("url", .string(hop.url)),
                ("query", .object(Self.query(of: location ?? ""))),
            ]))
        })
    }

    /// The decoded query of a URL or a `Location` (absolute or relative): each name once, in
    /// order, its value a string, or the list of its values when it is repeated. Decoded as
    /// forms are (`+` is a space, then percent escapes; invalid UTF-8 repaired), as Tavern's
    /// `redirect_query_params` and Hurl's `queryparam` read it. The fragment is no part of it.
    static func query(of url: String) -> JSONObject {
        var withoutFragment = Substring(url)
        if let hash = withoutFragment.firstIndex(of: "#") { withoutFragment = withoutFragment[..<hash] }
        guard let question = withoutFragment.firstIndex(of: "?") else { return JSONObject([]) }
        var members: [(key: String, value: JSONValue)] = []
        for pair in withoutFragment[withoutFragment.index(after: question)...].split(separator: "&", omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: "=")
            let name = decode(pair[..<(equals ?? pair.endIndex)])
            let value = JSONValue.string(equals.map { decode(pair[pair.index(after: $0)...]) } ?? "")
            if let existing = members.firstIndex(where: { $0.key == name }) {
                if case .array(let values) = members[existing].value {
                    members[existing].value = .array(values + [value])
                } else {
                    members[existing].value = .array([members[existing].value, value])
                }
            } else {
                members.append((name, value))
            }
        }
        return JSONObject(members)
    }

    /// `a+b%20c` → `a b c`; a `%` not followed by two hex digits stays as it is.
    private static func decode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), input.count >= 2, let high = hexValue(input[input.startIndex]),
                      let low = hexValue(input[input.startIndex + 1]) {
                bytes.append(high << 4 | low)
                input = input.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
