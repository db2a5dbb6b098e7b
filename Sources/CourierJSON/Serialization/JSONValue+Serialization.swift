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

    /// The JSON text of this value as UTF-8 bytes.
    public func serializedBytes(pretty: Bool = false) -> [UInt8] {
        var writer = JSONWriter(pretty: pretty)
        writer.write(self, indent: 0)
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
    var bytes: [UInt8] = []

    init(pretty: Bool) {
        self.pretty = pretty
    }

    mutating func write(_ value: JSONValue, indent: Int) {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let b): bytes.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): bytes.append(contentsOf: n.text.utf8)
        case .string(let s): writeString(s)
        case .array(let elements):
            guard !elements.isEmpty else {
                bytes.append(contentsOf: "[]".utf8)
                return
            }
            bytes.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                write(element, indent: indent + 1)
            }
            newline(indent)
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            guard !object.isEmpty else {
                bytes.append(contentsOf: "{}".utf8)
                return
            }
            bytes.append(UInt8(ascii: "{"))
            for (i, member) in object.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                writeString(member.key)
                bytes.append(UInt8(ascii: ":"))
                if pretty { bytes.append(UInt8(ascii: " ")) }
                write(member.value, indent: indent + 1)
            }
            newline(indent)
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private mutating func newline(_ indent: Int) {
        guard pretty else { return }
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    mutating func writeString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        let utf8 = string.utf8
        if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: utf8)
        } else {
            for b in utf8 {
                switch b {
                case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
                case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
                case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
                case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
                case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
                case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
                case 0..<0x20:
                    bytes.append(contentsOf: #"\u00"#.utf8)
                    bytes.append(contentsOf: hexString(UInt32(b), width: 2).lowercased().utf8)
                default: bytes.append(b)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
