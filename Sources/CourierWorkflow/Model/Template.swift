import CourierDiagnostics

/// A string with `{{ expr }}` holes (spec section 9).
///
/// A template that is exactly one `{{ expr }}` (``singleExpression``) keeps
/// the value's type when rendered, so `id: "{{ user_id }}"` stays a number
/// inside `json:`.
package struct Template: Sendable {
    package enum Part: Sendable {
        case literal(String)
        case expression(Expression, SourceRange)
    }

    package var parts: [Part]
    package var range: SourceRange

    package init(parts: [Part], range: SourceRange) {
        self.parts = parts
        self.range = range
    }

    /// A template of fixed text.
    package init(literal: String, range: SourceRange) {
        self.parts = literal.isEmpty ? [] : [.literal(literal)]
        self.range = range
    }

    /// The expression when the whole string is one `{{ expr }}` (surrounding blanks excluded).
    package var singleExpression: Expression? {
        var found: Expression?
        for part in parts {
            switch part {
            case .literal(let text):
                if !text.allSatisfy(\.isWhitespace) { return nil }
            case .expression(let e, _):
                if found != nil { return nil }
                found = e
            }
        }
        return found
    }

    /// The text when there are no expressions at all.
    package var literalText: String? {
        var text = ""
        for part in parts {
            guard case .literal(let s) = part else { return nil }
            text += s
        }
        return text
    }
}
