import CourierResults

/// One attempt on the page: its retry note, the request, each redirect hop, the
/// response or transport error, the checks, and the timing bar.
extension HTMLReport {
    static func attempt(_ attempt: Attempt, number: Int, of count: Int, bodyLimit: Int, _ context: Context) -> String {
        var html = "<div class=\"attempt\">"
        var heading = count > 1 ? "attempt \(number) of \(count) · " : "request · "
        heading += duration(attempt.durationMicroseconds)
        html += "<h4>\(context.text(heading))</h4>"
        if let retry = attempt.retry {
            html += "<div class=\"retry\">\(context.text(retry.message))</div>"
        }
        if let stopped = attempt.stopped {
            html += "<div class=\"retry\">\(context.text(stopped))</div>"
        }
        html += "\n<pre>\(context.text(request(attempt.request, bodyLimit: bodyLimit, context)))</pre>\n"
        for hop in attempt.redirects {
            html += "<div class=\"hop\">redirect \(hop.status) from \(context.text(hop.url))</div>"
            var lines: [String] = []
            if let sent = hop.sent { lines += sentLines(sent) + [""] }
            lines.append("< \(hop.status)")
            lines += hop.headers.map { "< \($0.name): \(CredentialHeaders.shown($0))" }
            html += "<pre>\(context.text(lines.joined(separator: "\n")))</pre>\n"
        }
        if let response = attempt.response {
            var lines: [String] = []
            if let sent = response.sent { lines += sentLines(sent) + [""] }
            lines.append("< HTTP/\(response.httpVersion) \(response.status)")
            lines += response.headers.map { "< \($0.name): \(CredentialHeaders.shown($0))" }
            let body = Transcript.bodyText(response.body, limit: bodyLimit, policy: context.policy)
            if !body.isEmpty { lines += ["<", body] }
            html += "<pre>\(context.text(lines.joined(separator: "\n")))</pre>\n"
            html += timingBar(response, context)
        } else if let error = attempt.error {
            html += "<pre>\(context.text("* no response: \(error.kind): \(error.description)"))</pre>\n"
        }
        if !attempt.expectations.isEmpty {
            html += "<ul class=\"checks\">"
            for check in attempt.expectations {
                let line = check.failed ? check.message : "\(check.subject)" + (check.actual.map { ": \($0.rendered)" } ?? "")
                let shown = MaskedCut.cut(line, maxBytes: 200, policy: context.policy)
                html += "<li class=\"\(check.failed ? "fail" : "pass")\">\(context.text(shown))</li>"
            }
            html += "</ul>\n"
        }
        html += "</div>\n"
        return html
    }

    /// The request as Courier built it (credential headers show their scheme only).
    private static func request(_ request: RequestRecord, bodyLimit: Int, _ context: Context) -> String {
        var lines = ["> \(request.method) \(request.url)"]
        lines += request.headers.map { "> \($0.name): \(CredentialHeaders.shown($0))" }
        if let body = request.body {
            let text = body.kind == .bytes ? Transcript.bodyText(body, limit: bodyLimit, policy: context.policy) : ""
            // An empty body shows nothing here (the transcript keeps its `>` line).
            if body.kind != .bytes || !text.isEmpty { lines += Transcript.bodyLines(body, text: text) }
        }
        return lines.joined(separator: "\n")
    }

    /// A header block as libcurl sent it.
    private static func sentLines(_ sent: SentRequestRecord) -> [String] {
        ["* sent:", "> \(sent.requestLine)"] + sent.headers.map { "> \($0.name): \(CredentialHeaders.shown($0))" }
    }

    /// DNS, connect, TLS, first byte and transfer as segments of one bar, the bar
    /// as long as the request against the slowest of the run, and the same in words.
    static func timingBar(_ response: ResponseRecord, _ context: Context) -> String {
        let t = response.timings
        guard t.total > 0 else { return "" }
        // libcurl's times are each from the start: make them a non-decreasing series.
        let dns = min(t.nameLookup, t.total)
        let connect = min(max(t.connect, dns), t.total)
        let tls = t.tls > 0 ? min(max(t.tls, connect), t.total) : connect
        let firstByte = min(max(t.firstByte, tls), t.total)
        let segments: [(String, String, Int)] = [
            ("dns", "DNS", dns), ("con", "connect", connect - dns), ("tls", "TLS", tls - connect),
            ("ttfb", "first byte", firstByte - tls), ("xfer", "transfer", t.total - firstByte),
        ]
        let scale = max(context.slowest, t.total)
        let width = max(0.5, Double(t.total) * 100 / Double(scale))
        var html = "<div class=\"tb\" style=\"width:\(percent(width))\" title=\"\(duration(t.total))\">"
        for (css, _, value) in segments where value > 0 {
            html += "<i class=\"\(css)\" style=\"width:\(percent(Double(value) * 100 / Double(t.total)))\"></i>"
        }
        html += "</div><div class=\"tl\">"
        for (css, label, value) in segments {
            html += "<b class=\"\(css)\"></b>\(label) \(duration(value))"
        }
        html += " · total \(duration(t.total))"
        if t.redirect > 0 { html += " · redirects \(duration(t.redirect))" }
        if response.reusedConnection { html += " · reused connection" }
        html += "</div>\n"
        return html
    }

    private static func percent(_ value: Double) -> String {
        String(format: "%.2f%%", min(100, max(0, value)))
    }
}
