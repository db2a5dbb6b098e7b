import CourierDiagnostics
@testable import CourierWorkflow
import Testing

/// Every predicate's declared example decodes, without a diagnostic, to that predicate: the
/// shape the decoder reads is the one the example (and `courier schema`) shows.
@Suite struct PredicateNameTests {
    @Test(arguments: PredicateDefinition.names)
    func eachExampleDecodesToItsPredicate(name: String) throws {
        let definition = try #require(PredicateDefinition.named(name))
        let yaml = "steps:\n  - request: { url: http://h/ }\n    expect:\n      body: { \(definition.shape.example) }\n"
        let sources = SourceStore()
        let workflow = try decodeWorkflow(text: yaml, path: "t.yaml", sources: sources).get()
        guard case .predicates(let predicates, _)? = workflow.steps[0].expect.body, let predicate = predicates.first else {
            Issue.record("\(name): no predicate decoded from '\(definition.shape.example)'")
            return
        }
        #expect(predicates.count == 1)
        #expect(predicate.definition === definition)
    }

    @Test func namesAreUniqueAndInSuggestionOrder() {
        #expect(Set(PredicateDefinition.names).count == PredicateDefinition.names.count)
        #expect(Array(PredicateDefinition.names.prefix(6)) == ["eq", "ne", "gt", "gte", "lt", "lte"])
        #expect(Array(PredicateDefinition.names.suffix(3)) == ["not", "all", "any"])
    }
}
