import CourierHTTP
import CourierJSON

/// `request` in a step's expectations and captures: the request the step sent, as templates
/// read it (`{{ request.json.id }}`, `{{ request.headers['X-Request-Id'] }}`).
///
/// Made from the request each time a template reads it, not for every attempt: most steps never
/// look, and building it parses the body.
enum SentRequestValue {
    static func json(of request: HTTPRequest) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("method", .string(request.method)),
            ("url", .string(request.url)),
            ("headers", headers(request.headers)),
        ]
        if case .bytes(let bytes) = request.body {
            members.append(("body", .string(String(decoding: bytes, as: UTF8.self))))
            if let parsed = try? JSONValue.parse(bytes) { members.append(("json", parsed)) }
        } else {
            // A file, a multipart form or a stream was sent without being held in memory.
            members.append(("body", .null))
        }
        return .object(JSONObject(members))
    }

    /// Each name as sent and in lower case (the evaluator finds any other spelling through the
    /// lower-case one); a header sent several times is the list of its values.
    private static func headers(_ headers: HTTPHeaders) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        for field in headers {
            for key in [field.name, field.name.lowercased()] where !members.contains(where: { $0.key == key }) {
                let values = headers.values(for: field.name)
                members.append((key, values.count == 1 ? .string(values[0]) : .array(values.map(JSONValue.string))))
            }
        }
        return .object(JSONObject(members))
    }
}
