extension JSONValue {
    /// Parses a JSON document (RFC 8259) from UTF-8 bytes.
    ///
    /// The bytes must be valid UTF-8; a leading byte order mark is skipped. Strings may not
    /// contain unpaired surrogate escapes (`"\uD800"`), which no Swift `String` can hold.
    /// Containers may nest at most `maxDepth` levels.
    ///
    /// ```swift
    /// let value = try JSONValue.parse(Array(#"[1, 2.50, "x"]"#.utf8))
    /// ```
    public static func parse(_ bytes: some Collection<UInt8>, maxDepth: Int = NestingLimit.maxDepth) throws(JSONParseError) -> JSONValue {
        let result = bytes.withContiguousStorageIfAvailable { buffer in
            parse(buffer: buffer, maxDepth: maxDepth)
        }
        let outcome = result ?? Array(bytes).withUnsafeBufferPointer { parse(buffer: $0, maxDepth: maxDepth) }
        return try outcome.get()
    }

    /// Parses a JSON document from a string.
    public static func parse(_ text: String, maxDepth: Int = NestingLimit.maxDepth) throws(JSONParseError) -> JSONValue {
        var text = text
        return try text.withUTF8 { parse(buffer: $0, maxDepth: maxDepth) }.get()
    }

    static func parse(buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) -> Result<JSONValue, JSONParseError> {
        guard let base = buffer.baseAddress, buffer.count > 0 else {
            return .failure(JSONParseError(offset: 0, line: 1, column: 1, message: "empty document: expected a JSON value"))
        }
        var parser = JSONParser(base: base, count: buffer.count, maxDepth: maxDepth)
        defer { parser.deallocate() }
        do {
            return .success(try parser.parseDocument())
        } catch {
            return .failure(JSONParseError.at(error.offset, in: buffer, error.message))
        }
    }
}

/// A parse failure before line and column are known.
struct JSONParseFailure: Error {
    var offset: Int
    var message: String
}

/// Recursive-descent parser over a contiguous UTF-8 buffer.
struct JSONParser {
    private let base: UnsafePointer<UInt8>
    private let count: Int
    private let maxDepth: Int
    private var position = 0
    private var depth = 0
    /// Scratch space for strings with escapes, reused across strings.
    private var scratch = MoveStack<UInt8>(capacity: 1024)
    /// Keys of objects that do not follow a shared key list.
    private var keyStack = MoveStack<String>()
    /// Key lists seen so far, as a tree: objects with the same keys in the same order share
    /// one ``ObjectKeys`` and do not even build key strings.
    private let shapes = ShapeNode(key: "", bytes: [], parent: nil)
    /// Elements of the arrays and objects being parsed. Containers are copied out at their
    /// end into arrays of exactly the right capacity, which keeps memory near the data size.
    private var elementStack = MoveStack<JSONValue>()

    init(base: UnsafePointer<UInt8>, count: Int, maxDepth: Int) {
        self.base = base
        self.count = count
        self.maxDepth = maxDepth
    }

    /// Frees the parser's stacks; call once when done.
    func deallocate() {
        elementStack.deallocate()
        keyStack.deallocate()
        scratch.deallocate()
    }

    mutating func parseDocument() throws(JSONParseFailure) -> JSONValue {
        if count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF { position = 3 }
        skipWhitespace()
        guard position < count else { throw fail(position, "expected a JSON value, found end of input") }
        let value = try parseValue()
        skipWhitespace()
        if position < count {
            throw fail(position, "unexpected \(describe(position)) after the JSON value")
        }
        return value
    }

