import CourierEngine
import CourierHTTP

/// The request and response of an attempt as text, curl `-v` style, with secrets masked.
package enum Transcript {
    /// Bodies longer than this are cut, with a note saying how much was left out.
    package static let defaultBodyLimit = 16 * 1024

    package static func render(_ attempt: Attempt, masker: SecretMasker, bodyLimit: Int = defaultBodyLimit) -> String {
        var lines: [String] = []
        let request = attempt.request
        lines.append("> \(request.method) \(masker.mask(request.url))")
        for field in masker.mask(request.headers) {
            lines.append("> \(field.name): \(field.value)")
        }
        switch request.body {
        case .none: break
        case .bytes(let bytes):
            lines.append(">")
            lines.append(masker.mask(bodyText(bytes, limit: bodyLimit)))
        case .file(let path):
            lines.append(">")
            lines.append("<file \(path)>")
        case .multipart(let parts):
            lines.append(">")
            for part in parts {
                switch part.content {
                case .value(let value): lines.append("[part \(part.name)] \(masker.mask(value))")
                case .file(let path): lines.append("[part \(part.name)] <file \(path)>")
                case .data(let bytes): lines.append("[part \(part.name)] <\(bytes.count) bytes>")
                }
            }
        }
        lines.append("")
        if let response = attempt.response {
            for hop in response.redirects {
                lines.append("< HTTP \(hop.status) (redirect from \(masker.mask(hop.url)))")
                if let location = hop.headers["Location"] { lines.append("< Location: \(masker.mask(location))") }
            }
            lines.append("< HTTP/\(response.httpVersion) \(response.status)")
            for field in masker.mask(response.headers) {
                lines.append("< \(field.name): \(field.value)")
            }
            lines.append("<")
            lines.append(masker.mask(bodyText(response.body, limit: bodyLimit)))
        } else if let error = attempt.error {
            lines.append("* no response: \(masker.mask(error.description))")
        }
        return lines.joined(separator: "\n")
    }

    /// The body as text; binary bodies are described, not dumped.
    package static func bodyText(_ bytes: [UInt8], limit: Int) -> String {
        if bytes.isEmpty { return "" }
        let shown = bytes.prefix(limit)
        guard let text = String(validating: shown, as: UTF8.self) ?? validPrefix(shown) else {
            return "<\(bytes.count) bytes of binary data>"
        }
        return bytes.count > limit ? text + "\n… (\(bytes.count - limit) more bytes)" : text
    }

    /// A cut may fall inside a UTF-8 sequence; back off to the last whole character.
    private static func validPrefix(_ bytes: ArraySlice<UInt8>) -> String? {
        for drop in 1...3 where bytes.count > drop {
            if let text = String(validating: bytes.dropLast(drop), as: UTF8.self) { return text }
        }
        return nil
    }
}
