import CourierHTTP
import CourierJSON
import CourierWorkflow
import Foundation

/// A response as expectations and captures read it; the body is decoded as text
/// and parsed as JSON at most once each, and only when something asks.
final class ResponseView {
    let response: HTTPResponse
    let durationMilliseconds: Int
    private var parsedJSON: Result<JSONValue, JSONParseError>?
    private var decodedText: String?
    /// `bytes:` views made so far: a digest checked and captured is computed once.
    private var bytesViews: [BytesKey: JSONValue] = [:]

    private struct BytesKey: Hashable {
        let view: BytesView
        let bytes: BodyBytes
    }

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

    /// The body's bytes: after Content-Encoding is undone, or as received (the same bytes
    /// when nothing was undone).
    func bytes(_ which: BodyBytes) -> [UInt8] {
        switch which {
        case .decoded: response.body
        case .raw: response.encodedBody ?? response.body
        }
    }

    /// A view of the body's bytes (`bytes: { sha256: … }`), made once per view.
    func bytesValue(_ view: BytesView, _ which: BodyBytes) -> JSONValue {
        let key = BytesKey(view: view, bytes: which)
        if let known = bytesViews[key] { return known }
        let bytes = bytes(which)
        let value: JSONValue = switch view {
        case .length: .number(JSONNumber(bytes.count))
        case .sha256: .string(SHA256.hexDigest(bytes))
        case .md5: .string(MD5.hexDigest(bytes))
        case .hex: .string(HexText.encode(bytes))
        case .base64: .string(Data(bytes).base64EncodedString())
        // Compared whole, never as a value (see `ExpectationChecker.compare`): its size stands in.
        case .content: .number(JSONNumber(bytes.count))
        }
        bytesViews[key] = value
        return value
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

    /// A cookie's value, set on this response or on a redirect that led to it.
    func cookie(_ name: String) -> String? { setCookie(name)?.value }

    /// The `Set-Cookie` line that set cookie `name` on this response or on a redirect that led
    /// to it, later ones winning.
    func setCookie(_ name: String) -> SetCookieLine? {
        var found: SetCookieLine?
        let headerSets = response.redirects.map(\.headers) + [response.headers]
        for headers in headerSets {
            for field in headers.values(for: "Set-Cookie") {
                if let line = SetCookieLine(field), line.name == name { found = line }
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
            // As `request` reads it in the step's own checks: one shape in both places.
            ("request", SentRequestValue.json(of: request)),
        ]
        if case .success(let json) = json() { members.append(("json", json)) }
        return .object(JSONObject(members))
    }
}
