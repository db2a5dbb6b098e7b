import Testing
@testable import CourierJSON

/// Queries whose values come later (templates in workflow keys, issue 10 §3): a value is
/// always a value, never syntax, and the query's shape is fixed before it is known.
@Suite("JSONPath with values")
struct JSONPathValuesTests {
    let document: JSONValue = [
        "errors": [["id": "error1"], ["id": "error2"]],
        "items": [["id": 1, "name": "mug"], ["id": 2, "name": "it's"]],
        "it's]": "tricky",
        "*": "star",
    ]

    /// `$.errors[•].id` and the like from a text with `•` for each value.
    func query(_ text: String) throws(JSONPathError) -> JSONPath {
        var pieces: [JSONPathPiece] = []
        for (i, part) in text.split(separator: "•", omittingEmptySubsequences: false).enumerated() {
            if i > 0 { pieces.append(.value) }
            if !part.isEmpty { pieces.append(.text(String(part))) }
        }
        return try JSONPath(pieces: pieces)
    }

    @Test func aNumberBecomesAnIndex() throws {
        let path = try query("$.errors[•].id").substituting([1])
        #expect(path.text == "$.errors[1].id")
        #expect(try path.result(in: document) == "error2")
        #expect(path.isSingular)
    }

    @Test func aStringBecomesAQuotedNameThatCannotBreakOut() throws {
        let path = try query("$[•]").substituting(["it's]"])
        #expect(path.text == #"$['it\'s]']"#)
        #expect(try path.result(in: document) == "tricky")
        // The text parses back to the same query.
        #expect(try JSONPath(path.text).result(in: document) == "tricky")
    }

    @Test func aStringCannotBecomeAWildcard() throws {
        let path = try query("$[•]").substituting(["*"])
        #expect(path.isSingular)
        #expect(try path.result(in: document) == "star")
        #expect(try query("$.items[•].id").substituting(["*"]).result(in: document) == nil)
    }

    @Test func afterADotOrTwoTheValueIsAName() throws {
        let dotted = try query("$.•").substituting(["it's]"])
        #expect(dotted.text == #"$['it\'s]']"#)
        #expect(try dotted.result(in: document) == "tricky")
        let descendant = try query("$..•").substituting(["id"])
        #expect(descendant.text == "$..['id']")
        #expect(try descendant.result(in: document) == ["error1", "error2", 1, 2])
    }

    @Test func inAFilterAValueIsALiteral() throws {
        let byID = try query("$.items[?@.id == •].name")
        #expect(!byID.isSingular)
        #expect(try byID.substituting([2]).result(in: document) == ["it's"])
        let byName = try byID.substituting([2]).text
        #expect(byName == "$.items[?@.id == 2].name")
        let quoted = try query("$.items[?@.name == •].id").substituting(["it's"])
        #expect(quoted.text == #"$.items[?@.name == 'it\'s'].id"#)
        #expect(try quoted.result(in: document) == [2])
        // A string that looks like syntax stays a string.
        #expect(try query("$.items[?@.name == •].id").substituting(["'x' || true"]).result(in: document) == [])
        #expect(try query("$.items[?@.id == •].id").substituting([true]).result(in: document) == [])
        #expect(try query("$.items[?@.id == •].id").substituting([nil]).text == "$.items[?@.id == null].id")
    }

    @Test(arguments: [
        ("$.errors[•]", JSONValue.object(JSONObject([])), "a name or index must be a string or an integer, not an object"),
        ("$.errors[•]", [1], "a name or index must be a string or an integer, not an array"),
        ("$.errors[•]", true, "a name or index must be a string or an integer, not true"),
        ("$.errors[•]", 1.5, "an index must be an integer within ±(2^53 − 1), not 1.5"),
        ("$.items[?@.id == •]", [1], "a value in a filter must be a string, a number, true, false or null, not an array"),
    ] as [(String, JSONValue, String)])
    func aValueThatCannotStandThereIsAnError(_ text: String, _ value: JSONValue, _ message: String) throws {
        #expect(throws: JSONPathValueError(index: 0, message: message)) {
            _ = try query(text).substituting([value])
        }
    }

    @Test(arguments: [
        ("$.a•", 3, "a template cannot be part of a member name"),
        ("$['a•']", 4, "a template inside a quoted string"),
        ("$.a[•:2]", 4, "a template cannot be a slice bound"),
        ("$.a[1:•]", 6, "a template cannot be a slice bound"),
        ("$.a[?•]", 5, "cannot be used as a test"),
        ("$.a[•", 5, "unterminated bracketed selection"),
        ("$.a[• •]", 6, "unexpected template in selector"),
    ])
    func aValueOutsideAValuePlaceIsAnErrorAtLoad(_ text: String, _ offset: Int, _ message: String) throws {
        do {
            _ = try query(text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.offset == offset, "\(error)")
            #expect(error.message.contains(message), "\(error)")
        }
    }

    @Test func theShapeIsFixedBeforeTheValues() throws {
        #expect(try query("$.errors[•].id").isSingular)
        #expect(try query("$.•.•").isSingular)
        #expect(try !query("$.items[?@.id == •]").isSingular)
        #expect(try !query("$..•").isSingular)
        #expect(try query("$.a[•]").valueCount == 1)
        #expect(try JSONPath("$.a").valueCount == 0)
    }

    // MARK: - Names the shorthand cannot spell

    @Test(arguments: [
        ("$.headers.Content-Type", 17, "did you mean $.headers['Content-Type']?"),
        ("$.a.b-c.d", 5, "did you mean $.a['b-c'].d?"),
        ("$.x:y", 3, "did you mean $['x:y']?"),
        ("$..a-b", 4, "did you mean $..['a-b']?"),
        ("$.items[?@.first-name == 'a']", 16, "did you mean $.items[?@['first-name'] == 'a']?"),
    ])
    func aDotNameWithOtherCharactersSuggestsBrackets(_ text: String, _ offset: Int, _ hint: String) throws {
        do {
            _ = try JSONPath(text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.offset == offset, "\(error)")
            #expect(error.message.hasSuffix(hint), "\(error)")
            // The suggestion is itself a valid query.
            let suggested = String(hint.dropFirst("did you mean ".count).dropLast())
            #expect(throws: Never.self) { try JSONPath(suggested) }
        }
    }
}
