extension JSONValue {
    /// The JSON text of this value.
    ///
    /// Output is deterministic: object members keep their order, numbers keep their source
    /// text, and strings escape only `"`, `\` and control characters (as `\n`, `\t`, … or
    /// `\u00XX`). `pretty` indents nested containers by two spaces and writes `"key": value`.
    ///
    /// ```swift
    /// let value: JSONValue = ["a": [1, 2]]
    /// value.serialized()              // {"a":[1,2]}
    /// value.serialized(pretty: true)  // {\n  "a": [\n    1,\n    2\n  ]\n}
    /// ```
    public func serialized(pretty: Bool = false) -> String {
        var writer = JSONWriter(pretty: pretty)
        writer.write(self, indent: 0)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// At most `maxBytes` bytes of this value's JSON text (cut on a UTF-8
    /// character boundary) and how many bytes the whole text has beyond them.
    ///
    /// Past the budget the writer only counts, so an 18 MB pretty-printing of a
    /// deeply nested value costs no 18 MB of memory.
    ///
    /// ```swift
    /// let (text, omitted) = value.serialized(pretty: true, maxBytes: 4096)
    /// ```
    public func serialized(pretty: Bool = false, maxBytes: Int) -> (text: String, omittedBytes: Int) {
        var writer = JSONWriter(pretty: pretty, maxBytes: max(0, maxBytes))
        writer.write(self, indent: 0)
        // Never end inside a multi-byte character.
        var kept = writer.bytes.count
        if writer.total > kept {
            var lead = kept
            while lead > 0, writer.bytes[lead - 1] & 0xC0 == 0x80 { lead -= 1 }
            if lead > 0, writer.bytes[lead - 1] >= 0xC0 {
                let first = writer.bytes[lead - 1]
                let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : 2
                if kept - (lead - 1) < length { kept = lead - 1 }
            }
        }
        let text = String(decoding: writer.bytes[..<kept], as: UTF8.self)
        return (text, writer.total - kept)
    }

    /// The JSON text of this value as UTF-8 bytes.
    public func serializedBytes(pretty: Bool = false) -> [UInt8] {
        var writer = JSONWriter(pretty: pretty)
        writer.write(self, indent: 0)
        return writer.bytes
    }

    /// The pretty JSON text of this value as it is written `level` containers deep in a
    /// larger document (its lines indented by two spaces a level, the first one not), for
    /// a document written a part at a time.
    package func serializedBytes(prettyAtLevel level: Int) -> [UInt8] {
        var writer = JSONWriter(pretty: true)
        writer.write(self, indent: level)
        return writer.bytes
    }
}

extension String {
    /// This string as a JSON string literal, quotes included.
    var jsonQuoted: String {
        var writer = JSONWriter(pretty: false)
        writer.writeString(self)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

struct JSONWriter {
    let pretty: Bool
    /// Bytes kept in `bytes`; beyond them output is only counted in `total`.
    let maxBytes: Int
    private(set) var bytes: [UInt8] = []
    /// The length of the whole text, kept or not.
    private(set) var total = 0

    init(pretty: Bool, maxBytes: Int = .max) {
        self.pretty = pretty
        self.maxBytes = maxBytes
    }

    private mutating func emit(_ byte: UInt8) {
        total += 1
        if bytes.count < maxBytes { bytes.append(byte) }
    }

    private mutating func emit(_ text: some Collection<UInt8>) {
        let count = text.count
        total += count
        let room = maxBytes - bytes.count
        guard room > 0 else { return }
        if count <= room { bytes.append(contentsOf: text) } else { bytes.append(contentsOf: text.prefix(room)) }
    }

    private mutating func emitSpaces(_ count: Int) {
        total += count
        let room = maxBytes - bytes.count
        guard room > 0 else { return }
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: min(count, room)))
    }

    mutating func write(_ value: JSONValue, indent: Int) {
        switch value {
        case .null: emit("null".utf8)
        case .bool(let b): emit((b ? "true" : "false").utf8)
        case .number(let n): emit(n.text.utf8)
        case .string(let s): writeString(s)
        case .array(let elements):
            guard !elements.isEmpty else {
                emit("[]".utf8)
                return
            }
            emit(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { emit(UInt8(ascii: ",")) }
                newline(indent + 1)
                write(element, indent: indent + 1)
            }
            newline(indent)
            emit(UInt8(ascii: "]"))
        case .object(let object):
            guard !object.isEmpty else {
                emit("{}".utf8)
                return
            }
            emit(UInt8(ascii: "{"))
            for (i, member) in object.enumerated() {
                if i > 0 { emit(UInt8(ascii: ",")) }
                newline(indent + 1)
                writeString(member.key)
                emit(UInt8(ascii: ":"))
                if pretty { emit(UInt8(ascii: " ")) }
                write(member.value, indent: indent + 1)
            }
            newline(indent)
            emit(UInt8(ascii: "}"))
        }
    }

    private mutating func newline(_ indent: Int) {
        guard pretty else { return }
        emit(UInt8(ascii: "\n"))
        emitSpaces(indent * 2)
    }

    mutating func writeString(_ string: String) {
        emit(UInt8(ascii: "\""))
        let utf8 = string.utf8
        if bytes.count >= maxBytes {
            // Past the budget: only the length matters, without a call per byte.
            total += Self.escapedLength(utf8) + 1
            return
        }
        if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            emit(utf8)
        } else {
            var index = utf8.startIndex
            while index < utf8.endIndex {
                if bytes.count >= maxBytes {
                    total += Self.escapedLength(utf8[index...])
                    break
                }
                let b = utf8[index]
                utf8.formIndex(after: &index)
                switch b {
                case UInt8(ascii: "\""): emit(#"\""#.utf8)
                case UInt8(ascii: "\\"): emit(#"\\"#.utf8)
                case 0x0A: emit(#"\n"#.utf8)
                case 0x0D: emit(#"\r"#.utf8)
                case 0x09: emit(#"\t"#.utf8)
                case 0x08: emit(#"\b"#.utf8)
                case 0x0C: emit(#"\f"#.utf8)
                case 0..<0x20:
                    emit(#"\u00"#.utf8)
                    emit(hexString(UInt32(b), width: 2).lowercased().utf8)
                default: emit(b)
                }
            }
        }
        emit(UInt8(ascii: "\""))
    }

    /// The length of `utf8` once escaped as `writeString` escapes it (quotes excluded).
    private static func escapedLength(_ utf8: some Collection<UInt8>) -> Int {
        func count(_ buffer: UnsafeBufferPointer<UInt8>) -> Int {
            var length = buffer.count
            for b in buffer where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
                switch b {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x0A, 0x0D, 0x09, 0x08, 0x0C: length += 1
                default: length += 5
                }
            }
            return length
        }
        if let length = utf8.withContiguousStorageIfAvailable(count) { return length }
        return Array(utf8).withUnsafeBufferPointer(count)
    }
}
