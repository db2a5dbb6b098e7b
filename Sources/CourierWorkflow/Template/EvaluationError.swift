import CourierDiagnostics

/// Why an expression or template could not be evaluated.
package struct EvaluationError: Error, Sendable {
    package enum Kind: Sendable {
        /// A name, member, index or environment variable that does not exist.
        /// `default(…)` catches these and only these.
        case undefined
        /// A value of the wrong type for an operator, filter or function.
        case type
        /// Anything else that is the workflow's fault (bad base64, `int` of "abc").
        case invalid
    }

    package var kind: Kind
    package var message: String
    package var range: SourceRange?

    package init(_ kind: Kind, _ message: String, at range: SourceRange?) {
        self.kind = kind
        self.message = message
        self.range = range
    }
}
