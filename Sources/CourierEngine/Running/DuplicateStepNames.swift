import CourierDiagnostics
import CourierWorkflow

/// Steps of one workflow that would be reported under the same name: a warning at
/// each later one, saying what reports will call it (`GET /health (2)`, spec section 12).
///
/// Only names known before the run: a step without `name:` (its `METHOD url` is shown as
/// written) or with a `name:` without templates. An include's steps, and names filled in
/// at run time, are numbered by the runner all the same; they are just not predicted here.
package enum DuplicateStepNames {
    /// What the check needs of one step: its name known before the run, and where it is.
    package struct Entry: Sendable {
        let name: String
        /// `for_each` runs are reported `name [1]`…: they meet only other `for_each` steps.
        let key: String
        let range: SourceRange
    }

    /// The step's entry, or nil when its name is known only at run time.
    package static func entry(for step: Step) -> Entry? {
        guard let name = staticName(of: step) else { return nil }
        return Entry(name: name, key: step.forEach == nil ? name : name + " [·]", range: step.range)
    }

    package static func check(_ workflow: Workflow) -> [Diagnostic] {
        check((workflow.setup + workflow.steps + workflow.teardown).compactMap(entry))
    }

    /// Entries in run order (setup, steps, teardown).
    package static func check(_ entries: [Entry]) -> [Diagnostic] {
        var first: [String: Entry] = [:]
        var count: [String: Int] = [:]
        var diagnostics: [Diagnostic] = []
        for entry in entries {
            count[entry.key, default: 0] += 1
            guard let earlier = first[entry.key] else {
                first[entry.key] = entry
                continue
            }
            let numbered = StepNaming.numbered(entry.name, occurrence: count[entry.key] ?? 1)
            diagnostics.append(.warning(
                "another step is named '\(entry.name)' (line \(earlier.range.start.line)); reports call this one '\(numbered)'",
                at: entry.range,
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
