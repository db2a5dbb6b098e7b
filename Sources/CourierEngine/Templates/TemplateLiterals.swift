import CourierWorkflow

/// The string literals quoted inside a template value's expressions.
///
/// A secret computed from quoted text (`"{{ 'n0tANumb3r' | int }}"`,
/// `"{{ env.PIN | default('0000-fallback') }}"`) is that text in disguise, and
/// the text shows up when the computation fails (the source line under the error)
/// or in a form the result does not cover. Literal text around the expressions
/// (`"Bearer {{ t }}"`) is not returned: it is framing, not the secret.
enum TemplateLiterals {
    static func quotedStrings(in value: TemplateValue) -> [String] {
        var found: [String] = []
        var values = [value]
        var expressions: [Expression] = []
        // Stacks, not recursion: values and expressions may be nested hundreds deep.
        while let value = values.popLast() {
            switch value.kind {
            case .null, .bool, .number: break
            case .string(let template):
                for part in template.parts {
                    switch part {
                    case .literal: break
                    case .expression(let expression, _): expressions.append(expression)
                    }
                }
            case .array(let items): values += items
            case .object(let pairs): values += pairs.map(\.value)
            }
        }
        while let expression = expressions.popLast() {
            switch expression.kind {
            case .string(let text): found.append(text)
            case .variable, .number, .bool, .null: break
            case .member(let base, _): expressions.append(base)
            case .index(let base, let index): expressions += [base, index]
            case .call(_, let arguments): expressions += arguments
            case .filter(let base, _, let arguments): expressions += [base] + arguments
            case .binary(_, let lhs, let rhs): expressions += [lhs, rhs]
            case .not(let operand): expressions.append(operand)
            }
        }
        return found
    }
}
