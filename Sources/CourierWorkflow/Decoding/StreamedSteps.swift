/// Receives a workflow's top-level steps one at a time, as soon as each is decoded, instead
/// of their being kept in ``Workflow/steps`` (`validate` checks each and lets it go).
package protocol StepSink: AnyObject {
    /// One decoded step of `steps:`, in file order (a step that failed to decode is not given).
    func take(_ step: Step)
    /// Forgets every step taken: the file is being read again and they will come again.
    func restart()
}

/// Decodes the items of `steps:` while the YAML reader completes them, so each step's tree
/// is freed before the next is read (``YAMLStepStream``). The decoded steps are kept for
/// the workflow, or handed to a ``StepSink``.
final class StreamedSteps: YAMLStepStream {
    /// What the stream took: how many items, and the steps kept (none with a sink).
    struct Taken {
        var count = 0
        var kept: [Step] = []
    }

    private(set) var decoder: WorkflowDecoder
    private let makeDecoder: () -> WorkflowDecoder
    private let sink: (any StepSink)?
    private(set) var taken = Taken()

    init(sink: (any StepSink)?, makeDecoder: @escaping () -> WorkflowDecoder) {
        self.makeDecoder = makeDecoder
        self.sink = sink
        decoder = makeDecoder()
    }

    func step(_ node: YAMLNode, mayBeAliased: Bool) {
        decoder.remembersNodes = mayBeAliased
        defer { decoder.remembersNodes = true }
        taken.count += 1
        guard let step = decoder.step(node) else { return }
        if let sink { sink.take(step) } else { taken.kept.append(step) }
    }

    func restart() {
        // The decoder's diagnostics and step ids belong to the first reading.
        decoder = makeDecoder()
        taken = Taken()
        sink?.restart()
    }
}
