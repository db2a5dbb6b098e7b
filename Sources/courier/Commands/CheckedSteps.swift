import CourierEngine
import CourierWorkflow

/// `validate`'s ``StepSink``: keeps what the checks after loading need of each top-level
/// step (its name facts and its name for duplicate-name warnings) and lets the step go.
/// A 13,000-step file's model took several times the file's size; these take a few
/// events a step.
final class CheckedSteps: StepSink {
    private(set) var facts = NameFacts()
    private(set) var names: [DuplicateStepNames.Entry] = []

    func take(_ step: Step) {
        facts.record(step: step)
        if let entry = DuplicateStepNames.entry(for: step) { names.append(entry) }
    }

    func restart() {
        facts = NameFacts()
        names = []
    }
}
