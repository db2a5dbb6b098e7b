import CourierJSON
@testable import CourierWorkflow
import Testing

/// `matches`/`not_matches` patterns without templates are compiled once when the workflow
/// loads and kept in the model; the checker never re-parses them per evaluation.
@Suite struct MatchesPatternDecodingTests {
    @Test func literalPatternsAreCompiledTemplatedOnesWaitForTheirValues() throws {
        let yaml = """
        vars: { p: "^a" }
        steps:
          - request: { url: /x }
            expect:
              body: { matches: "^ok\\\\d+$", not_matches: "{{ p }}" }
        """
        guard case .success(let workflow) = decode(yaml) else {
            Issue.record("does not decode")
            return
        }
        guard case .predicates(let predicates, _)? = workflow.steps[0].expect.body, predicates.count == 2 else {
            Issue.record("expected two predicates")
            return
        }
        guard predicates[0].name == "matches", case .regex(_, let literal) = predicates[0].operand,
              predicates[1].name == "not_matches", case .regex(_, let templated) = predicates[1].operand else {
            Issue.record("expected matches and not_matches")
            return
        }
        #expect(literal?.source == "^ok\\d+$")
        #expect(try literal?.matches("ok42") == true)
        #expect(templated == nil)
    }
}
