import Synchronization
import Testing
import CourierJSON

@Suite("JSON Schema violations and compilation")
struct JSONSchemaTests {
    private func violations(_ schema: JSONValue, _ instance: JSONValue, draft: JSONSchema.Draft = .draft2020_12) throws -> [JSONSchemaViolation] {
        try JSONSchema(schema, defaultDraft: draft).validate(instance)
    }

    // MARK: - Messages and locations

    @Test func minimumReportsBothLocations() throws {
        let schema: JSONValue = ["properties": ["items": ["items": ["properties": ["price": ["minimum": 1]]]]]]
        let found = try violations(schema, ["items": [["price": 2], ["price": 0]]])
        #expect(found == [JSONSchemaViolation(
            instanceLocation: "/items/1/price",
            keywordLocation: "/properties/items/items/properties/price/minimum",
            keyword: "minimum",
            message: "0 is less than the minimum 1")])
        #expect(found.first?.description == "/items/1/price: 0 is less than the minimum 1")
    }

    @Test func requiredAndAdditionalProperties() throws {
        let schema: JSONValue = [
            "required": ["id", "name"],
            "properties": ["id": ["type": "integer"], "name": ["type": "string"]],
            "additionalProperties": false,
        ]
        let found = try violations(schema, ["id": "7", "colour": "red"])
        #expect(found.map(\.keyword) == ["required", "type", "additionalProperties"])
        #expect(found[0] == JSONSchemaViolation(instanceLocation: "", keywordLocation: "/required", keyword: "required",
                                                message: "required property 'name' is missing"))
        #expect(found[1] == JSONSchemaViolation(instanceLocation: "/id", keywordLocation: "/properties/id/type", keyword: "type",
                                                message: #""7" is not of type 'integer'"#))
        #expect(found[2] == JSONSchemaViolation(instanceLocation: "/colour", keywordLocation: "/additionalProperties",
                                                keyword: "additionalProperties",
                                                message: "property 'colour' is not allowed (expected one of 'id', 'name')"))
    }

    @Test func keywordLocationGoesThroughRef() throws {
        let schema: JSONValue = ["$defs": ["positive": ["exclusiveMinimum": 0]], "properties": ["n": ["$ref": "#/$defs/positive"]]]
        let found = try violations(schema, ["n": 0])
        #expect(found.map(\.keywordLocation) == ["/properties/n/$ref/exclusiveMinimum"])
        #expect(found.map(\.message) == ["0 is not greater than the exclusive minimum 0"])
    }

    @Test func pointerTokensAreEscaped() throws {
        let found = try violations(["properties": ["a/b~c": ["type": "null"]]], ["a/b~c": 1])
        #expect(found.map(\.instanceLocation) == ["/a~1b~0c"])
        #expect(found.map(\.keywordLocation) == ["/properties/a~1b~0c/type"])
    }

    @Test func anyOfReportsTheKeywordNotEachBranch() throws {
        let found = try violations(["anyOf": [["type": "string"], ["minimum": 10]]], 3)
        #expect(found == [JSONSchemaViolation(instanceLocation: "", keywordLocation: "/anyOf", keyword: "anyOf",
                                              message: "3 does not match any of the 2 schemas in 'anyOf'")])
    }

    @Test func thenIsLocatedAsItsOwnKeyword() throws {
        let schema: JSONValue = ["if": ["required": ["card"]], "then": ["required": ["cvv"]]]
        let found = try violations(schema, ["card": "4111"])
        #expect(found.map(\.keywordLocation) == ["/then/required"])
    }

    @Test func unevaluatedPropertiesSeesThroughAllOfAndRef() throws {
        let schema: JSONValue = [
            "$defs": ["named": ["properties": ["name": true]]],
            "allOf": [["$ref": "#/$defs/named"], ["properties": ["age": true]]],
            "unevaluatedProperties": false,
        ]
        #expect(try violations(schema, ["name": "a", "age": 3]).isEmpty)
        let found = try violations(schema, ["name": "a", "nickname": "b"])
        #expect(found == [JSONSchemaViolation(instanceLocation: "/nickname", keywordLocation: "/unevaluatedProperties",
                                              keyword: "unevaluatedProperties",
                                              message: "property 'nickname' is not allowed (no subschema evaluates it)")])
    }

    @Test func itemsFalseAfterPrefixItems() throws {
        let found = try violations(["prefixItems": [true, true], "items": false], [1, 2, 3])
        #expect(found.map(\.instanceLocation) == ["/2"])
        #expect(found.map(\.message) == ["item 2 is not allowed: the array may have at most 2 items"])
    }

    // MARK: - Keyword semantics

    @Test(arguments: [
        ("0.3", "0.1", true), ("19.99", "0.01", true), ("0.31", "0.1", false), ("12345678901234567890", "10", true),
        ("1e308", "0.123456789", false), ("4.5e-20", "1.5e-20", true), ("7", "2", false), ("0", "0.0001", true),
    ])
    func multipleOfIsExact(value: String, divisor: String, valid: Bool) throws {
        let schema = try JSONSchema(["multipleOf": .number(JSONNumber(text: divisor)!)])
        #expect(schema.validate(.number(JSONNumber(text: value)!)).isEmpty == valid)
    }

    @Test func lengthCountsCodePoints() throws {
        #expect(try violations(["maxLength": 1], "😀").isEmpty)
        #expect(try violations(["minLength": 2], "é").map(\.message) == [#""é" is shorter than 2 characters"#])
    }

    @Test func patternsFollowECMA262() throws {
        // \d is ASCII-only, $ does not match before a trailing newline, [&&] is two literals.
        #expect(try !violations(["pattern": #"^\d+$"#], "٣").isEmpty)
        #expect(try !violations(["pattern": "^abc$"], "abc\n").isEmpty)
        #expect(try violations(["pattern": "^[&&]+$"], "&&").isEmpty)
        #expect(try violations(["pattern": #"^\u00e9\x41{2}$"#], "éAA").isEmpty)
        #expect(try violations(["pattern": "a{,3}"], "a{,3}").isEmpty)
        #expect(try violations(["pattern": "^[^]$"], "\n").isEmpty)
    }

    @Test func uniqueItemsUsesJSONEquality() throws {
        let found = try violations(["uniqueItems": true], [1, ["a": 1.0], 2, ["a": 1]])
        #expect(found.map(\.message) == [#"items 1 and 3 are equal ({"a":1}); items must be unique"#])
    }

    @Test func draft7IgnoresRefSiblings() throws {
        let schema: JSONValue = ["definitions": ["any": true], "$ref": "#/definitions/any", "type": "string"]
        #expect(try violations(schema, 1, draft: .draft7).isEmpty)
        #expect(try violations(schema, 1, draft: .draft2020_12).map(\.keyword) == ["type"])
    }

    @Test func formatIsAnAnnotation() throws {
        #expect(try violations(["format": "email"], "not an email").isEmpty)
    }

    // MARK: - Recursion

    /// Guards against a stack overflow: `$ref` cycles that never move into the instance.
    static let cyclicSchemas: [JSONValue] = [
        ["$ref": "#"],
        ["$defs": ["a": ["$ref": "#/$defs/b"], "b": ["allOf": [["$ref": "#/$defs/a"]]]], "$ref": "#/$defs/a"],
    ]

    @Test(arguments: cyclicSchemas)
    func cyclicRefOnTheSameValueIsReported(_ schema: JSONValue) throws {
        let found = try violations(schema, ["x": 1])
        #expect(found.count == 1)
        #expect(found.first?.keyword == "$ref")
        #expect(found.first?.message.contains("loops back") == true)
    }

    @Test func recursiveSchemaFollowsTheInstance() throws {
        let tree: JSONValue = ["type": "object", "properties": ["children": ["type": "array", "items": ["$ref": "#"]]]]
        var instance: JSONValue = ["children": []]
        for _ in 0..<50 { instance = ["children": [instance]] }
        #expect(try violations(tree, instance).isEmpty)
    }

    // MARK: - Compilation

    @Test func relativeRefsAreRetrievedAgainstTheBaseURI() throws {
        let requested = Mutex<[String]>([])
        let schema = try JSONSchema(["$ref": "types.json#/$defs/id"], baseURI: "file:///project/schemas/main.json") { uri in
            requested.withLock { $0.append(uri) }
            return uri == "file:///project/schemas/types.json" ? ["$defs": ["id": ["type": "integer"]]] : nil
        }
        #expect(requested.withLock { $0 } == ["file:///project/schemas/types.json"])
        #expect(schema.validate(7).isEmpty)
        #expect(schema.validate("7").map(\.keywordLocation) == ["/$ref/type"])
    }

    @Test func unresolvableRefIsAnError() {
        #expect {
            try JSONSchema(["properties": ["a": ["$ref": "#/$defs/missing"]]])
        } throws: { error in
            (error as? JSONSchemaError)?.message.contains("cannot resolve '$ref' '#/$defs/missing'") == true
        }
    }

    static let invalidSchemas: [(JSONValue, String)] = [
        (["minimum": "1"], "'minimum' must be a number"),
        (["pattern": "(a"], "invalid regular expression '(a'"),
        (["type": "text"], "'type' has an unknown type \"text\""),
        (["$schema": "http://json-schema.org/draft-04/schema#"], "unsupported '$schema'"),
        (["items": 3], "a schema must be an object or a boolean, found number (at '/items')"),
        (["properties": ["a": ["type": []]]], "'type' must be a type name or a non-empty array of unique type names, found an empty array (at '/properties/a/type')"),
        (["type": ["string", 1]], "'type' has an unknown type 1 (at '/type/1')"),
        (["required": ["a", "a"]], "'required' must be an array of unique strings, found 'a' twice (at '/required')"),
        (["$defs": ["n": ["minLength": -1]]], "'minLength' must be a non-negative integer, found -1 (at '/$defs/n/minLength')"),
        (["prefixItems": []], "'prefixItems' must be a non-empty array of schemas, found an empty array"),
        (["$anchor": "1a"], "'$anchor' must be a plain name, found \"1a\""),
        (["$id": "https://example.com/a#b"], "'$id' 'https://example.com/a#b' must not have a fragment"),
        (["$ref": "https://json-schema.org/draft/2020-12/schema#/$defs/x"], "cannot resolve '$ref'"),
    ]

    @Test(arguments: invalidSchemas)
    func invalidSchemasAreRejected(_ schema: JSONValue, _ message: String) {
        #expect {
            try JSONSchema(schema)
        } throws: { error in
            (error as? JSONSchemaError)?.message.contains(message) == true
        }
    }

    // MARK: - Built-in metaschemas

    static let metaschemaURIs: [(String, JSONSchema.Draft)] = [
        ("https://json-schema.org/draft/2020-12/schema", .draft2020_12),
        ("https://json-schema.org/draft/2020-12/schema#", .draft2020_12),
        ("http://json-schema.org/draft/2020-12/schema", .draft2020_12),
        ("http://json-schema.org/draft-07/schema#", .draft7),
        ("http://json-schema.org/draft-07/schema", .draft7),
        ("https://json-schema.org/draft-07/schema#", .draft7),
    ]

    @Test(arguments: metaschemaURIs)
    func refToAMetaschemaChecksTheInstanceIsASchema(_ uri: String, _ draft: JSONSchema.Draft) throws {
        let schema = try JSONSchema(["$ref": .string(uri)])
        let definitions = draft == .draft7 ? "definitions" : "$defs"
        let valid = JSONObject([(definitions, ["a": ["type": "integer", "minimum": 1]] as JSONValue), ("x-unknown", 3)])
        #expect(schema.validate(.object(valid)).isEmpty)
        #expect(schema.validate(true).isEmpty)
        let found = schema.validate(.object(JSONObject([(definitions, ["a": ["type": 1]] as JSONValue), ("minLength", -1)])))
        #expect(found == [
            JSONSchemaViolation(instanceLocation: "/\(definitions)/a/type",
                                keywordLocation: "/$ref/properties/\(definitions)/additionalProperties/properties/type/anyOf",
                                keyword: "anyOf",
                                message: "'type' must be a type name or a non-empty array of unique type names, found 1"),
            JSONSchemaViolation(instanceLocation: "/minLength", keywordLocation: "/$ref/properties/minLength/minimum",
                                keyword: "minimum", message: "'minLength' must be a non-negative integer, found -1"),
        ])
        #expect(schema.validate(3).map(\.message) == ["a schema must be an object or a boolean, found number"])
    }

    @Test func metaschemaFollowsTheDraftOfItsURI() throws {
        let draft7 = try JSONSchema(["$ref": "http://json-schema.org/draft-07/schema#"])
        let draft2020 = try JSONSchema(["$ref": "https://json-schema.org/draft/2020-12/schema"])
        // `prefixItems` is a keyword of 2020-12 only; draft-07 `items` may be an array.
        #expect(draft7.isValid(["prefixItems": 1, "items": [["type": "string"]]]))
        #expect(!draft2020.isValid(["prefixItems": 1]))
        #expect(draft2020.validate(["items": [["type": "string"]]]).map(\.keywordLocation) == ["/$ref/properties/items/type"])
        #expect(!draft7.isValid(["items": []]))
        #expect(!draft7.isValid(["dependencies": ["a": ["b", "b"]]]))
        #expect(draft7.isValid(["dependencies": ["a": ["b"], "c": ["required": ["d"]]]]))
        #expect(!draft2020.isValid(["allOf": [["not": ["required": [1]]]]]))
        #expect(!draft2020.isValid(["patternProperties": ["(": true]]))
        #expect(!draft2020.isValid(["$vocabulary": ["https://example.com/v": "yes"]]))
    }

    @Test func metaschemaIsUsableInsideASchema() throws {
        let schema = try JSONSchema([
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": ["schemas": ["type": "array", "items": ["$ref": "https://json-schema.org/draft/2020-12/schema"]]],
            "unevaluatedProperties": false,
        ])
        #expect(schema.isValid(["schemas": [true, ["type": "string"]]]))
        #expect(schema.validate(["schemas": [["required": "id"]]]).map(\.instanceLocation) == ["/schemas/0/required"])
    }

    /// The metaschema and the compiler share their rules: a schema compiles exactly when the
    /// metaschema accepts it (or it fails for another reason, such as an unresolvable `$ref`).
    @Test(arguments: [
        ["type": ["null", "null"]], ["required": [1]], ["maxItems": 1.5], ["multipleOf": 0], ["enum": 1],
        ["title": 1], ["contentSchema": 1], ["definitions": ["a": ["minimum": "1"]]], ["dependentRequired": ["a": "b"]],
        ["type": "integer", "maxItems": 1.0, "multipleOf": 0.5, "x-anything": ["type": 1]], ["dependencies": ["a": ["b"]]],
    ] as [JSONValue])
    func metaschemaAgreesWithTheCompiler(_ candidate: JSONValue) throws {
        let metaschema = try JSONSchema(["$ref": "https://json-schema.org/draft/2020-12/schema"])
        let compiles = (try? JSONSchema(candidate)) != nil
        #expect(metaschema.isValid(candidate) == compiles)
    }
}
