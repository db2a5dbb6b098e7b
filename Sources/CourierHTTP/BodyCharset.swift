/// The charset a body's text is in, as its `Content-Type` declares it.
///
/// `nil` means UTF-8: no `charset` parameter, a JSON media type (RFC 8259 §8.1: JSON
/// exchanged between systems is UTF-8, and `application/json` defines no charset
/// parameter), or a binary media type whose bytes are not text in any charset.
public enum BodyCharset {
    /// The declared charset label (`"iso-8859-1"`, `"Shift_JIS"`), or nil for UTF-8.
    public static func declared(byContentType contentType: String?) -> String? {
        // Most types name no charset: a byte scan for the word before any splitting or
        // lowercasing (this runs for every response recorded and checked).
        guard let contentType, mentionsCharset(contentType) else { return nil }
        let parameters = contentType.split(separator: ";", omittingEmptySubsequences: false)
        guard let first = parameters.first else { return nil }
        let mediaType = first.trimmingCharacters(in: .whitespaces).lowercased()
        if isJSON(mediaType) || isBinary(mediaType) { return nil }
        for parameter in parameters.dropFirst() {
            guard let equals = parameter.firstIndex(of: "=") else { continue }
            let name = parameter[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            guard name == "charset" else { continue }
            var value = parameter[parameter.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            if value.isEmpty || isUTF8(value) { return nil }
            return value
        }
        return nil
    }

    /// Whether `charset` appears anywhere in `contentType`, in any case.
    static func mentionsCharset(_ contentType: String) -> Bool {
        // Over the string's own bytes: copying them into arrays first cost more than the scan.
        var contentType = contentType
        return contentType.withUTF8 { bytes in
            let word: StaticString = "charset"
            let count = word.utf8CodeUnitCount
            guard bytes.count >= count else { return false }
            let letters = UnsafeBufferPointer(start: word.utf8Start, count: count)
            search: for start in 0...(bytes.count - count) {
                for offset in 0..<count where bytes[start + offset] | 0x20 != letters[offset] { continue search }
                return true
            }
            return false
        }
    }

    static func isUTF8(_ label: String) -> Bool {
        let lower = label.lowercased()
        return lower == "utf-8" || lower == "utf8" || lower == "unicode-1-1-utf-8"
    }

    /// `application/json`, `application/problem+json`, `application/vnd.api+json`.
    static func isJSON(_ mediaType: String) -> Bool {
        mediaType == "application/json" || mediaType.hasSuffix("+json")
    }

    /// Media types whose bytes are never text: a charset on them is ignored, and they are
    /// read (and shown) as before, UTF-8 when they happen to be, described as binary otherwise.
    static func isBinary(_ mediaType: String) -> Bool {
        (mediaType.hasPrefix("image/") && !mediaType.hasSuffix("+xml")) || mediaType.hasPrefix("audio/") || mediaType.hasPrefix("video/")
            || mediaType.hasPrefix("font/") || mediaType == "application/octet-stream"
    }
}
