import CourierDiagnostics

/// Any YAML value whose strings may hold templates: `json:` bodies, `vars:`,
/// expectation operands, capture defaults.
///
/// Numbers keep their YAML text (`1.50` stays `"1.50"`; hex and octal are
/// normalised to decimal) and whether they are integers; object key order is kept.
package struct TemplateValue: Sendable {
    package indirect enum Kind: Sendable {
        case null
        case bool(Bool)
        case number(String, isInteger: Bool)
        case string(Template)
        case array([TemplateValue])
        case object([(key: String, value: TemplateValue)])
    }

    package var kind: Kind
    package var range: SourceRange

    package init(_ kind: Kind, range: SourceRange) {
        self.kind = kind
        self.range = range
    }

    /// The string's template, if this is a string.
    package var template: Template? {
        if case .string(let t) = kind { return t }
        return nil
    }
}
