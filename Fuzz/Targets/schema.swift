// Fuzz target `schema`: JSON text as a schema through the JSON Schema compiler (`schema:` checks
// in workflows); schemas that compile validate a few fixed instances and themselves. No `$ref`
// leaves the document: retrieval answers nothing.
import CourierJSON

private let instances: [JSONValue] = [.null, true, 0, 1.5, "", "abc", [], [1, "a", [2]], [:], ["a": 1, "b": ["c": []]]]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSchema(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let schemaValue = try? JSONValue.parse(UnsafeBufferPointer(start: data, count: size)),
          let schema = try? JSONSchema(schemaValue, retrieve: { _ in nil }) else { return 0 }
    for instance in instances { _ = schema.validate(instance) }
    _ = schema.validate(schemaValue)
    return 0
}
