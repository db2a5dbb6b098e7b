import CourierJSON
import CourierResults
import CourierSecrets

/// The request and response of an attempt as text, curl `-v` style.
///
/// Credential headers show their scheme only; bodies were masked and cut when
/// recorded and are masked and cut again to this transcript's limit. Everything
/// else is shown as it is: the caller masks the whole transcript, as one text (the
/// console's door; a report's renderer, before escaping it as one value).
package enum Transcript {
    /// Bodies longer than this are cut, with a note saying how much was left out.
    package static let defaultBodyLimit = 16 * 1024

    /// `verbose` (`-v`): the header blocks libcurl actually sent where they were
    /// recorded (its `User-Agent`, `Accept-Encoding`, `Cookie` from the jar) and
    /// whole JSON bodies pretty-printed.
    package static func render(_ attempt: Attempt, policy: MaskingPolicy, bodyLimit: Int = defaultBodyLimit,
                               verbose: Bool = false) -> String {
        var lines: [String] = []
        let request = attempt.request
        lines.append("> \(request.method) \(request.url)")
        // The first hop's block as sent, when recorded; else the headers Courier set.
        let firstSent = verbose ? (attempt.redirects.first?.sent ?? attempt.response?.sent) : nil
        for field in firstSent?.headers ?? request.headers {
            lines.append("> \(field.name): \(CredentialHeaders.shown(field))")
        }
        if let body = request.body {
            lines += bodyLines(body, text: bodyText(body, limit: bodyLimit, policy: policy, pretty: verbose))
        }
        lines.append("")
        if let response = attempt.response {
            for (index, hop) in attempt.redirects.enumerated() {
                lines.append("< HTTP \(hop.status) (redirect from \(hop.url))")
                if let location = hop.headers.first(named: "Location") { lines.append("< Location: \(location)") }
                // What was sent to the next hop (the first hop's block is shown above).
                let next = index + 1 < attempt.redirects.count ? attempt.redirects[index + 1].sent : response.sent
                if verbose, let next {
                    lines.append("> \(next.requestLine)")
                    for field in next.headers { lines.append("> \(field.name): \(CredentialHeaders.shown(field))") }
                }
            }
            lines.append("< HTTP/\(response.httpVersion) \(response.status)")
            for field in response.headers {
                lines.append("< \(field.name): \(CredentialHeaders.shown(field))")
            }
            lines.append("<")
            lines.append(bodyText(response.body, limit: bodyLimit, policy: policy, pretty: verbose))
        } else if let error = attempt.error {
            lines.append("* no response: \(error.description)")
        }
        // Why no attempt followed (`abort_if` held): part of the exchange wherever it is shown.
        if let stopped = attempt.stopped { lines.append("* \(stopped)") }
        return lines.joined(separator: "\n")
    }

    /// A request body after its headers: `>`, then its text (`text`, for bytes), `<file …>`,
    /// `<stream>` or one line per multipart part.
    package static func bodyLines(_ body: BodyRecord, text: @autoclosure () -> String) -> [String] {
        switch body.kind {
        case .bytes: return [">", text()]
        case .file: return [">", "<file \(body.file ?? "")>"]
        case .stream: return [">", "<stream>"]
        case .multipart:
            return [">"] + body.parts.map { part in
                if let value = part.value { return "[part \(part.name)] \(value)" }
                if let file = part.file { return "[part \(part.name)] <file \(file)>" }
                return "[part \(part.name)] <\(part.bytes ?? 0) bytes>"
            }
        }
    }

    /// The recorded body's text, masked again and cut to `limit` bytes; binary bodies
    /// are described, not dumped. What the recording already cut is counted in the
    /// "N more bytes" note, so the count is always the body's real remainder.
    /// `pretty`: a whole body that is JSON is indented (a cut one is shown as it came).
    package static func bodyText(_ body: BodyRecord, limit: Int, policy: MaskingPolicy, pretty: Bool = false) -> String {
        if body.totalBytes == 0 && body.text.isEmpty { return "" }
        if body.binary { return "<\(body.totalBytes) bytes of binary data>" }
        let note = body.unknownCharset.map { "* unknown charset '\($0)': the body is shown as UTF-8\n" } ?? ""
        var text = body.text
        if pretty, body.omittedBytes == 0, let first = text.utf8.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }),
           first == UInt8(ascii: "{") || first == UInt8(ascii: "["), let value = try? JSONValue.parse(text) {
            // Masked after, like every text: the policy sees the indented form whole.
            text = value.serialized(pretty: true)
        }
        let cut = policy.maskThenCut(text, limit: limit, isPrefix: body.omittedBytes > 0)
        let omitted = body.omittedBytes + cut.omittedBytes
        return note + (omitted > 0 ? cut.text + "\n" + MaskedCut.text(omitted: omitted) : cut.text)
    }
}
