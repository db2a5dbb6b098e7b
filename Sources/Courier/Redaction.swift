import CourierHTTP
import CourierSecrets
import Foundation

/// Keeps credentials out of descriptions: header fields that carry them are shown as
/// `<redacted>`, and the values the client sent in them are masked wherever they turn up
/// (a server that echoes the request back in an error body).
enum Redaction {
    static let placeholder = "<redacted>"

    /// Fields whose values are credentials: the same list `HTTPRequest`'s description uses.
    static func isSecretHeader(_ name: String) -> Bool {
        CredentialHeaderNames.contains(name)
    }

    /// The secret values in `headers`: whole values, and the token after a scheme
    /// (`Bearer abc` → also `abc`) and each cookie's value, so an echo of a part is caught.
    static func secrets(in headers: HTTPHeaders) -> [String] {
        var found: [String] = []
        for field in headers where isSecretHeader(field.name) && !field.value.isEmpty {
            found.append(field.value)
            if let space = field.value.firstIndex(of: " ") {
                found.append(String(field.value[field.value.index(after: space)...]))
            }
            for cookie in field.value.split(separator: ";") {
                if let equals = cookie.firstIndex(of: "=") {
                    found.append(String(cookie[cookie.index(after: equals)...]))
                }
            }
        }
        // Longest first, so a whole value is masked before a part of it; very short ones would mask noise.
        return found.filter { $0.count >= 4 }.sorted { $0.count > $1.count }
    }

    /// `text` with every form of each secret as `<redacted>`: the masking policy of Courier's
    /// own outputs (encoded forms, and any mix of escapes a server echoes them in).
    static func mask(_ text: String, secrets: [String]) -> String {
        guard !secrets.isEmpty else { return text }
        return MaskingPolicy(secrets: secrets.map { (value: $0, name: nil) }).mask(text, replacement: placeholder)
    }

    /// `name: value` lines with secret fields redacted.
    static func describe(_ headers: HTTPHeaders) -> String {
        headers.map { "\($0.name): \(isSecretHeader($0.name) ? placeholder : $0.value)" }.joined(separator: "\n")
    }

    /// A URL without `user:password@`.
    static func url(_ url: String) -> String { HTTPRequest.redactingUserInfo(url) }
}
