import Testing
@testable import CourierJSON

@Suite("JSON parser")
struct JSONParserTests {
    // MARK: - Every construct

    @Test func parsesScalars() throws {
        #expect(try JSONValue.parse("null") == .null)
        #expect(try JSONValue.parse("true") == .bool(true))
        #expect(try JSONValue.parse("false") == .bool(false))
        #expect(try JSONValue.parse("0") == 0)
        #expect(try JSONValue.parse("-12.5e3") == .number(JSONNumber(text: "-12500")!))
        #expect(try JSONValue.parse(#""hi""#) == "hi")
        #expect(try JSONValue.parse(" \t\r\n 1 \n") == 1)
    }

    @Test func parsesContainersInDocumentOrder() throws {
        let value = try JSONValue.parse(#"{"b": [1, {"c": null}], "a": {}, "e": []}"#)
        #expect(value.objectValue?.keys == ["b", "a", "e"])
        #expect(value["b"]?[1]?["c"] == .null)
        #expect(value["a"] == .object([:]))
        #expect(value["e"] == .array([]))
        #expect(value["missing"] == nil)
        #expect(value["b"]?[2] == nil)
    }

    @Test func parsesEscapesAndSurrogatePairs() throws {
        let value = try JSONValue.parse(#""a\"b\\c\/d\b\f\n\r\t\u0041\u00e9\u20AC\ud83d\ude00""#)
        #expect(value == .string("a\"b\\c/d\u{8}\u{c}\n\r\tAé€😀"))
        #expect(try JSONValue.parse("\"caf\u{e9} \u{1F600}\"") == "café 😀")
    }

    @Test func keysCompareByScalarsNotCanonicalEquivalence() throws {
        let value = try JSONValue.parse("{\"\u{e9}\": 1, \"e\u{301}\": 2}")
        #expect(value.objectValue?.count == 2)
        #expect(value["\u{e9}"] == 1)
        #expect(value["e\u{301}"] == 2)
        #expect(JSONValue.string("\u{e9}") != JSONValue.string("e\u{301}"))
    }

    @Test func duplicateKeysLastValueWinsAtFirstPosition() throws {
        let small = try JSONValue.parse(#"{"a": 1, "b": 2, "a": 3}"#)
        #expect(small.objectValue?.keys == ["a", "b"])
        #expect(small["a"] == 3)
        let members = (0..<20).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
        let large = try JSONValue.parse("{\(members), \"k3\": \"x\"}")
        #expect(large.objectValue?.count == 20)
        #expect(large["k3"] == "x")
        #expect(large["k19"] == 19)
    }

    @Test func objectsWithTheSameKeysShareThemButMutateIndependently() throws {
        let rows = try JSONValue.parse(#"[{"id": 1, "n": "a"}, {"id": 2, "n": "b"}, {"id": 3, "n": "c", "id": 4}]"#)
        guard case .object(var first)? = rows[0], case .object(let second)? = rows[1] else {
            Issue.record("expected objects")
            return
        }
        first["extra"] = true
        first["id"] = nil
        #expect(first.keys == ["n", "extra"])
        #expect(second.keys == ["id", "n"])
        #expect(second["id"] == 2)
        #expect(rows[2]?.objectValue?.keys == ["id", "n"])
        #expect(rows[2]?["id"] == 4)
        #expect(rows[0] == ["n": "a", "id": 1])
    }

    @Test func objectsUsedAsDictionariesKeepTheirOwnKeys() throws {
        // Many distinct key lists: the shared-keys tree stops growing, objects stay correct.
        let objects = (0..<50).map { "{\"k\($0)\": \($0), \"common\": true}" }.joined(separator: ",")
        let value = try JSONValue.parse("[\(objects)]")
        for i in 0..<50 {
            #expect(value[i]?["k\(i)"] == .number(JSONNumber(i)))
            #expect(value[i]?.objectValue?.keys == ["k\(i)", "common"])
        }
        let wide = "{" + (0..<100).map { "\"w\($0)\": \($0)" }.joined(separator: ",") + "}"
        let wideValue = try JSONValue.parse(wide)
        #expect(wideValue.objectValue?.count == 100)
        #expect(wideValue["w99"] == 99)
    }

    @Test func largeObjectsAreIndexed() throws {
        var object = JSONObject()
        for i in 0..<100 { object["key\(i)"] = .number(JSONNumber(i)) }
        #expect(object.count == 100)
        #expect(object["key57"] == 57)
        object["key57"] = nil
        #expect(object["key57"] == nil)
        #expect(object["key58"] == 58)
        #expect(object.count == 99)
    }

    @Test func skipsByteOrderMark() throws {
        #expect(try JSONValue.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == [1])
    }

    @Test func parsesNonContiguousCollections() throws {
        #expect(try JSONValue.parse(Array("[true]".utf8).lazy.map { $0 }) == [true])
    }

    // MARK: - Numbers at the edges

    @Test func keepsNumberText() throws {
        let value = try JSONValue.parse("[1e400, -0, 12345678901234567890, 0.1000, 1.0]")
        let texts = value.arrayValue?.compactMap { $0.numberValue?.text }
        #expect(texts == ["1e400", "-0", "12345678901234567890", "0.1000", "1.0"])
        #expect(value[0]?.numberValue?.doubleValue == .infinity)
        #expect(value[0]?.isInteger == true)
        #expect(value[1] == 0)
        #expect(value[1]?.numberValue?.intValue == 0)
        #expect(value[2]?.numberValue?.intValue == nil)
        #expect(value[2]?.isInteger == true)
        #expect(value[3] == 0.1)
        #expect(value[4] == 1)
        #expect(value[4]?.numberValue?.intValue == 1)
        #expect(value.serialized() == "[1e400,-0,12345678901234567890,0.1000,1.0]")
    }

    @Test func comparesNumbersExactly() throws {
        let a = try #require(JSONNumber(text: "100000000000000000001"))
        let b = try #require(JSONNumber(text: "100000000000000000000"))
        #expect(a != b)
        #expect(a.doubleValue == b.doubleValue)
        #expect(b < a)
        #expect(JSONNumber(text: "1e2") == JSONNumber(100))
        #expect(!(JSONNumber(text: "0.5")! < JSONNumber(text: "5e-1")!))
        #expect(JSONNumber(text: "-2")! < JSONNumber(text: "-1.5")!)
        #expect(JSONNumber(text: "-0.0") == JSONNumber(0))
        #expect(JSONNumber(text: "9223372036854775807")?.intValue == Int.max)
        #expect(JSONNumber(text: "9223372036854775808")?.intValue == nil)
        #expect(JSONNumber(text: "1.5e1")?.intValue == 15)
        #expect(JSONNumber(text: "1.5")?.isInteger == false)
        #expect(JSONNumber(text: "1e-3")?.isInteger == false)
    }

    @Test(arguments: ["01", "1.", ".5", "+1", "1e", "1e+", "--1", "0x10", "", "1 2", "Infinity", "NaN"])
    func rejectsInvalidNumberText(_ text: String) {
        #expect(JSONNumber(text: text) == nil)
    }

    // MARK: - Malformed input with positions

    struct Malformed: Sendable, CustomStringConvertible {
        var input: String
        var line: Int
        var column: Int
        var message: String
        var description: String { input }
    }

    @Test(arguments: [
        Malformed(input: "", line: 1, column: 1, message: "empty document"),
        Malformed(input: "   ", line: 1, column: 4, message: "end of input"),
        Malformed(input: "[1, 2", line: 1, column: 6, message: "unterminated array"),
        Malformed(input: "[1,]", line: 1, column: 3, message: "trailing comma in array"),
        Malformed(input: "{\"a\":1,}", line: 1, column: 7, message: "trailing comma in object"),
        Malformed(input: "{\n  \"a\": 1\n  \"b\": 2\n}", line: 3, column: 3, message: "expected ',' or '}'"),
        Malformed(input: "{a: 1}", line: 1, column: 2, message: "expected a string key"),
        Malformed(input: "{\"a\" 1}", line: 1, column: 6, message: "expected ':'"),
        Malformed(input: "[01]", line: 1, column: 2, message: "leading zeros"),
        Malformed(input: "[1.]", line: 1, column: 4, message: "expected a digit after '.'"),
        Malformed(input: "[-]", line: 1, column: 3, message: "expected a digit after '-'"),
        Malformed(input: "[1e]", line: 1, column: 4, message: "exponent"),
        Malformed(input: "tru", line: 1, column: 1, message: "expected 'true'"),
        Malformed(input: "nul", line: 1, column: 1, message: "expected 'null'"),
        Malformed(input: "\"abc", line: 1, column: 1, message: "unterminated string"),
        Malformed(input: "\"a\tb\"", line: 1, column: 3, message: "unescaped control character U+0009"),
        Malformed(input: "\"\\x\"", line: 1, column: 2, message: "invalid escape '\\x'"),
        Malformed(input: "\"\\u12G4\"", line: 1, column: 6, message: "invalid hex digit"),
        Malformed(input: "\"\\ud800\"", line: 1, column: 2, message: "unpaired surrogate"),
        Malformed(input: "\"\\udc00\"", line: 1, column: 2, message: "unpaired low surrogate"),
        Malformed(input: "\"\\ud800\\u0041\"", line: 1, column: 8, message: "expected a low surrogate"),
        Malformed(input: "[1] x", line: 1, column: 5, message: "after the JSON value"),
        Malformed(input: "[\"é\", ?]", line: 1, column: 7, message: "unexpected character '?'"),
        Malformed(input: "{\"a\": }", line: 1, column: 7, message: "expected a JSON value"),
    ])
    func reportsPositions(_ sample: Malformed) {
        do {
            let value = try JSONValue.parse(sample.input)
            Issue.record("parsed as \(value)")
        } catch {
            #expect(error.line == sample.line, "\(error)")
            #expect(error.column == sample.column, "\(error)")
            #expect(error.message.contains(sample.message), "\(error)")
        }
    }

    @Test func reportsByteOffsets() {
        #expect(throws: JSONParseError(offset: 7, line: 2, column: 4, message: "trailing comma in array")) {
            try JSONValue.parse("[1,\n  2,]")
        }
    }

    @Test(arguments: [
        ([0x22, 0xFF, 0x22], "invalid UTF-8 byte 0xFF"),
        ([0x22, 0xC3, 0x22], "invalid UTF-8 sequence"),
        ([0x22, 0xED, 0xA0, 0x80, 0x22], "invalid UTF-8 sequence"),  // encoded surrogate
        ([0x22, 0xE0, 0x80, 0x80, 0x22], "invalid UTF-8 sequence"),  // overlong
        ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "invalid UTF-8 sequence"),  // above U+10FFFF
        ([0x22, 0xF0, 0x9F], "truncated UTF-8 sequence"),
    ] as [([UInt8], String)])
    func rejectsInvalidUTF8(_ bytes: [UInt8], _ message: String) {
        #expect {
            try JSONValue.parse(bytes)
        } throws: { error in
            let error = error as? JSONParseError
            return error?.offset == 1 && error?.message.contains(message) == true
        }
    }

    // MARK: - Depth

    @Test func acceptsNestingUpToTheLimit() throws {
        let depth = 512
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var value = try JSONValue.parse(text)
        var levels = 0
        while case .array(let elements) = value {
            levels += 1
            value = elements.first ?? .null
        }
        #expect(levels == depth)
    }

    @Test func rejectsNestingBeyondTheLimit() {
        let text = String(repeating: "{\"a\":", count: 20) + "1" + String(repeating: "}", count: 20)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(text, maxDepth: 19) }
        #expect((try? JSONValue.parse(text, maxDepth: 20)) != nil)
        let deep = String(repeating: "[", count: 100_000)
        #expect {
            try JSONValue.parse(deep)
        } throws: { error in
            (error as? JSONParseError)?.offset == 512 && (error as? JSONParseError)?.message.contains("deeper than 512") == true
        }
    }
}
