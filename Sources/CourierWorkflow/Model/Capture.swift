import CourierDiagnostics
import CourierJSON

/// One `capture:` entry (spec section 8).
package struct Capture: Sendable {
    package var name: Located<String>
    package var source: CaptureSource
    /// Absent (nil) means "capturing nothing fails the step"; an explicit
    /// `default: null` is a ``TemplateValue`` of kind `.null`.
    package var defaultValue: TemplateValue?
    package var secret: Bool
    /// `expect:`: what the value found in the response must match (a `default` that stands in
    /// for nothing is not checked: "optional, but when there, valid").
    package var expect: Matcher?
    package var range: SourceRange

    package init(name: Located<String>, source: CaptureSource, defaultValue: TemplateValue?, secret: Bool,
                 expect: Matcher? = nil, range: SourceRange) {
        self.name = name
        self.source = source
        self.defaultValue = defaultValue
        self.secret = secret
        self.expect = expect
        self.range = range
    }
}

package enum CaptureSource: Sendable {
    /// A JSONPath query (also the `name: $.path` shorthand), compiled at load.
    case json(JSONQuery)
    case header(String)
    case cookie(String)
    /// The first capture group of `pattern` (the whole match when it has none), compiled at load.
    case regex(Located<RegexPattern>, from: RegexSubject)
    case status
    case body
    /// The response time in milliseconds.
    case duration
    /// The body's length, a digest, hex or base64 (`bytes: sha256`), decoded or as
    /// received (`raw: true`); never ``BytesView/content``.
    case bytes(BytesView, BodyBytes)
    /// The final URL, after redirects.
    case url
    /// Every redirect hop followed, oldest first, each `{status, location, url, query}`.
    case redirects
}

/// Where a `regex` capture looks: the body, one header (`from: header Location`), or one
/// JSON value (`regex: { json: $.message, pattern: … }`, a singular query).
package enum RegexSubject: Sendable {
    case body
    case header(String)
    case json(JSONQuery)
}
