// Fuzz target `yaml`: the fast reader of everyday YAML (CommonYAMLReader) against libyaml.
// Whatever text the fast reader accepts, libyaml must read to the very same events (kinds,
// texts, styles, marks); a difference is a crash, so libFuzzer keeps the input.
@testable import CourierWorkflow

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAMLReaders(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // The loader reads Swift strings: valid UTF-8, as here.
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    Array(text.utf8).withUnsafeBufferPointer { input in
        var fast = YAMLEventLog()
        guard CommonYAMLReader.read(input, into: &fast) else { return }
        var reference = YAMLEventLog()
        guard case .finished = LibYAMLEvents.read(input, file: "fuzz.yaml", into: &reference) else {
            fatalError("the fast reader accepted text libyaml refuses:\n\(text)")
        }
        if reference.events != fast.events {
            fatalError("the readers differ on:\n\(text)\nlibyaml:\n\(reference.events.joined(separator: "\n"))\nfast:\n\(fast.events.joined(separator: "\n"))")
        }
    }
    return 0
}
