import CourierDiagnostics
@testable import CourierWorkflow
import Testing

/// Every predicate name decodes to its own kind: a name listed but not decoded fell to a
/// `default:` that read it as a `schema` (the decoder now switches over ``PredicateName``).
@Suite struct PredicateNameTests {
    /// An operand each predicate accepts.
    static func operand(_ name: PredicateName) -> String {
        switch name {
        case .in, .notIn: return "[1, 2]"
        case .exists, .empty, .uuid, .isoDate: return "true"
        case .type: return "string"
        case .length: return "{ gt: 0 }"
        case .each, .not: return "{ gt: 0 }"
        case .schema: return "{ type: string }"
        case .matches, .notMatches: return "\"^a\""
        default: return "1"
        }
    }

    @Test(arguments: PredicateName.allCases)
    func eachNameDecodesToItsKind(name: PredicateName) throws {
        let yaml = "steps:\n  - request: { url: http://h/ }\n    expect:\n      body: { \(name.rawValue): \(Self.operand(name)) }\n"
        let workflow = try decodeWorkflow(text: yaml, path: "t.yaml", sources: SourceStore()).get()
        guard case .predicates(let predicates, _)? = workflow.steps[0].expect.body, let kind = predicates.first?.kind else {
            Issue.record("\(name.rawValue): no predicate decoded")
            return
        }
        if case .schema = kind { #expect(name == .schema, "\(name.rawValue) was decoded as a schema") }
        #expect(Predicate.names.contains(name.rawValue))
    }
}
