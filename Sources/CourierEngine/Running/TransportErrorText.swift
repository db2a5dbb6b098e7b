import CourierHTTP
import CourierResults

/// How a transport error reads in Courier's output: `CourierHTTP` words its errors
/// neutrally, and this names the settings the way workflows and the command line
/// spell them (`'connect_timeout'`, `'tls.ca' or --cacert`, `--max-body-size`).
package enum TransportErrorText {
    /// The message and hint a step that failed with `error` reports.
    package static func describe(_ error: HTTPError) -> (message: String, hint: String?) {
        var text = error.text(naming: name(of:))
        if text.hint == nil, error.path != nil {
            text.hint = pathHint(for: error)
        }
        return text
    }

    /// One line for transcripts: message, curl code and hint, like `HTTPError.description`.
    package static func line(_ error: HTTPError) -> String {
        let text = describe(error)
        var line = text.message
        if error.curlCode != 0 { line += " (curl error \(error.curlCode))" }
        if let hint = text.hint { line += "; \(hint)" }
        return line
    }

    /// The workflow key (and flag, where there is one) for a setting.
    package static func name(of setting: HTTPSetting) -> String? {
        switch setting {
        case .caFile: "'tls.ca' or --cacert"
        case .clientCertificate: "'tls.cert' or --cert"
        case .clientKey: "'tls.key' or --key"
        case .password: "'tls.password'"
        case .pinnedKey: "'tls.pinned_key'"
        case .insecure: "'tls.insecure: true'"
        case .connectTimeout: "'connect_timeout'"
        case .timeout: "'timeout'"
        case .proxy: "'proxy' or --proxy"
        case .maxRedirects: "'max_redirects'"
        case .noFollowRedirects: "'follow_redirects: false'"
        case .maxResponseBytes: "--max-body-size"
        case .notCompressed: "'compressed: false'"
        case .http1_1: "'http_version: 1.1'"
        case .bodyFile: "'body_file'"
        case .multipartFile: "the part's 'file'"
        }
    }

    /// Where a relative path of a file that cannot be read starts.
    private static func pathHint(for error: HTTPError) -> String? {
        switch (error.kind, error.curlOption) {
        case (.tls, _):
            "relative paths in a workflow start at the workflow's folder; on the command line, at the current directory"
        case (.fileUnreadable, "CURLOPT_READDATA"):
            "check 'body_file'; a relative path starts at the workflow's folder"
        case (.fileUnreadable, "CURLOPT_MIMEPOST"):
            "check the part's 'file'; a relative path starts at the workflow's folder"
        default:
            nil
        }
    }
}

extension StepError.Kind {
    /// A failed transfer's kind: a cancelled one is the engine's own `cancelled` (a signal or
    /// `--fail-fast` stopped it), any other is named as the HTTP client names it.
    init(_ kind: HTTPError.Kind) {
        self = kind == .cancelled ? .cancelled : .transfer(kind.description)
    }
}
