import CourierDiagnostics
@testable import CourierWorkflow
import Testing

/// `all` and `any` take a non-empty list of values or predicate maps; each problem is a load
/// error at its file:line:col. And `type:`'s words, `float` and `collection` among them.
@Suite struct CombinatorDecodingTests {
    private func problems(_ check: String, under key: String = "json:\n        $.a") -> [String] {
        let yaml = "steps:\n  - request: { url: http://h/ }\n    expect:\n      \(key): \(check)\n"
        switch decodeWorkflow(text: yaml, path: "t.yaml", sources: SourceStore()) {
        case .success: return []
        case .failure(let list): return list.diagnostics.map(\.description)
        }
    }

    @Test(arguments: [
        "{ all: [{ gt: 0 }, { lt: 10 }] }",
        "{ any: [1, 2, { type: string }] }",
        "{ all: [{ kind: x }, { length: 1 }] }",
        "{ any: [{ all: [{ gt: 0 }] }, { not: { any: [3] } }] }",
        "{ any: [\"{{ x }}\", { eq: \"{{ x }}\" }] }",
        "{ all: [{ type: float }, { type: integer }] }",
        "{ type: collection }",
    ])
    func wellFormedOperandsDecode(_ check: String) {
        let yaml = "vars: { x: 1 }\nsteps:\n  - request: { url: http://h/ }\n    expect:\n      json:\n        $.a: \(check)\n"
        #expect(throws: Never.self) { try decodeWorkflow(text: yaml, path: "t.yaml", sources: SourceStore()).get() }
    }

    @Test func everyPredicateMapAcceptsThem() {
        #expect(problems("{ X: { all: [{ contains: a }, { not: b }] } }", under: "headers") == [])
        #expect(problems("{ any: [200, { gte: 300, lt: 400 }] }", under: "status") == [])
        #expect(problems("{ all: [{ contains: ok }] }", under: "body") == [])
        #expect(problems("{ s: { any: [a, b] } }", under: "cookies") == [])
        #expect(problems("{ any: [{ lt: 500ms }, { lt: 1s }] }", under: "duration") == [])
        #expect(problems("[{ status: { any: [301, 302] }, location: { all: [{ starts_with: / }, { contains: next }] } }]", under: "redirects") == [])
        #expect(problems("{ any: [0, { gte: 2 }] }", under: "redirects") == [])
        #expect(problems("{ session: { path: { any: [/, /app] }, max_age: { all: [{ gt: 0 }, { lt: 99999 }] } } }", under: "cookies") == [])
        #expect(problems("{ any: [\"1.1\", \"2\"] }", under: "http_version") == [])
        #expect(problems("{ length: { all: [{ gt: 0 }, { lt: 100 }] } }", under: "bytes") == [])
        let capture = "steps:\n  - request: { url: http://h/ }\n    capture:\n      n: { json: $.n, expect: { all: [{ gt: 0 }, { not: { any: [5, 7] } }] } }\n"
        #expect(throws: Never.self) { try decodeWorkflow(text: capture, path: "t.yaml", sources: SourceStore()).get() }
    }

    @Test(arguments: [
        ("{ all: { gt: 0 } }", "t.yaml:5:21: error: expected a sequence of values or predicate maps for 'all', found a mapping"),
        ("{ any: 3 }", "t.yaml:5:21: error: expected a sequence of values or predicate maps for 'any', found a number"),
        ("{ all: [] }", "t.yaml:5:21: error: 'all' needs at least one value or predicate map"),
        ("{ alll: [{ gt: 0 }] }", "t.yaml:5:16: error: unknown predicate 'alll'; did you mean 'all'?"),
        ("{ ayn: [1] }", "t.yaml:5:16: error: unknown predicate 'ayn'; did you mean 'any'?"),
        ("{ anyy: [1] }", "t.yaml:5:16: error: unknown predicate 'anyy'; did you mean 'any'?"),
        ("{ any: [1, { gtt: 0 }] }", "t.yaml:5:27: error: unknown predicate 'gtt'; did you mean 'gt'?"),
        ("{ all: [{ matches: \"(\" }] }", nil),
        ("{ type: flot }", "t.yaml:5:22: error: invalid value 'flot' for 'type'; did you mean 'float'?"),
        ("{ type: colection }", "t.yaml:5:22: error: invalid value 'colection' for 'type'; did you mean 'collection'?"),
    ] as [(String, String?)])
    func aBadOperandIsALoadError(check: String, message: String?) {
        let found = problems(check)
        if let message {
            #expect(found == [message])
        } else {
            #expect(found.count == 1 && found[0].hasPrefix("t.yaml:5:33: error: invalid regular expression '(' for 'matches'"), "\(found)")
        }
    }

    /// Two letters are too few for a did-you-mean (the shared rule: `ne` is not a typo of `eq`);
    /// the error lists the predicates, the combinators last. Under `json:` such a mapping is an
    /// object to compare, as before.
    @Test func anUnknownPredicateListsTheCombinators() {
        let found = problems("{ al: [{ contains: a }] }", under: "body")
        #expect(found.count == 1 && found[0].hasPrefix("t.yaml:4:15: error: unknown predicate 'al'; valid predicates are eq, ne,"), "\(found)")
        #expect(found.first?.hasSuffix("uuid, iso_date, jwt, not, all, any") == true, "\(found)")
        #expect(problems("{ al: [{ gt: 0 }] }") == [])
    }

    /// A non-singular query always gives a list: `type: float` is warned, `type: collection`
    /// (which a list is, like `array`) is not.
    @Test(arguments: [("float", true), ("collection", false), ("array", false)])
    func typeOnANonSingularQuery(type: String, isWarned: Bool) throws {
        let yaml = "steps:\n  - request: { url: http://h/ }\n    expect:\n      json:\n        $.a[*]: { type: \(type) }\n"
        let workflow = try decodeWorkflow(text: yaml, path: "t.yaml", sources: SourceStore()).get()
        #expect(workflow.warnings.map(\.message).contains { $0.hasPrefix("'type' checks a single value") } == isWarned)
    }
}
