import CourierJSON
import CourierWorkflow
import Foundation

/// One `Set-Cookie` field split into its pair and attributes (RFC 6265 §5.2), for
/// `expect.cookies` and cookie captures; libcurl's jar keeps what it stores, not what was sent.
struct SetCookieLine {
    let name: String
    let value: String
    /// Attribute names as sent with their values (nil for `Secure`, `HttpOnly`), in order.
    let attributes: [(name: String, value: String?)]

    /// Nil for a field without `=` in its first part, which sets no cookie (RFC 6265 §5.2 step 2).
    init?(_ field: String) {
        var parts = field.split(separator: ";", omittingEmptySubsequences: false)[...]
        guard let pair = parts.popFirst(), let equals = pair.firstIndex(of: "=") else { return nil }
        name = pair[..<equals].trimmingCharacters(in: .whitespaces)
        value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        attributes = parts.compactMap { part in
            let text = part.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { return nil }
            guard let equals = text.firstIndex(of: "=") else { return (text, nil) }
            return (text[..<equals].trimmingCharacters(in: .whitespaces), text[text.index(after: equals)...].trimmingCharacters(in: .whitespaces))
        }
    }

    /// What `attribute` reads: the value and `Path`, `Domain`, `Expires`, `SameSite` as text,
    /// `Max-Age` as a number when it is one, `Secure` and `HttpOnly` as whether they are there.
    /// Nil for an attribute with a value that the line does not have. The last one counts when
    /// an attribute is sent twice, as RFC 6265 §5.3 reads it.
    func read(_ attribute: CookieAttribute) -> JSONValue? {
        guard let wanted = attribute.setCookieName else { return .string(value) }
        let found = attributes.last { $0.name.caseInsensitiveCompare(wanted) == .orderedSame }
        if attribute.isFlag { return .bool(found != nil) }
        guard let text = found?.value else { return nil }
        if attribute == .maxAge, let seconds = Int(text) { return .number(JSONNumber(seconds)) }
        return .string(text)
    }
}
