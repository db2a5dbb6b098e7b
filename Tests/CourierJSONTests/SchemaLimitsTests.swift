import CourierJSON
import Testing

/// JSON Schema nesting limits: compiling nested subschemas and applying long `$ref` chains.
@Suite struct SchemaLimitsTests {
    /// `{"not": … {} …}` with `count` nots: `count + 1` nested subschemas.
    static func nots(_ count: Int) -> JSONValue {
        var schema: JSONValue = .object(JSONObject())
        for _ in 0..<count { schema = .object(JSONObject([("not", schema)])) }
        return schema
    }

    /// A root that refers to `a0`, `a0` to `a1`, …, the last one `{"type": "array"}`.
    static func refChain(_ length: Int) -> JSONValue {
        var defs: [(String, JSONValue)] = (0..<length).map { i in
            ("a\(i)", .object(JSONObject([("$ref", .string("#/$defs/a\(i + 1)"))])))
        }
        defs.append(("a\(length)", .object(JSONObject([("type", .string("array"))]))))
        return .object(JSONObject([("$ref", .string("#/$defs/a0")), ("$defs", .object(JSONObject(defs)))]))
    }

    @Test func nestedSubschemasCompileUpToTheLimit() throws {
        // 127 nots are 128 subschemas: compiled; `[]` matches `not … {}` with an odd count of nots.
        #expect(try JSONSchema(Self.nots(127)).validate(.array([])).count == 1)
        #expect(throws: JSONSchemaError.self) { try JSONSchema(Self.nots(128)) }
        do {
            _ = try JSONSchema(Self.nots(128))
        } catch {
            #expect("\(error)".contains("subschemas nested too deeply, limit 128"))
        }
    }

    @Test func refChainsApplyUpToTheLimit() throws {
        // The root applies a0 (depth 1) … the chain's end at depth `length + 1`.
        #expect(try JSONSchema(Self.refChain(255)).validate(.array([])).isEmpty)
        let past = try JSONSchema(Self.refChain(256)).validate(.array([]))
        #expect(past.count == 1)
        #expect(past.first?.message.contains("subschemas nested too deeply, limit 256") == true)
    }

    @Test func aLongRefChainDoesNotOverflowTheStack() throws {
        let found = try JSONSchema(Self.refChain(20_000)).validate(.array([]))
        #expect(found.first?.message.contains("nested too deeply") == true)
    }
}
