import Foundation
import Testing
@testable import CourierJSON

/// Inputs that crashed or hung the fuzz targets (`make fuzz`, Fuzz/Targets) or the sanitized
/// test suite (`make sanitize`), fed through the same entry points. Each names its finding.
@Suite("Fuzz findings: JSON")
struct JSONFuzzFindingsTests {
    /// Finding schema-1 (target `schema`, 3,039 bytes; first seen by `make sanitize` in
    /// JSONSchemaTests.recursiveSchemaFollowsTheInstance, which overflows under AddressSanitizer
    /// at only 51 levels): a schema that `$ref`s itself per property, validated against a
    /// 500-deep instance, which the parser accepts (its limit is 512). AddressSanitizer:
    /// stack-overflow in SchemaEvaluator.check (SchemaEvaluator.swift:126), recursing
    /// check → evaluate → apply → follow per level. Expected: a result (valid here) or a
    /// depth violation, no crash.
    @Test
    func recursiveSchemaOverADeepInstanceDoesNotOverflow() throws {
        let depth = 500
        let text = ##"{"properties":{"a":{"$ref":"#"}},"a":"## + String(repeating: #"{"a":"#, count: depth) + "0"
            + String(repeating: "}", count: depth) + "}"
        let document = try JSONValue.parse(text)
        let schema = try JSONSchema(document)
        // The fuzz target validates the schema document against itself: its "a" is the deep instance.
        let violations = schema.validate(document)
        #expect(violations.isEmpty || violations.contains { $0.message.contains("deep") || $0.message.contains("nest") },
                "\(violations.map(\.description))")
    }
}

/// Finding json-1 (target `json` with LeakSanitizer on, `ASAN_OPTIONS=detect_leaks=1`; input
/// `{""`, 3 bytes): every parse that met an object key leaked the parser's key-shape tree
/// (`ShapeNode`: children held their parent strongly, the parent its children). LeakSanitizer:
/// 184 bytes in 3 allocations from ShapeNode.init via JSONParser.init (JSONParser.swift:58).
/// Fixed: a node's `parent` is unowned (the parser holds the root for the whole parse).
@Suite("Fuzz findings: JSON parser memory")
struct JSONParserLeakFindingTests {
    @Test func theShapeTreeIsFreedWithItsRoot() {
        weak var child: ShapeNode?
        weak var grandchild: ShapeNode?
        do {
            let root = ShapeNode(key: "", bytes: [], parent: nil)
            let key = Array("a".utf8)
            let made = key.withUnsafeBufferPointer { root.addChild("a", bytes: $0) }
            let deeper = key.withUnsafeBufferPointer { made.addChild("a", bytes: $0) }
            #expect(deeper.keyPath() == ["a", "a"])
            child = made
            grandchild = deeper
        }
        #expect(child == nil, "a key-shape node outlived its tree (retain cycle through 'parent')")
        #expect(grandchild == nil)
    }

    /// The fuzzer's input through the parser: it is an error, and parsing it again and again
    /// keeps working (the leak itself is only visible to LeakSanitizer: `make fuzz` with
    /// `ASAN_OPTIONS=detect_leaks=1 Scripts/fuzz.sh json`).
    @Test func unterminatedObjectIsAnError() {
        for _ in 0..<3 {
            #expect(throws: JSONParseError.self) { try JSONValue.parse(Array(#"{"""#.utf8)) }
        }
    }
}
