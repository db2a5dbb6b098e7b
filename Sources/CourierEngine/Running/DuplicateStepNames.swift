import CourierDiagnostics
import CourierWorkflow

/// Steps of one workflow that would be reported under the same name: a warning at
/// each later one, saying what reports will call it (`GET /health (2)`, spec section 12).
///
/// Only names known before the run: a step without `name:` (its `METHOD url` is shown as
/// written) or with a `name:` without templates. An include's steps, and names filled in
/// at run time, are numbered by the runner all the same; they are just not predicted here.
package enum DuplicateStepNames {
    package static func check(_ workflow: Workflow) -> [Diagnostic] {
        var first: [String: Step] = [:]
        var count: [String: Int] = [:]
        var diagnostics: [Diagnostic] = []
        for step in workflow.setup + workflow.steps + workflow.teardown {
            guard let name = staticName(of: step) else { continue }
            // `for_each` runs are reported `name [1]`…: they meet only other `for_each` steps.
            let key = step.forEach == nil ? name : name + " [·]"
            count[key, default: 0] += 1
            guard let earlier = first[key] else {
                first[key] = step
                continue
            }
            let numbered = StepNaming.numbered(name, occurrence: count[key] ?? 1)
            diagnostics.append(.warning(
                "another step is named '\(name)' (line \(earlier.range.start.line)); reports call this one '\(numbered)'",
                at: step.range,
                notes: [.note("give it a 'name:' of its own", at: nil)]))
        }
        return diagnostics
    }

    private static func staticName(of step: Step) -> String? {
        if let name = step.name { return name.literalText }
        guard case .request = step.action else { return nil }
        return StepNaming.name(of: step)
    }
}
