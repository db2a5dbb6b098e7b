import CourierDiagnostics
@testable import CourierWorkflow
import Testing

/// Loads `text` as `t.yaml`.
func loadYAML(_ text: String, maxAliasExpansion: Int = 100_000) -> YAMLLoader.Output {
    var loader = YAMLLoader()
    loader.maxAliasExpansion = maxAliasExpansion
    return loader.load(text, file: "t.yaml")
}

@Suite struct YAMLLoaderTests {
    @Test(arguments: [
        ("null", YAMLScalarValue.null), ("~", .null), ("", .null), ("Null", .null), ("NULL", .null),
        ("true", .bool(true)), ("True", .bool(true)), ("TRUE", .bool(true)), ("false", .bool(false)),
        ("yes", .string), ("no", .string), ("on", .string), ("off", .string), ("y", .string), ("nULL", .string),
        ("0", .integer(text: "0")), ("42", .integer(text: "42")), ("-17", .integer(text: "-17")), ("+5", .integer(text: "5")),
        ("007", .integer(text: "7")), ("0o17", .integer(text: "15")), ("0x1F", .integer(text: "31")), ("0xff", .integer(text: "255")),
        ("1.50", .float(text: "1.50")), ("-0.5", .float(text: "-0.5")), (".5", .float(text: "0.5")), ("1.", .float(text: "1.0")),
        ("1e3", .float(text: "1e3")), ("2.5E-3", .float(text: "2.5E-3")), (".inf", .float(text: ".inf")), ("-.Inf", .float(text: "-.inf")),
        (".nan", .float(text: ".nan")), (".NaN", .float(text: ".nan")), ("0x", .string), ("0o8", .string), ("1_000", .string),
        ("1.2.3", .string), ("-", .string), (".", .string), ("1e", .string), ("12abc", .string), ("application/json", .string),
    ])
    func coreSchemaPlainScalars(text: String, expected: YAMLScalarValue) {
        #expect(CoreSchema.resolvePlain(text) == expected)
    }

    @Test func quotedScalarsAreStrings() throws {
        let out = loadYAML("a: 'true'\nb: \"42\"\nc: |\n  null\n")
        #expect(out.diagnostics.isEmpty)
        let root = try #require(out.root)
        #expect(root["a"]?.scalar?.value == .string)
        #expect(root["b"]?.scalar?.value == .string)
        #expect(root["c"]?.scalar?.value == .string)
        #expect(root["c"]?.scalar?.text == "null\n")
    }

    @Test func explicitTagsAreHonoured() throws {
        let out = loadYAML("a: !!str 42\nb: !!int \"42\"\nc: !!float 1\nd: !!bool 12\n")
        let root = try #require(out.root)
        #expect(root["a"]?.scalar?.value == .string)
        #expect(root["b"]?.scalar?.value == .integer(text: "42"))
        #expect(root["c"]?.scalar?.value == .float(text: "1"))
        #expect(out.diagnostics.map(\.message) == ["'12' is not a boolean, but it is tagged '!!bool'"])
        #expect(out.diagnostics.first?.range?.start == SourceLocation(file: "t.yaml", line: 4, column: 4))
    }

    @Test func positionsAreOneBased() throws {
        let out = loadYAML("request:\n  method: GET\n  url: \"/x\"\n")
        let root = try #require(out.root)
        let request = try #require(root["request"])
        let pairs = try #require(request.mapping)
        #expect(pairs[0].key.range.start == SourceLocation(file: "t.yaml", line: 2, column: 3))
        #expect(pairs[0].key.range.end == SourceLocation(file: "t.yaml", line: 2, column: 9))
        #expect(pairs[0].value.range.start.column == 11)
        #expect(pairs[1].value.range.start == SourceLocation(file: "t.yaml", line: 3, column: 8))
        #expect(pairs[1].value.range.end.column == 12)
        #expect(pairs[1].value.scalar?.style == .doubleQuoted)
    }

    @Test func mergeKeysExplicitKeysWin() throws {
        let out = loadYAML("""
        base: &b { a: 1, b: 2 }
        other: &o { c: 3, a: 9 }
        x:
          <<: [*b, *o]
          b: 20
        """)
        #expect(out.diagnostics.isEmpty)
        let x = try #require(out.root?["x"]?.mapping)
        #expect(x.map { $0.key.scalar?.text ?? "" } == ["a", "c", "b"])
        #expect(out.root?["x"]?["a"]?.scalar?.text == "1")
        #expect(out.root?["x"]?["b"]?.scalar?.text == "20")
    }

