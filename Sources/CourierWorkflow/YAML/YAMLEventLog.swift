/// A stream's events as lines of text (kind, marks, scalar text, style, tag, anchor):
/// how the tests and the `yaml` fuzz target compare the two readers' events.
struct YAMLEventLog: YAMLEventSink {
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
        events.append("start \(kind) flow=\(flow) \(tag ?? "-") \(anchor ?? "-") \(start) \(end)")
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
