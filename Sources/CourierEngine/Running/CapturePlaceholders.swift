import CourierResults
import CourierWorkflow

/// What captures hold when no response came back, and so which steps cannot be decided:
/// a run plan's choice (``RunPlan/placeholders()``), one per workflow run.
protocol PlaceholderPolicy: AnyObject {
    /// Why `step` is reported skipped rather than rendered, or nil to run it.
    func notRenderedReason(for step: Step) -> SkipReason?
    /// The values of `captures` for an attempt whose request was not sent.
    func values(standingInFor captures: [Capture]) -> [CapturedValue]
}

/// A real run: every capture comes from a response, and every step can be decided.
final class NoPlaceholders: PlaceholderPolicy {
    func notRenderedReason(for step: Step) -> SkipReason? { nil }
    func values(standingInFor captures: [Capture]) -> [CapturedValue] { [] }
}

/// `--dry-run` (``DryRun``): each capture holds its placeholder, and a step whose `if`,
/// `for_each` or include reads one is not rendered.
final class DryRunPlaceholders: PlaceholderPolicy {
    /// The names that hold a placeholder, and `steps`, whose values come from responses.
    private(set) var names: Set<String> = ["steps"]

    func notRenderedReason(for step: Step) -> SkipReason? {
        if let condition = step.condition, let reason = DryRun.notRenderedReason("if", condition, captures: names) {
            return reason
        }
        if case .expression(let expression)? = step.forEach,
           let reason = DryRun.notRenderedReason("for_each", expression, captures: names) {
            return reason
        }
        if case .include(let include) = step.action { return DryRun.notRenderedReason(include, captures: names) }
        return nil
    }

    func values(standingInFor captures: [Capture]) -> [CapturedValue] {
        captures.map { capture in
            names.insert(capture.name.value)
            return CapturedValue(name: capture.name.value, value: DryRun.placeholder(forCapture: capture.name.value), secret: false)
        }
    }
}