    @Test func mergeOfSingleMap() throws {
        let out = loadYAML("d: &d { timeout: 1s }\nr: { <<: *d, url: /x }\n")
        #expect(out.diagnostics.isEmpty)
        #expect(out.root?["r"]?["timeout"]?.scalar?.text == "1s")
        #expect(out.root?["r"]?["url"]?.scalar?.text == "/x")
    }

    @Test func mergeOfScalarIsAnError() {
        let out = loadYAML("r: { <<: 3 }\n")
        #expect(out.diagnostics.map(\.message) == ["'<<' merges a mapping or a list of mappings; found a number"])
    }

    @Test func duplicateKeyPointsAtSecondWithNoteAtFirst() throws {
        let out = loadYAML("a: 1\nb: 2\na: 3\n")
        let d = try #require(out.diagnostics.first)
        #expect(d.message == "duplicate key 'a'; each key may appear once in a mapping")
        #expect(d.range?.start == SourceLocation(file: "t.yaml", line: 3, column: 1))
        #expect(d.notes.first?.range?.start == SourceLocation(file: "t.yaml", line: 1, column: 1))
        #expect(out.root?["a"]?.scalar?.text == "1")
    }

    @Test("duplicate keys are found in large mappings (hashed) and beside merge keys too")
    func duplicateKeysLargeAndMerged() throws {
        let keys = (1...20).map { "k\($0): \($0)" }.joined(separator: "\n")
        let large = loadYAML(keys + "\nk7: again\n")
        #expect(large.diagnostics.map(\.message) == ["duplicate key 'k7'; each key may appear once in a mapping"])
        #expect(large.diagnostics.first?.notes.first?.range?.start == SourceLocation(file: "t.yaml", line: 7, column: 1))
        let merged = loadYAML("d: &d { x: 1, y: 2 }\nr: { <<: *d, y: 3, z: 4, z: 5 }\n")
        #expect(merged.diagnostics.map(\.message) == ["duplicate key 'z'; each key may appear once in a mapping"])
        // The explicit key wins over the merged one.
        #expect(merged.root?["r"]?["y"]?.scalar?.text == "3")
        #expect(merged.root?["r"]?["x"]?.scalar?.text == "1")
    }

    @Test func aliasesExpand() throws {
        let out = loadYAML("a: &x [1, 2]\nb: *x\n")
        #expect(out.diagnostics.isEmpty)
        #expect(out.root?["b"]?.sequence?.count == 2)
    }

    @Test func unknownAnchorIsAnError() {
        let out = loadYAML("a: *nope\n")
        // libyaml itself rejects undefined aliases; either way the position is the alias.
        #expect(out.diagnostics.count == 1)
        #expect(out.diagnostics.first?.range?.start.line == 1)
    }

    @Test func billionLaughsIsBounded() {
        var text = "l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            let refs = Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ")
            text += "l\(level): &l\(level) [\(refs)]\n"
        }
        let out = loadYAML(text)
        #expect(out.root == nil)
        #expect(out.diagnostics.first?.message.hasPrefix("too many alias expansions") == true)
    }

    @Test func syntaxErrorPosition() throws {
        let out = loadYAML("a: 1\nb: [1, 2\nc: 3\n")
        let d = try #require(out.diagnostics.first)
        #expect(d.message.hasPrefix("invalid YAML: "))
        #expect(d.range?.start.line == 3)
        #expect(out.root == nil)
    }

    @Test func badIndentationErrorPosition() throws {
        let out = loadYAML("a:\n  b: 1\n c: 2\n")
        let d = try #require(out.diagnostics.first)
        #expect(d.range?.start == SourceLocation(file: "t.yaml", line: 3, column: 2))
    }

    @Test func multipleDocumentsAreAnError() throws {
        let out = loadYAML("a: 1\n---\nb: 2\n")
        let d = try #require(out.diagnostics.first)
        #expect(d.message.contains("one YAML document"))
        #expect(d.range?.start.line == 2)
    }

    @Test func emptyStreamHasNoRoot() {
        let out = loadYAML("# only a comment\n")
        #expect(out.root == nil)
        #expect(out.diagnostics.isEmpty)
    }
}
