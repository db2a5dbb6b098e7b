import CourierHTTP
import CourierJSON

/// A response as expectations and captures read it; the body is decoded as text
/// and parsed as JSON at most once each, and only when something asks.
final class ResponseView {
    let response: HTTPResponse
    let durationMilliseconds: Int
    private var parsedJSON: Result<JSONValue, JSONParseError>?
    private var decodedText: String?

    init(_ response: HTTPResponse) {
        self.response = response
        self.durationMilliseconds = response.timings.total / 1000
    }

    var status: Int { response.status }
    /// The body as text in the charset its `Content-Type` declares (see `CharsetDecoder`).
    var text: String {
        if let decodedText { return decodedText }
        let text = response.text
        decodedText = text
        return text
    }

    /// Why `json()` failed, in the words every failure message uses.
    static func notJSON(_ error: JSONParseError) -> String {
        "the response body is not JSON (\(error.message) at line \(error.line), column \(error.column))"
    }

    func json() -> Result<JSONValue, JSONParseError> {
        if let parsedJSON { return parsedJSON }
        let result: Result<JSONValue, JSONParseError>
        do {
            // JSON media types are UTF-8 (RFC 8259 §8.1) and parsed from the bytes, a UTF-8
            // BOM skipped. A body another charset or a UTF-16 BOM says is not UTF-8 (JSON
            // served as `text/plain; charset=…`) is parsed from its decoded text.
            let utf16BOM = CharsetDecoder.hasByteOrderMark(response.body[...]) && response.body.first != 0xEF
            if utf16BOM || response.charset != nil {
                result = .success(try JSONValue.parse(text))
            } else {
                result = .success(try JSONValue.parse(response.body))
            }
        } catch {
            result = .failure(error)
        }
        parsedJSON = result
        return result
    }

    /// A header's value; a header sent several times gives the list of its values.
    func header(_ name: String) -> JSONValue? {
        let values = response.headers.values(for: name)
        switch values.count {
        case 0: return nil
        case 1: return .string(values[0])
        default: return .array(values.map(JSONValue.string))
        }
    }

    /// Cookies the server set on this response or on a redirect that led to it,
    /// later ones winning.
    func cookie(_ name: String) -> String? {
        var found: String?
        let headerSets = response.redirects.map(\.headers) + [response.headers]
        for headers in headerSets {
            for line in headers.values(for: "Set-Cookie") {
                let pair = line.split(separator: ";", maxSplits: 1).first ?? ""
                guard let equals = pair.firstIndex(of: "=") else { continue }
                if pair[..<equals].trimmingCharacters(in: .whitespaces) == name {
                    found = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return found
    }

    /// The `steps.<id>` value later templates can read; `request` is what was sent.
    func stepValue(request: HTTPRequest) -> JSONValue {
        // Names as sent and in lower case, so `headers.Location` and
        // `headers['location']` both work.
        var headers: [(key: String, value: JSONValue)] = []
        for field in response.headers {
            for key in [field.name, field.name.lowercased()] where !headers.contains(where: { $0.key == key }) {
                headers.append((key, header(field.name) ?? .null))
            }
        }
        var members: [(key: String, value: JSONValue)] = [
            ("status", .number(JSONNumber(status))),
            ("headers", .object(JSONObject(headers))),
            ("body", .string(text)),
            ("duration_ms", .number(JSONNumber(durationMilliseconds))),
            // The final URL, and the one asked for (base URL joined, query appended) before any redirect.
            ("url", .string(url)),
            ("redirects", redirectList),
            ("request", .object(JSONObject([("method", .string(request.method)), ("url", .string(request.url))]))),
        ]
        if case .success(let json) = json() { members.append(("json", json)) }
        return .object(JSONObject(members))
    }
}
