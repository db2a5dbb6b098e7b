// Fuzz target `yaml`: the fast reader of everyday YAML (CommonYAMLReader) against libyaml.
// Whatever text the fast reader accepts, libyaml must read to the very same events (kinds,
// texts, styles, marks); a difference is a crash, so libFuzzer keeps the input.
@testable import CourierWorkflow

/// Every event as one line of text.
struct Recorder: YAMLEventSink {
    var events: [String] = []

    mutating func documentStart(start: YAMLMark, end: YAMLMark) -> Bool {
        events.append("doc \(start) \(end)")
        return true
    }

    mutating func scalar(_ text: String, style: YAMLScalar.Style, tag: String?, anchor: String?, byteCount: Int,
                         start: YAMLMark, end: YAMLMark) -> Bool {
        events.append("scalar \(text.debugDescription) \(style) \(tag ?? "-") \(anchor ?? "-") \(byteCount) \(start) \(end)")
        return true
    }

    mutating func collectionStart(_ kind: YAMLCollectionKind, flow: Bool, tag: String?, anchor: String?,
                                  start: YAMLMark, end: YAMLMark) -> Bool {
        events.append("start \(kind) \(flow) \(tag ?? "-") \(anchor ?? "-") \(start) \(end)")
        return true
    }

    mutating func collectionEnd(start: YAMLMark, end: YAMLMark) -> Bool {
        events.append("end \(start) \(end)")
        return true
    }

    mutating func alias(_ anchor: String, start: YAMLMark, end: YAMLMark) -> Bool {
        events.append("alias \(anchor) \(start) \(end)")
        return true
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAMLReaders(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // The loader reads Swift strings: valid UTF-8, as here.
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    Array(text.utf8).withUnsafeBufferPointer { input in
        var fast = Recorder()
        guard CommonYAMLReader.read(input, into: &fast) else { return }
        var reference = Recorder()
        guard case .finished = LibYAMLEvents.read(input, file: "fuzz.yaml", into: &reference) else {
            fatalError("the fast reader accepted text libyaml refuses:\n\(text)")
        }
        if reference.events != fast.events {
            fatalError("the readers differ on:\n\(text)\nlibyaml:\n\(reference.events.joined(separator: "\n"))\nfast:\n\(fast.events.joined(separator: "\n"))")
        }
    }
    return 0
}