    // MARK: - Values

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < count {
            let b = base[position]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 {
                position += 1
            } else {
                return
            }
        }
    }

    private mutating func parseValue() throws(JSONParseFailure) -> JSONValue {
        switch base[position] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        default:
            throw fail(position, "unexpected \(describe(position)), expected a JSON value")
        }
    }

    private mutating func expectLiteral(_ word: StaticString) throws(JSONParseFailure) {
        let length = word.utf8CodeUnitCount
        let bytes = word.utf8Start
        for i in 0..<length {
            guard position + i < count, base[position + i] == bytes[i] else {
                throw fail(position, "invalid literal, expected '\(word)'")
            }
        }
        position += length
    }

    private mutating func enter() throws(JSONParseFailure) {
        depth += 1
        if depth > maxDepth {
            throw fail(position, "nesting is deeper than \(maxDepth) levels")
        }
    }

    private mutating func parseArray() throws(JSONParseFailure) -> JSONValue {
        try enter()
        position += 1
        skipWhitespace()
        if position < count && base[position] == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array([])
        }
        let stackBase = elementStack.count
        while true {
            guard position < count else { throw fail(position, "unterminated array, expected a value or ']'") }
            elementStack.push(try parseValue())
            skipWhitespace()
            guard position < count else { throw fail(position, "unterminated array, expected ',' or ']'") }
            let b = base[position]
            position += 1
            if b == UInt8(ascii: ",") {
                skipWhitespace()
                if position < count && base[position] == UInt8(ascii: "]") {
                    throw fail(position - 1, "trailing comma in array")
                }
            } else if b == UInt8(ascii: "]") {
                depth -= 1
                return .array(elementStack.popArray(from: stackBase))
            } else {
                throw fail(position - 1, "unexpected \(describe(position - 1)) in array, expected ',' or ']'")
            }
        }
    }

    private mutating func parseObject() throws(JSONParseFailure) -> JSONValue {
        try enter()
        position += 1
        skipWhitespace()
        if position < count && base[position] == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(JSONObject())
        }
        let valueBase = elementStack.count
        let keyBase = keyStack.count
        // The shape node of the keys so far, or nil once this object's keys are kept as strings.
        var node: ShapeNode? = shapes
        while true {
            guard position < count else { throw fail(position, "unterminated object, expected a key or '}'") }
            guard base[position] == UInt8(ascii: "\"") else {
                throw fail(position, "unexpected \(describe(position)), expected a string key in double quotes")
            }
            let keyBytes = try parseStringBytes()
            if let current = node {
                if let next = current.child(matching: keyBytes) {
                    node = next
                } else if current.canGrow {
                    node = current.addChild(String(decoding: keyBytes, as: UTF8.self), bytes: keyBytes)
                } else {
                    for key in current.keyPath() { keyStack.push(key) }
                    keyStack.push(String(decoding: keyBytes, as: UTF8.self))
                    node = nil
                }
            } else {
                keyStack.push(String(decoding: keyBytes, as: UTF8.self))
            }
            skipWhitespace()
            guard position < count, base[position] == UInt8(ascii: ":") else {
                throw fail(position, "expected ':' after object key, found \(describe(position))")
            }
            position += 1
            skipWhitespace()
            guard position < count else { throw fail(position, "expected a value after ':', found end of input") }
            elementStack.push(try parseValue())
            skipWhitespace()
            guard position < count else { throw fail(position, "unterminated object, expected ',' or '}'") }
            let b = base[position]
            position += 1
            if b == UInt8(ascii: ",") {
                skipWhitespace()
                if position < count && base[position] == UInt8(ascii: "}") {
                    throw fail(position - 1, "trailing comma in object")
                }
            } else if b == UInt8(ascii: "}") {
                depth -= 1
                let values = elementStack.popArray(from: valueBase)
                if let node {
                    return .object(JSONObject(shape: node.objectKeys(), values: values))
                }
                return .object(JSONObject(keys: keyStack.popArray(from: keyBase), values: values))
            } else {
                throw fail(position - 1, "unexpected \(describe(position - 1)) in object, expected ',' or '}'")
            }
        }
    }

    // MARK: - Numbers

    private mutating func parseNumber() throws(JSONParseFailure) -> JSONNumber {
        let start = position
        if base[position] == UInt8(ascii: "-") {
            position += 1
            guard position < count, isDigit(base[position]) else {
                throw fail(position, "expected a digit after '-', found \(describe(position))")
            }
        }
        if base[position] == UInt8(ascii: "0") {
            position += 1
            if position < count && isDigit(base[position]) {
                throw fail(position - 1, "leading zeros are not allowed in numbers")
            }
        } else {
            while position < count && isDigit(base[position]) { position += 1 }
        }
        if position < count && base[position] == UInt8(ascii: ".") {
            position += 1
            guard position < count, isDigit(base[position]) else {
                throw fail(position, "expected a digit after '.', found \(describe(position))")
            }
            while position < count && isDigit(base[position]) { position += 1 }
        }
        if position < count && base[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < count && (base[position] == UInt8(ascii: "+") || base[position] == UInt8(ascii: "-")) {
                position += 1
            }
            guard position < count, isDigit(base[position]) else {
                throw fail(position, "expected a digit in the exponent, found \(describe(position))")
            }
            while position < count && isDigit(base[position]) { position += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: position - start), as: UTF8.self)
        return JSONNumber(uncheckedText: text)
    }

    @inline(__always)
    private func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }

    // MARK: - Strings

    /// Parses a string starting at its opening quote.
    private mutating func parseString() throws(JSONParseFailure) -> String {
        String(decoding: try parseStringBytes(), as: UTF8.self)
    }

    /// Parses a string starting at its opening quote and returns its validated UTF-8 bytes,
    /// pointing into the document or, for strings with escapes, into the scratch buffer (valid
    /// until the next string is parsed).
    private mutating func parseStringBytes() throws(JSONParseFailure) -> UnsafeBufferPointer<UInt8> {
        let start = position + 1
        var i = start
        // Fast path: no escapes. Validate UTF-8 as we go.
        while i < count {
            let b = base[i]
            if b == UInt8(ascii: "\"") {
                position = i + 1
                return UnsafeBufferPointer(start: base + start, count: i - start)
            } else if b == UInt8(ascii: "\\") {
                return try parseEscapedString(from: start, firstEscape: i)
            } else if b < 0x20 {
                throw fail(i, "unescaped control character \(scalarName(UInt32(b))) in string; write it as an escape")
            } else if b >= 0x80 {
                i = try validateUTF8Sequence(at: i)
            } else {
                i += 1
            }
        }
        throw fail(position, "unterminated string")
    }

    private mutating func parseEscapedString(from start: Int, firstEscape: Int) throws(JSONParseFailure) -> UnsafeBufferPointer<UInt8> {
        scratch.removeAll()
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + start, count: firstEscape - start))
        var i = firstEscape
        while i < count {
            let b = base[i]
            if b == UInt8(ascii: "\"") {
                position = i + 1
                return scratch.buffer
            } else if b == UInt8(ascii: "\\") {
                guard i + 1 < count else { break }
                let e = base[i + 1]
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.push(e)
                case UInt8(ascii: "b"): scratch.push(0x08)
                case UInt8(ascii: "f"): scratch.push(0x0C)
                case UInt8(ascii: "n"): scratch.push(0x0A)
                case UInt8(ascii: "r"): scratch.push(0x0D)
                case UInt8(ascii: "t"): scratch.push(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4(at: i + 2, escapeAt: i)
                    var length = 6
                    if scalar >= 0xD800 && scalar <= 0xDBFF {
                        guard i + 7 < count, base[i + 6] == UInt8(ascii: "\\"), base[i + 7] == UInt8(ascii: "u") else {
                            throw fail(i, "unpaired surrogate escape '\\u\(hexString(scalar))'; a high surrogate must be followed by a low one")
                        }
                        let low = try hex4(at: i + 8, escapeAt: i + 6)
                        guard low >= 0xDC00 && low <= 0xDFFF else {
                            throw fail(i + 6, "expected a low surrogate escape after '\\u\(hexString(scalar))', found '\\u\(hexString(low))'")
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        length = 12
                    } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                        throw fail(i, "unpaired low surrogate escape '\\u\(hexString(scalar))'")
                    }
                    appendUTF8(scalar)
                    i += length
                    continue
                default:
                    throw fail(i, "invalid escape '\\\(describeByte(e))' in string")
                }
                i += 2
            } else if b < 0x20 {
                throw fail(i, "unescaped control character \(scalarName(UInt32(b))) in string; write it as an escape")
            } else if b >= 0x80 {
                let next = try validateUTF8Sequence(at: i)
                scratch.append(contentsOf: UnsafeBufferPointer(start: base + i, count: next - i))
                i = next
            } else {
                scratch.push(b)
                i += 1
            }
        }
        throw fail(position, "unterminated string")
    }

    private func hex4(at index: Int, escapeAt: Int) throws(JSONParseFailure) -> UInt32 {
        guard index + 4 <= count else { throw fail(escapeAt, "incomplete unicode escape, expected 4 hex digits after '\\u'") }
        var value: UInt32 = 0
        for k in 0..<4 {
            let c = base[index + k]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - 0x30)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - 0x61 + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - 0x41 + 10)
            default: throw fail(index + k, "invalid hex digit \(describe(index + k)) in unicode escape")
            }
            value = value << 4 | digit
        }
        return value
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        if scalar < 0x80 {
            scratch.push(UInt8(scalar))
        } else if scalar < 0x800 {
            scratch.push(UInt8(0xC0 | scalar >> 6))
            scratch.push(UInt8(0x80 | scalar & 0x3F))
        } else if scalar < 0x10000 {
            scratch.push(UInt8(0xE0 | scalar >> 12))
            scratch.push(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.push(UInt8(0x80 | scalar & 0x3F))
        } else {
            scratch.push(UInt8(0xF0 | scalar >> 18))
            scratch.push(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.push(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.push(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Checks one multi-byte UTF-8 sequence at `i` and returns the index after it.
    private func validateUTF8Sequence(at i: Int) throws(JSONParseFailure) -> Int {
        let b0 = base[i]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch b0 {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: throw fail(i, "invalid UTF-8 byte 0x\(hexString(UInt32(b0), width: 2))")
        }
        guard i + length <= count else { throw fail(i, "truncated UTF-8 sequence") }
        let b1 = base[i + 1]
        guard b1 >= low && b1 <= high else { throw fail(i, "invalid UTF-8 sequence") }
        for k in 2..<max(length, 2) where base[i + k] & 0xC0 != 0x80 {
            throw fail(i, "invalid UTF-8 sequence")
        }
        return i + length
    }

    // MARK: - Errors

    private func fail(_ offset: Int, _ message: String) -> JSONParseFailure {
        JSONParseFailure(offset: offset, message: message)
    }

    /// `character 'x'`, `end of input`, … for messages.
    private func describe(_ offset: Int) -> String {
        guard offset < count else { return "end of input" }
        let b = base[offset]
        if b < 0x20 || b == 0x7F { return "character \(scalarName(UInt32(b)))" }
        if b < 0x80 { return "character '\(Character(Unicode.Scalar(b)))'" }
        var end = offset + 1
        while end < count && end < offset + 4 && base[end] & 0xC0 == 0x80 { end += 1 }
        if let text = String(validating: UnsafeBufferPointer(start: base + offset, count: end - offset), as: UTF8.self) {
            return "character '\(text)'"
        }
        return "byte 0x\(hexString(UInt32(b), width: 2))"
    }

    private func describeByte(_ b: UInt8) -> String {
        b >= 0x20 && b < 0x7F ? String(Character(Unicode.Scalar(b))) : "\\u{\(hexString(UInt32(b), width: 2))}"
    }
}

func hexString(_ value: UInt32, width: Int = 4) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

func scalarName(_ value: UInt32) -> String {
    "U+\(hexString(value))"
}
