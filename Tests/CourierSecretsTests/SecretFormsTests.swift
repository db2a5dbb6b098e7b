@testable import CourierSecrets
import Foundation
import Testing

/// Every form a secret travels in is derived, so masking finds it in every output.
@Suite struct SecretFormsTests {
    /// ≥ 24 bytes with a quote, a backslash-free JSON special, URL and XML specials,
    /// non-ASCII, a newline and every RFC 3986 unreserved punctuation.
    static let canary = "C@n4ry \"pass\" word+/&<ü\nline2-._~"

    var forms: [String] { SecretForms.forms(of: Self.canary) }

    @Test("the plain value comes first, NFC and NFD both present")
    func plainAndNormalizations() {
        #expect(forms.first == Self.canary)
        let nfd = Self.canary.decomposedStringWithCanonicalMapping
        #expect(Array(nfd.utf8) != Array(Self.canary.utf8))
        #expect(forms.contains { Array($0.utf8) == Array(nfd.utf8) })
    }

    @Test("escapes of escapes: a JSON body echoed inside a JSON string, and both inside Courier's XML")
    func nestedEscapes() throws {
        // What an echo server writes for a request body `{"k": <canary>}` (Python's json.dumps
        // of the raw body, ASCII-only and not), and that line inside a JUnit report.
        let body = #"{"k":"C@n4ry \"pass\" word+/&<ü\nline2-._~"}"#
        for asciiOnly in [false, true] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .withoutEscapingSlashes
            var echoed = String(decoding: try encoder.encode(body), as: UTF8.self)
            if asciiOnly { echoed = echoed.replacingOccurrences(of: "ü", with: "\\u00fc") }
            let masked = MaskingPolicy(secrets: [(value: Self.canary, name: nil)]).mask(echoed)
            #expect(!masked.contains("C@n4ry"), "\(masked)")
            let inXML = MaskingPolicy(secrets: [(value: Self.canary, name: nil)]).mask(echoed.replacingOccurrences(of: "&", with: "&amp;")
                .replacingOccurrences(of: "<", with: "&lt;"))
            #expect(!inXML.contains("C@n4ry"), "\(inXML)")
        }
        // A value with nothing to escape gets no extra forms.
        #expect(SecretForms.nestedForms("plainToken123").isEmpty)
    }

    @Test("base64: standard, URL-safe, padded and not, and the three alignment cores")
    func base64() {
        let standard = Data(Self.canary.utf8).base64EncodedString()
        #expect(forms.contains(standard))
        #expect(forms.contains(String(standard.prefix { $0 != "=" })))
        #expect(forms.contains(standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")))
        // Inside `user:` + secret, as libcurl builds Basic credentials, at every offset.
        for prefix in ["", "a", "ab", "abc", "user:", "ad:"] {
            let encoded = Data((prefix + Self.canary + "tail").utf8).base64EncodedString()
            #expect(forms.contains { $0.utf8.count >= 20 && encoded.contains($0) }, "no base64 core found behind '\(prefix)'")
        }
    }

    @Test("percent-encoding: RFC 3986 unreserved, encodeURIComponent, form + for space, all but alphanumerics, upper and lower hex")
    func percent() {
        let unreservedUpper = "C%40n4ry%20%22pass%22%20word%2B%2F%26%3C%C3%BC%0Aline2-._~"
        #expect(forms.contains(unreservedUpper))
        #expect(forms.contains(unreservedUpper.replacingOccurrences(of: "%C3%BC", with: "%c3%bc")
            .replacingOccurrences(of: "%2B", with: "%2b").replacingOccurrences(of: "%2F", with: "%2f")
            .replacingOccurrences(of: "%3C", with: "%3c").replacingOccurrences(of: "%0A", with: "%0a")))
        #expect(forms.contains("C%40n4ry+%22pass%22+word%2B%2F%26%3C%C3%BC%0Aline2-._%7E"))  // form, WHATWG
        #expect(forms.contains("C%40n4ry%20%22pass%22%20word%2B%2F%26%3C%C3%BC%0Aline2%2D%2E%5F%7E"))  // all but alphanumerics
        #expect(Self.canary.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed).map(forms.contains) == true)
        #expect(forms.contains("p%40ss%20word-1") == false)
        #expect(SecretForms.forms(of: "p@ss word-1").contains("p%40ss%20word-1"))
        #expect(SecretForms.forms(of: "p@ss word-1").contains("p%40ss+word-1"))
    }

    @Test("JSON: escapes, with and without \\uXXXX for non-ASCII, \\/ and surrogate pairs")
    func json() throws {
        #expect(forms.contains(#"C@n4ry \"pass\" word+/&<ü\nline2-._~"#))
        #expect(forms.contains(#"C@n4ry \"pass\" word+\/&<ü\nline2-._~"#))
        #expect(forms.contains(#"C@n4ry \"pass\" word+/&<\u00fc\nline2-._~"#))
        #expect(forms.contains(#"C@n4ry \"pass\" word+/&<\u00FC\nline2-._~"#))
        // What an ASCII-only JSON encoder writes.
        let encoded = String(decoding: try JSONEncoder().encode(Self.canary), as: UTF8.self).dropFirst().dropLast()
        #expect(forms.contains(String(encoded)), "JSONEncoder wrote \(encoded)")
        #expect(SecretForms.forms(of: "key🔑value").contains(#"key\ud83d\udd11value"#))
    }

    @Test("XML/HTML: &amp; &lt; &gt; &quot;, apostrophe entities, numeric entities, JUnit attribute escaping")
    func markup() {
        #expect(forms.contains("C@n4ry &quot;pass&quot; word+/&amp;&lt;ü\nline2-._~"))
        #expect(forms.contains("C@n4ry &quot;pass&quot; word+/&amp;&lt;ü&#10;line2-._~"))  // Courier's attribute escaping
        #expect(forms.contains("C@n4ry &#34;pass&#34; word+/&amp;&lt;&#252;\nline2-._~"))
        #expect(forms.contains("C@n4ry \"pass\" word+/&amp;&lt;&#xFC;\nline2-._~"))
        let apostrophe = SecretForms.forms(of: "it's-a-secret")
        for entity in ["&apos;", "&#39;", "&#039;", "&#x27;"] {
            #expect(apostrophe.contains("it\(entity)s-a-secret"))
        }
    }

    @Test("shell: single-quoted with '\\'', double-quoted, backslash-escaped")
    func shell() {
        let forms = SecretForms.forms(of: "it's $HOME \"x\"")
        #expect(forms.contains(#"it'\''s $HOME "x""#))
        #expect(forms.contains(#"it's \$HOME \"x\""#))
        #expect(forms.contains(#"it\'s\ \$HOME\ \"x\""#))
    }

    @Test("hex of the UTF-8 bytes, lower and upper case")
    func hex() {
        let bytes = Array(Self.canary.utf8)
        #expect(forms.contains(bytes.map { String(format: "%02x", $0) }.joined()))
        #expect(forms.contains(bytes.map { String(format: "%02X", $0) }.joined()))
    }

    @Test("a value shorter than 4 characters yields its plain form only; an empty one nothing")
    func short() {
        #expect(SecretForms.forms(of: "abc") == ["abc"])
        #expect(SecretForms.forms(of: "x") == ["x"])
        #expect(SecretForms.forms(of: "") == [])
        #expect(SecretForms.forms(of: "abcd").count > 1)
        // No derived form is shorter than the minimum.
        #expect(SecretForms.forms(of: "abcd").allSatisfy { $0.utf8.count >= SecretForms.minimumFormBytes })
    }
}
