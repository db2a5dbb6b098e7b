import CourierWorkflow

/// A template written back as text, `{{ }}` included, for names of steps that
/// did not run (their variables may not exist).
enum TemplateSource {
    static func text(of template: Template) -> String {
        let parts = template.parts
        // One literal, what most URLs and names are: its text as it is (every step's
        // name is made from its URL; a list of parts joined cost two arrays per step).
        if parts.count == 1, case .literal(let text) = parts[0] { return text }
        var text = ""
        for part in parts {
            switch part {
            case .literal(let literal): text += literal
            case .expression(let expression, _): text += "{{ \(ExpressionEvaluator.sourceName(expression)) }}"
            }
        }
        return text
    }
}
