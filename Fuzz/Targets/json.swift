// Fuzz target `json`: bytes through the JSON parser (response bodies, --vars-file JSON, `courier
// query` documents); what parses is serialized and parsed again, and must come back equal.
import CourierJSON

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let value = try? JSONValue.parse(bytes) else { return 0 }
    let text = value.serialized()
    guard let again = try? JSONValue.parse(text) else {
        fatalError("serialized JSON does not parse again: \(text)")
    }
    if again != value { fatalError("JSON round trip changed the value: \(text)") }
    return 0
}
