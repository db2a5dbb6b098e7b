import Testing
@testable import CourierJSON

/// The one rule for what a query gives as a value (issue 10 §1, RFC 9535 §2.3.5.1): a singular
/// query gives its node's value or nothing; any other query always gives a list.
@Suite("Nodelist shape")
struct NodelistShapeTests {
    /// Items with 0, 1 and 3 members under `none`, `one` and `many`.
    let document: JSONValue = [
        "none": [],
        "one": [["id": 7, "tag": "a"]],
        "many": [["id": 1, "tag": "a"], ["id": 2, "tag": "b"], ["id": 3, "tag": "a"]],
        "name": "mug",
    ]

    struct Case: Sendable, CustomTestStringConvertible {
        var form: String
        /// The query with `LIST` standing for `none`, `one` or `many`.
        var query: String
        /// What it gives on `none`, `one`, `many`.
        var results: [JSONValue]
        var testDescription: String { "\(form): \(query)" }
    }

    static let nonSingular: [Case] = [
        Case(form: "wildcard", query: "$.LIST[*].id", results: [[], [7], [1, 2, 3]]),
        Case(form: "slice", query: "$.LIST[0:5].id", results: [[], [7], [1, 2, 3]]),
        Case(form: "filter", query: "$.LIST[?@.id > 0].id", results: [[], [7], [1, 2, 3]]),
        Case(form: "descendant", query: "$.LIST..id", results: [[], [7], [1, 2, 3]]),
        Case(form: "union", query: "$.LIST[0,1].id", results: [[], [7], [1, 2]]),
        Case(form: "union of names", query: "$.LIST[0]['id','nope']", results: [[], [7], [1]]),
        Case(form: "wildcard after a singular prefix", query: "$.LIST[0].*", results: [[], [7, "a"], [1, "a"]]),
    ]

    @Test(arguments: nonSingular)
    func nonSingularQueriesAlwaysGiveAList(_ c: Case) throws {
        for (list, expected) in zip(["none", "one", "many"], c.results) {
            let query = try JSONPath(c.query.replacingOccurrences(of: "LIST", with: list))
            #expect(!query.isSingular)
            #expect(try query.result(in: document) == expected, "\(query) on '\(list)'")
        }
    }

    @Test(arguments: [
        ("$.name", JSONValue.string("mug")),
        ("$['name']", "mug"),
        ("$.one[0].id", 7),
        ("$.many[-1].id", 3),
        ("$", nil),  // replaced below by the whole document
    ] as [(String, JSONValue?)])
    func singularQueriesGiveTheValue(_ text: String, _ expected: JSONValue?) throws {
        let query = try JSONPath(text)
        #expect(query.isSingular)
        #expect(try query.result(in: document) == (expected ?? document))
    }

    @Test(arguments: ["$.nope", "$['nope']", "$.none[0]", "$.one[1].id", "$.name.length", "$.many[0].id.x", "$.name[0]"])
    func singularQueriesWithoutAMatchGiveNothing(_ text: String) throws {
        let query = try JSONPath(text)
        #expect(query.isSingular)
        #expect(try query.result(in: document) == nil)
    }

    /// RFC 9535 §2.3.5.1: only name and index segments, one selector each, no descendants.
    @Test(arguments: [
        ("$", true), ("$.a", true), ("$['a']", true), ("$[0]", true), ("$.a[-1]['b'].c", true),
        ("$.*", false), ("$[*]", false), ("$[0:1]", false), ("$[?@]", false), ("$..a", false),
        ("$..[0]", false), ("$[0,1]", false), ("$['a','b']", false), ("$['a','a']", false), ("$.a[0].b[*]", false),
    ])
    func singularIsTheRFCsSyntacticDefinition(_ text: String, _ singular: Bool) throws {
        #expect(try JSONPath(text).isSingular == singular)
    }

    @Test func shapeOfSelectedValues() {
        #expect(JSONPath.shape([], singular: true) == nil)
        #expect(JSONPath.shape([1], singular: true) == 1)
        #expect(JSONPath.shape([], singular: false) == [])
        #expect(JSONPath.shape([1], singular: false) == [1])
        #expect(JSONPath.shape([1, 2], singular: false) == [1, 2])
    }
}
