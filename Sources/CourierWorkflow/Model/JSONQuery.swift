import CourierDiagnostics
import CourierJSON

/// A JSONPath written in a workflow (an `expect.json` key, a `json:` capture), compiled when
/// the workflow loads: an invalid one is an error before anything is sent.
///
/// Templates in it (`"$.errors[{{ index }}].id"`) are values, never syntax: `path` holds a
/// place for each, and the engine substitutes their values when the step runs
/// (``JSONPath/substituting(_:)``), so whether the query is singular is known now.
package struct JSONQuery: Sendable {
    /// The query as written, templates included.
    package var text: String
    package var path: JSONPath
    /// One single-expression template per value of `path`, in order.
    package var templates: [Template]
    /// The key or scalar it was written at.
    package var range: SourceRange

    package init(text: String, path: JSONPath, templates: [Template] = [], range: SourceRange) {
        self.text = text
        self.path = path
        self.templates = templates
        self.range = range
    }

    /// Singular queries (only names and indexes) give a value or nothing; others give a list.
    package var isSingular: Bool { path.isSingular }
}
