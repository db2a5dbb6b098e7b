import CourierWorkflow

/// A step's name as written, without evaluating anything: its `name`, or
/// `METHOD url` (the spec's default), templates shown as `{{ … }}`; and the rule
/// that makes names unique in a workflow's reports (`GET /health (2)`).
package enum StepNaming {
    package static func name(of step: Step) -> String {
        if let name = step.name { return TemplateSource.text(of: name) }
        switch step.action {
        case .request(let request):
            let method = request.method.literalText?.uppercased() ?? TemplateSource.text(of: request.method)
            return "\(method.isEmpty ? "GET" : method) \(TemplateSource.text(of: request.url))"
        case .include(let include):
            return "include \(TemplateSource.text(of: include.path))"
        }
    }

    /// The name of the `occurrence`-th entry of the same name (1-based): the first keeps
    /// it, the second is `name (2)`, then `(3)`… A second login run's entries (spec
    /// section 9) and a second step of the same name in one workflow (section 12) are
    /// numbered alike, so a CI that keeps one test case per name keeps every one.
    package static func numbered(_ name: String, occurrence: Int) -> String {
        occurrence > 1 ? "\(name) (\(occurrence))" : name
    }
}
