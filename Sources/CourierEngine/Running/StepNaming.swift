import CourierWorkflow

/// A step's name as written, without evaluating anything: its `name`, or
/// `METHOD url` (the spec's default), templates shown as `{{ … }}`.
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
}
