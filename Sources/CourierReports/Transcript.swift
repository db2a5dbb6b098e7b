import CourierEngine
import CourierHTTP
import CourierSecrets

/// The request and response of an attempt as text, curl `-v` style.
///
/// Credential headers show their scheme only; bodies are masked, then cut.
/// Everything else is shown as it is: the output door masks the whole text.
package enum Transcript {
    /// Bodies longer than this are cut, with a note saying how much was left out.
    package static let defaultBodyLimit = 16 * 1024

    package static func render(_ attempt: Attempt, policy: MaskingPolicy, bodyLimit: Int = defaultBodyLimit) -> String {
        var lines: [String] = []
        let request = attempt.request
        lines.append("> \(request.method) \(request.url)")
        for field in request.headers {
            lines.append("> \(field.name): \(CredentialHeaders.shown(field))")
        }
        switch request.body {
        case .none: break
        case .bytes(let bytes):
            lines.append(">")
            lines.append(bodyText(bytes, limit: bodyLimit, policy: policy))
        case .file(let path):
            lines.append(">")
            lines.append("<file \(path)>")
        case .stream:
            lines.append(">")
            lines.append("<stream>")
        case .multipart(let parts):
            lines.append(">")
            for part in parts {
                switch part.content {
                case .value(let value): lines.append("[part \(part.name)] \(value)")
                case .file(let path): lines.append("[part \(part.name)] <file \(path)>")
                case .data(let bytes): lines.append("[part \(part.name)] <\(bytes.count) bytes>")
                }
            }
        }
        lines.append("")
        if let response = attempt.response {
            for hop in response.redirects {
                lines.append("< HTTP \(hop.status) (redirect from \(hop.url))")
                if let location = hop.headers["Location"] { lines.append("< Location: \(location)") }
            }
            lines.append("< HTTP/\(response.httpVersion) \(response.status)")
            for field in response.headers {
                lines.append("< \(field.name): \(CredentialHeaders.shown(field))")
            }
            lines.append("<")
            lines.append(bodyText(response.body, charset: response.charset, limit: bodyLimit, policy: policy))
        } else if let error = attempt.error {
            lines.append("* no response: \(TransportErrorText.line(error))")
        }
        return lines.joined(separator: "\n")
    }

    /// The body as text, masked and then cut to `limit` bytes; binary bodies are
    /// described, not dumped.
    ///
    /// Masked before it is cut: a secret straddling the cut would otherwise show
    /// its first characters. Only a window of `limit` plus the longest form is
    /// read, as a form crossing the cut lies wholly inside it. A body in a declared
    /// charset (or with a byte order mark) is shown decoded: the window is taken in the
    /// body's bytes and the cut made in the text's, so the omitted count adds the body's
    /// bytes not read to the text's bytes cut. An unknown charset is named above the body.
    package static func bodyText(_ bytes: [UInt8], charset: String? = nil, limit: Int, policy: MaskingPolicy) -> String {
        if bytes.isEmpty { return "" }
        let window = bytes.prefix(limit + max(policy.longestForm, 4))
        let text: String
        let notRead: Int
        var note = ""
        if charset == nil && !CharsetDecoder.hasByteOrderMark(window) {
            // UTF-8 by default: bytes that are not UTF-8 are most likely not text at all.
            guard let utf8 = String(validating: window, as: UTF8.self) ?? validPrefix(window) else {
                return "<\(bytes.count) bytes of binary data>"
            }
            text = utf8
            notRead = bytes.count - utf8.utf8.count
        } else {
            let decoded = CharsetDecoder.decode(window, charset: charset, isPrefix: window.count < bytes.count)
            if let unknown = decoded.unknownCharset {
                note = "* unknown charset '\(unknown)': the body is shown as UTF-8\n"
            }
            text = decoded.text
            notRead = bytes.count - decoded.bytesRead
        }
        let cut = policy.maskThenCut(text, limit: limit, isPrefix: notRead > 0)
        let omitted = notRead + cut.omittedBytes
        return note + (omitted > 0 ? cut.text + "\n" + MaskedCut.text(omitted: omitted) : cut.text)
    }

    /// A cut may fall inside a UTF-8 sequence; back off to the last whole character.
    private static func validPrefix(_ bytes: ArraySlice<UInt8>) -> String? {
        for drop in 1...3 where bytes.count > drop {
            if let text = String(validating: bytes.dropLast(drop), as: UTF8.self) { return text }
        }
        return nil
    }
}
