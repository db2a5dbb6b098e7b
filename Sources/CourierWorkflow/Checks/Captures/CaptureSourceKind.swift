import CourierDiagnostics
import CourierJSON
import Foundation

/// One source a `capture:` entry can read (spec section 8): its shape and its decoding,
/// declared together in ``CaptureSourceKind/all``. The engine reads each ``CaptureSource``
/// case from the response; the name checker walks the cases.
package final class CaptureSourceKind: Sendable {
    package let shape: CheckShape
    /// Keys besides the source's own that only this source reads (`from` for `regex`).
    package let modifiers: [String]
    /// The source `value` (this key's value) names; `entry` is the whole capture mapping.
    let decode: @Sendable (_ decoder: WorkflowDecoder, _ value: YAMLNode, _ entry: WorkflowDecoder.Fields) -> CaptureSource?

    init(_ shape: CheckShape, modifiers: [String] = [],
         decode: @escaping @Sendable (WorkflowDecoder, YAMLNode, WorkflowDecoder.Fields) -> CaptureSource?) {
        self.shape = shape
        self.modifiers = modifiers
        self.decode = decode
    }
}

extension CaptureSourceKind {
    /// Every source, in the order "needs a source: one of …" lists them.
    package static let all: [CaptureSourceKind] = [json, header, cookie, regex, status, body, bytes, duration, url, redirects]

    package static let keys: [String] = all.map(\.shape.key)

    /// The keys only some sources read.
    static let modifierKeys: [String] = all.flatMap(\.modifiers)

    static let json = CaptureSourceKind(
        CheckShape(key: "json", operand: .value, description: "The value a JSONPath gives in the JSON body (a list when it is not singular).",
                   example: "json: $.access_token")
    ) { decoder, value, _ in
        decoder.captureQuery(value).map(CaptureSource.json)
    }

    static let header = CaptureSourceKind(
        CheckShape(key: "header", operand: .value, description: "A response header by name (any case).", example: "header: Location")
    ) { decoder, value, _ in
        decoder.string(value, for: "header").map { .header($0.value) }
    }

    static let cookie = CaptureSourceKind(
        CheckShape(key: "cookie", operand: .value, description: "A cookie the response sets, by name.", example: "cookie: session")
    ) { decoder, value, _ in
        decoder.string(value, for: "cookie").map { .cookie($0.value) }
    }

    static let regex = CaptureSourceKind(
        CheckShape(key: "regex", operand: .regex,
                   description: "The first group of a regular expression (the whole match without groups), in the body, "
                       + "with `from: header NAME` in a header, or, written `{ json: $.path, pattern: … }`, in one JSON value.",
                   example: "regex: \"id=(\\\\d+)\""),
        modifiers: ["from"]
    ) { decoder, value, entry in
        // `regex: { json: $.message, pattern: '…' }`: the pattern and the one value it reads.
        if case .mapping = value.kind {
            if let from = entry.key("from") {
                decoder.error("'from' does not go with a 'regex' mapping; name what it reads inside it ('json' or 'header')", at: from.range)
            }
            return decoder.regexCapture(mapping: value)
        }
        guard let pattern = decoder.string(value, for: "regex"), let compiled = decoder.capturePattern(pattern, value) else { return nil }
        let subject = entry["from"].map(decoder.regexSubject) ?? .body
        return subject.map { .regex(Located(compiled, range: pattern.range), from: $0) }
    }

    static let bytes = CaptureSourceKind(
        CheckShape(key: "bytes", operand: .choice(capturedViews.map(\.key)),
                   description: "A view of the body's bytes: its length, SHA-256 or MD5 digest (hex), hex or base64; "
                       + "with `raw: true`, of the bytes as received, before Content-Encoding is undone.",
                   example: "bytes: sha256"),
        modifiers: ["raw"]
    ) { decoder, value, entry in
        guard let word = decoder.string(value, for: "bytes") else { return nil }
        guard let view = capturedViews.first(where: { $0.key == word.value }) else {
            let keys = capturedViews.map(\.key)
            let hint = suggestion(for: word.value, among: keys).map { "did you mean '\($0)'?" }
                ?? "valid views are " + keys.map { "'\($0)'" }.joined(separator: ", ")
            decoder.error("unknown bytes view '\(word.value)' for a capture; \(hint)", at: value.range)
            return nil
        }
        return .bytes(view, decoder.bodyBytes(entry["raw"]))
    }

    /// What a `bytes` capture can read: a value, not the bytes whole.
    private static let capturedViews = BytesView.allCases.filter { $0 != .content }

    static let status = flag("status", .status, "The status code.")
    static let body = flag("body", .body, "The body as text.")
    static let duration = flag("duration", .duration, "The response time in milliseconds.")
    static let url = flag("url", .url, "The final URL, after redirects.")
    static let redirects = flag("redirects", .redirects,
                                "The redirects followed, oldest first: a list of `{status, location, url, query}` (the query decoded).")

    /// `status: true`: a source with nothing to choose.
    private static func flag(_ key: String, _ source: CaptureSource, _ description: String) -> CaptureSourceKind {
        CaptureSourceKind(CheckShape(key: key, operand: .flag, description: description, example: "\(key): true")) { decoder, value, _ in
            guard let flag = decoder.bool(value, for: key) else { return nil }
            guard flag else {
                decoder.error("'\(key): false' captures nothing; write '\(key): true' or remove the capture", at: value.range)
                return nil
            }
            return source
        }
    }
}
