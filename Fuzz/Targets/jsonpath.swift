// Fuzz target `jsonpath`: a query through the RFC 9535 parser (captures, expectations, `courier
// query`); queries that parse are evaluated against a small fixed document.
import CourierJSON

private let document: JSONValue = [
    "store": ["book": [["title": "a", "price": 8.95, "tags": ["x", "y"]], ["title": "b", "price": 12, "isbn": "0-553"]],
              "bicycle": ["color": "red", "price": 19.95]],
    "n": 1, "s": "text", "t": true, "z": .null, "o": [:], "e": [],
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONPath(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let query = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let path = try? JSONPath(query) else { return 0 }
    _ = path.evaluate(document)
    return 0
}
