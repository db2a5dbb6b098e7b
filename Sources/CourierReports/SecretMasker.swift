import CourierHTTP
import Foundation

/// Replaces secret values by `***` in any text a report or the console shows.
///
/// Masks each secret as written and in the encoded forms it travels in:
/// base64 (Basic auth, tokens in JSON) and percent-encoding (query strings,
/// form bodies). Values shorter than ``minimumLength`` are left alone: masking
/// every `1` in a report would hide everything and protect nothing.
package struct SecretMasker: Sendable {
    package static let mask = "***"
    package static let minimumLength = 3
    /// Header fields whose values are credentials whatever the workflow says.
    package static let sensitiveHeaders = ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"]

    private let needles: [String]

    package init(secrets: some Sequence<String>) {
        var forms = Set<String>()
        for secret in secrets where secret.count >= Self.minimumLength {
            forms.insert(secret)
            forms.insert(Data(secret.utf8).base64EncodedString())
            if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) {
                forms.insert(encoded)
            }
            if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) {
                forms.insert(encoded)
            }
        }
        // Longest first, so a secret containing another is masked whole.
        needles = forms.filter { $0.count >= Self.minimumLength }.sorted { $0.count > $1.count }
    }

    package var isEmpty: Bool { needles.isEmpty }

    package func mask(_ text: String) -> String {
        guard !needles.isEmpty else { return text }
        var result = text
        for needle in needles where result.contains(needle) {
            result = result.replacingOccurrences(of: needle, with: Self.mask)
        }
        return result
    }

    /// Masks the value of every credential header, and secrets in all others.
    package func mask(_ headers: HTTPHeaders) -> HTTPHeaders {
        HTTPHeaders(headers.map { field in
            let sensitive = Self.sensitiveHeaders.contains { $0.caseInsensitiveEquals(field.name) }
            return HTTPHeaders.Field(name: field.name, value: sensitive ? Self.maskCredential(field.value) : mask(field.value))
        })
    }

    /// Keeps the scheme of `Bearer abc` / `Basic xyz` so a reader still sees which auth was used.
    private static func maskCredential(_ value: String) -> String {
        let parts = value.split(separator: " ", maxSplits: 1)
        if parts.count == 2, ["bearer", "basic", "digest", "token"].contains(parts[0].lowercased()) {
            return "\(parts[0]) \(mask)"
        }
        return mask
    }
}
