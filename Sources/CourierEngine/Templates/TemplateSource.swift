import CourierWorkflow

/// A template written back as text, `{{ }}` included, for names of steps that
/// did not run (their variables may not exist).
enum TemplateSource {
    static func text(of template: Template) -> String {
        template.parts.map { part in
            switch part {
            case .literal(let text): text
            case .expression(let expression, _): "{{ \(ExpressionEvaluator.sourceName(expression)) }}"
            }
        }.joined()
    }
}
