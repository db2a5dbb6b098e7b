import Testing
@testable import CourierJSON

@Suite("JSONPath beyond the compliance suite")
struct JSONPathTests {
    let store: JSONValue = [
        "store": [
            "book": [
                ["title": "Sayings", "price": 8.95, "isbn": nil],
                ["title": "Moby Dick", "price": 8.99, "isbn": "0-553-21311-3"],
                ["title": "The Lord of the Rings", "price": 22.99],
            ],
            "bicycle": ["color": "red", "price": 19.95],
        ],
    ]

    @Test func evaluatesWithNormalizedPaths() throws {
        let nodes = try JSONPath("$.store.book[?@.price < 10].title").evaluate(store)
        #expect(nodes.map(\.value) == ["Sayings", "Moby Dick"])
        #expect(nodes.map(\.path) == ["$['store']['book'][0]['title']", "$['store']['book'][1]['title']"])
        #expect(try JSONPath("$..price").values(in: store).count == 4)
        #expect(try JSONPath("$.store.book[-1:0:-1].price").values(in: store) == [22.99, 8.99])
    }

    @Test func comparesNumbersExactly() throws {
        let document = try JSONValue.parse("[12345678901234567890, 12345678901234567891, 1.0]")
        #expect(try JSONPath("$[?@ == 12345678901234567891]").evaluate(document).map(\.path) == ["$[1]"])
        #expect(try JSONPath("$[?@ == 1]").evaluate(document).map(\.path) == ["$[2]"])
        #expect(try JSONPath("$[?@ > 12345678901234567890]").evaluate(document).map(\.path) == ["$[1]"])
    }

    @Test func escapesNamesInNormalizedPaths() throws {
        let document: JSONValue = ["it's\n\u{1}\\": 1]
        #expect(try JSONPath("$.*").evaluate(document).map(\.path) == [#"$['it\'s\n\u0001\\']"#])
    }

    @Test func rendersPathsAfterEarlierSegmentsAndAcrossBlocks() throws {
        let nodes = try JSONPath("$..book[?@.price > 9]..title").evaluate(store)
        #expect(nodes == [JSONPathNode(path: "$['store']['book'][2]['title']", value: "The Lord of the Rings")])
        var copy = nodes[0]
        copy.path = "$"
        #expect(copy.path == "$" && copy != nodes[0])

        // Paths outgrow one 64 KiB block of shared text; a very long name gets its own.
        let long = String(repeating: "k", count: 20_000)
        let document: JSONValue = .array((0..<5_000).map { i in let item: JSONValue = .array([.number(JSONNumber(i))]); return i == 2_500 ? [long: item] : ["k": item] })
        let found = try JSONPath("$..[0]").evaluate(document)
        #expect(found.count == 5_001)
        #expect(found.map(\.path) == ["$[0]"] + (0..<5_000).map { "$[\($0)]['\($0 == 2_500 ? long : "k")'][0]" })
    }

    struct Invalid: Sendable, CustomStringConvertible {
        var query: String
        var offset: Int
        var message: String
        var description: String { query }
    }

    @Test(arguments: [
        Invalid(query: "", offset: 0, message: "empty query"),
        Invalid(query: "a.b", offset: 0, message: "must start with '$'"),
        Invalid(query: "$.a[?]", offset: 5, message: "unexpected character ']'"),
        Invalid(query: "$.a ", offset: 3, message: "after the query"),
        Invalid(query: "$[01]", offset: 2, message: "leading zeros"),
        Invalid(query: "$[-0]", offset: 2, message: "'-0'"),
        Invalid(query: "$[9007199254740992]", offset: 2, message: "outside the range"),
        Invalid(query: "$['a'", offset: 5, message: "unterminated bracketed selection"),
        Invalid(query: "$[?@.a == @.*]", offset: 10, message: "non-singular query cannot be compared"),
        Invalid(query: "$[?length(@.a)]", offset: 3, message: "returns a value"),
        Invalid(query: "$[?count(1) > 0]", offset: 9, message: "'count' expects a query"),
        Invalid(query: "$[?foo(@)]", offset: 3, message: "unknown function 'foo'"),
        Invalid(query: "$[?match(@.a)]", offset: 3, message: "takes 2 arguments"),
        Invalid(query: "$[?1]", offset: 3, message: "literal cannot be used as a test"),
        Invalid(query: "$[?(@.a]", offset: 7, message: "expected ')'"),
        Invalid(query: "$['\\x']", offset: 3, message: "invalid escape"),
        Invalid(query: "$.é[?@ == 'ü' &&]", offset: 16, message: "unexpected character ']'"),
    ])
    func reportsInvalidQueriesWithOffsets(_ sample: Invalid) {
        do {
            _ = try JSONPath(sample.query)
            Issue.record("accepted \(sample.query)")
        } catch {
            #expect(error.offset == sample.offset, "\(error)")
            #expect(error.message.contains(sample.message), "\(error)")
        }
    }

    @Test func rejectsDeeplyNestedExpressionsInsteadOfOverflowingTheStack() throws {
        let deep = "$[?" + String(repeating: "(", count: 100_000) + "@" + String(repeating: ")", count: 100_000) + "]"
        #expect(throws: JSONPathError.self) { try JSONPath(deep) }
        let nestedFilters = "$" + String(repeating: "[?@", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONPathError.self) { try JSONPath(nestedFilters) }
        let fine = "$[?" + String(repeating: "(", count: 50) + "@.a" + String(repeating: ")", count: 50) + "]"
        #expect(try JSONPath(fine).values(in: [["a": 1], ["b": 2]]) == [["a": 1]])
        #expect(IRegexp.translate(String(repeating: "(", count: 100_000) + String(repeating: ")", count: 100_000)) == nil)
    }

    // MARK: - I-Regexp

    @Test(arguments: [
        ("a.c", #"a[^\n\r]c"#),
        ("[a-z]+", "[a-z]+"),
        (#"\p{Lu}\P{L}"#, #"\p{Lu}\P{L}"#),
        ("a&b c", #"a\u{26}b\u{20}c"#),
        ("(ab|cd){2,3}", #"(?:ab|cd){2,3}"#),
        (#"[\^\-\]]"#, #"[\u{5e}\u{2d}\u{5d}]"#),
        ("^ab$", #"^ab$"#),
    ])
    func translatesIRegexp(_ pattern: String, _ expected: String) {
        #expect(IRegexp.translate(pattern) == expected)
    }

    @Test(arguments: [#"\d"#, "a*?", "(?:a)", #"\1"#, "[]", "[a-]b]", "a{3,2}", #"\p{IsBasicLatin}"#, "(a", "a)", "[b-a]", #"\w"#])
    func rejectsNonIRegexpSyntax(_ pattern: String) {
        #expect(IRegexp.translate(pattern) == nil)
    }

    @Test func matchAndSearchFollowRFC9485() throws {
        let document: JSONValue = ["a\nb", "axb", "été", "ab", "Ω1"]
        #expect(try JSONPath("$[?match(@, 'a.b')]").values(in: document) == ["axb"])
        #expect(try JSONPath("$[?search(@, 'b')]").values(in: document) == ["a\nb", "axb", "ab"])
        #expect(try JSONPath("$[?match(@, '\\\\p{Ll}+')]").values(in: document) == ["axb", "été", "ab"])
        #expect(try JSONPath("$[?match(@, '\\\\p{Lu}[0-9]')]").values(in: document) == ["Ω1"])
        // Not an I-Regexp: false for every node rather than an error.
        #expect(try JSONPath("$[?match(@, '\\\\d')]").values(in: document) == [])
    }
}
