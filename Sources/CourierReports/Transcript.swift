import CourierResults
import CourierSecrets

/// The request and response of an attempt as text, curl `-v` style.
///
/// Credential headers show their scheme only; bodies were masked and cut when
/// recorded and are masked and cut again to this transcript's limit. Everything
/// else is shown as it is: the output door masks the whole text.
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
        if let body = request.body {
            switch body.kind {
            case .bytes:
                lines.append(">")
                lines.append(bodyText(body, limit: bodyLimit, policy: policy))
            case .file:
                lines.append(">")
                lines.append("<file \(body.file ?? "")>")
            case .stream:
                lines.append(">")
                lines.append("<stream>")
            case .multipart:
                lines.append(">")
                for part in body.parts {
                    if let value = part.value {
                        lines.append("[part \(part.name)] \(value)")
                    } else if let file = part.file {
                        lines.append("[part \(part.name)] <file \(file)>")
                    } else {
                        lines.append("[part \(part.name)] <\(part.bytes ?? 0) bytes>")
                    }
                }
            }
        }
        lines.append("")
        if let response = attempt.response {
            for hop in attempt.redirects {
                lines.append("< HTTP \(hop.status) (redirect from \(hop.url))")
                if let location = hop.headers.first(named: "Location") { lines.append("< Location: \(location)") }
            }
            lines.append("< HTTP/\(response.httpVersion) \(response.status)")
            for field in response.headers {
                lines.append("< \(field.name): \(CredentialHeaders.shown(field))")
            }
            lines.append("<")
            lines.append(bodyText(response.body, limit: bodyLimit, policy: policy))
        } else if let error = attempt.error {
            lines.append("* no response: \(error.description)")
        }
        return lines.joined(separator: "\n")
    }

    /// The recorded body's text, masked again and cut to `limit` bytes; binary bodies
    /// are described, not dumped. What the recording already cut is counted in the
    /// "N more bytes" note, so the count is always the body's real remainder.
    package static func bodyText(_ body: BodyRecord, limit: Int, policy: MaskingPolicy) -> String {
        if body.totalBytes == 0 && body.text.isEmpty { return "" }
        if body.binary { return "<\(body.totalBytes) bytes of binary data>" }
        let note = body.unknownCharset.map { "* unknown charset '\($0)': the body is shown as UTF-8\n" } ?? ""
        let cut = policy.maskThenCut(body.text, limit: limit, isPrefix: body.omittedBytes > 0)
        let omitted = body.omittedBytes + cut.omittedBytes
        return note + (omitted > 0 ? cut.text + "\n" + MaskedCut.text(omitted: omitted) : cut.text)
    }
}
