import CourierDiagnostics
@testable import CourierWorkflow
import Testing

/// Top-level steps are decoded while the file is read (``StreamedSteps``), and `validate`
/// checks them from recorded facts without keeping them (a ``StepSink``).
@Suite("streamed steps")
struct StreamedStepsTests {
    private final class Collecting: StepSink {
        var urls: [String] = []
        var facts = NameFacts()
        var restarts = 0
        func take(_ step: Step) {
            if case .request(let request) = step.action { urls.append(request.url.literalText ?? "{{…}}") }
            facts.record(step: step)
        }
        func restart() {
            urls = []
            facts = NameFacts()
            restarts += 1
        }
    }

    private func load(_ text: String, sink: (any StepSink)? = nil) -> Result<Workflow, DiagnosticList> {
        let sources = SourceStore()
        sources.register(path: "w.yaml", text: text)
        return loadWorkflow(path: "w.yaml", sources: sources, options: LoadOptions(resolveFiles: false), stepSink: sink)
    }

    /// A duplicate key in the third step makes libyaml read the file (for its words and
    /// positions): whatever the fast reader streamed first is taken back (restart), and each
    /// step reaches the sink once.
    @Test func aFileReadAgainIsStreamedOnceFromTheStart() throws {
        let text = """
        steps:
          - request: { url: http://127.0.0.1/1 }
          - request: { url: http://127.0.0.1/2 }
          - request: { url: http://127.0.0.1/3, url: http://127.0.0.1/x }
          - request: { url: http://127.0.0.1/4 }
        """
        let sink = Collecting()
        guard case .failure(let list) = load(text, sink: sink) else {
            Issue.record("a duplicate key must fail the load")
            return
        }
        #expect(list.diagnostics.map(\.message) == ["duplicate key 'url'; each key may appear once in a mapping"])
        #expect(sink.urls == ["http://127.0.0.1/1", "http://127.0.0.1/2", "http://127.0.0.1/3", "http://127.0.0.1/4"])
        #expect(sink.restarts <= 1)
    }

    @Test func withoutASinkTheStreamedStepsAreKeptInOrder() throws {
        let steps = try load("steps:\n  - request: { url: http://127.0.0.1/1 }\n  - request: { url: http://127.0.0.1/2 }\n").get().steps
        #expect(steps.compactMap { step -> String? in
            guard case .request(let request) = step.action else { return nil }
            return request.url.literalText
        } == ["http://127.0.0.1/1", "http://127.0.0.1/2"])
    }

    /// An anchor in one step, aliased by a later one: both decode to the same template.
    @Test func anAliasReachingIntoAnEarlierStreamedStepDecodes() throws {
        let text = """
        steps:
          - request: { url: &u "http://127.0.0.1/{{ id }}" }
            capture: { id: $.id }
          - request: { url: *u }
        """
        let steps = try load("vars: { id: 1 }\n" + text).get().steps
        #expect(steps.count == 2)
        let urls = steps.compactMap { step -> String? in
            guard case .request(let request) = step.action else { return nil }
            return request.url.parts.count.description
        }
        #expect(urls == ["2", "2"])
    }

    /// The name check from streamed facts finds what the check of the whole model finds.
    @Test func factsRecordedWhileStreamingCheckLikeTheWholeModel() throws {
        let text = """
        vars: { base: http://127.0.0.1 }
        setup:
          - request: { url: "{{ base }}/setup" }
            capture: { early: $.x }
        steps:
          - request: { url: "{{ base }}/{{ later }}" }
          - request: { url: "{{ bsae }}/a" }
            capture: { later: $.y }
          - request: { url: "{{ early }}/{{ nowhere }}" }
            for_each: [1, 2]
          - if: "{{ item }}"
            request: { url: "{{ base }}/b" }
        """
        let sink = Collecting()
        let streamed = try load(text, sink: sink).get()
        var facts = sink.facts
        facts.recordOutline(of: streamed)
        let whole = try load(text).get()
        let fromFacts = VariableChecker.check(facts, externalNames: []).map(\.description)
        let fromModel = VariableChecker.check(whole, externalNames: []).map(\.description)
        #expect(fromFacts == fromModel)
        #expect(fromFacts.count == 4)
    }

    @Test func eachOnceKeepsTheFirstOfEqualDiagnosticsAndEveryDistinctOne() {
        let at = SourceRange(at: SourceLocation(file: "w.yaml", line: 1, column: 1))
        let a = Diagnostic.warning("a", at: at)
        let b = Diagnostic.warning("b", at: at)
        #expect(DiagnosticList.eachOnce([a, b, a, b, a]) == [a, b])
    }
}
