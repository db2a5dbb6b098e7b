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
    package var range: SourceRange

    package init(name: Located<String>, source: CaptureSource, defaultValue: TemplateValue?, secret: Bool, range: SourceRange) {
        self.name = name
        self.source = source
        self.defaultValue = defaultValue
        self.secret = secret
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
    /// The final URL, after redirects.
    case url
    /// Every redirect hop followed, oldest first, each `{status, location, url, query}`.
    case redirects
}

/// Where a `regex` capture looks: the body, or one header (`from: header Location`).
package enum RegexSubject: Sendable, Hashable {
    case body
    case header(String)
}
