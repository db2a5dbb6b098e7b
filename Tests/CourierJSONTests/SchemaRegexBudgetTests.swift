import CourierJSON
import Testing

/// Issue 8 for JSON Schema: `pattern` and `patternProperties` go through the bounded engine.
@Suite("JSON Schema patterns within the regex budget", .timeLimit(.minutes(1)))
struct SchemaRegexBudgetTests {
    static func a(_ count: Int) -> String { String(repeating: "a", count: count) }

    @Test(arguments: 30...39)
    func patternWithAmbiguousAlternation(_ count: Int) throws {
        let schema = try JSONSchema(["pattern": "(a|a)*b"])
        #expect(schema.validate(.string(Self.a(count))).map(\.description)
            == ["/: \"\(Self.a(count))\" does not match the pattern '(a|a)*b'"])
        #expect(schema.validate(.string(Self.a(count) + "b")).isEmpty)
    }

    @Test(arguments: [30, 39])
    func patternPropertiesWithAmbiguousAlternation(_ count: Int) throws {
        let schema = try JSONSchema(["patternProperties": ["(a|a)*b": ["type": "integer"]], "additionalProperties": false])
        let instance = JSONValue.object(JSONObject([(Self.a(count), .number(JSONNumber(1))), (Self.a(count) + "b", .number(JSONNumber(2)))]))
        #expect(schema.validate(instance).map(\.description) == ["/\(Self.a(count)): property '\(Self.a(count))' is not allowed"])
    }

    @Test func exponentialPatternFailsTheCheckNamingTheBudget() throws {
        let schema = try JSONSchema(["pattern": #"^(a|a)*\1b"#])
        #expect(schema.validate(.string(Self.a(39))).map(\.description) == [
            #"/: "\#(Self.a(39))" cannot be checked against the pattern '^(a|a)*\1b': pattern too expensive (more than 1,000,000 steps against 39 characters)"#,
        ])
    }

    @Test func lookbehindIsSupported() throws {
        let schema = try JSONSchema(["pattern": #"^(?<!-)\d+$|(?<=\$)\d+$"#])
        #expect(schema.validate("42").isEmpty)
        #expect(schema.validate("$42").isEmpty)
        #expect(!schema.validate("x42").isEmpty)
    }
}
