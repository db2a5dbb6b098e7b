/// A small XML reader for the reports Courier merges (JUnit): elements, attributes,
/// text, CDATA, comments, processing instructions and a DOCTYPE without an
/// internal subset. No namespaces, no external entities (nothing is ever fetched).
///
/// Strict about well-formedness (XML 1.0, §2): the merged report copies the inputs'
/// elements byte for byte, so whatever an input gets away with here, a CI's parser
/// would reject in the merged file. Every character must be a legal XML `Char` in
/// valid UTF-8 (no NUL or other C0 control but tab, LF and CR; no U+FFFE or U+FFFF;
/// character references included), comments hold no `--`, text holds no `]]>`, the
/// XML declaration comes first and a DOCTYPE only before the root element.
///
/// Our own rather than Foundation's XMLParser: FoundationXML pulls libxml2 into
/// the binary, and a merge needs each element's exact source text (test cases are
/// copied byte for byte) and the line and column of whatever is wrong.
package struct XMLElement: Sendable {
    package var name: String
    /// In document order; values with their entities decoded.
    package var attributes: [(name: String, value: String)]
    package var children: [XMLElement]
    /// Byte offsets of `<` and just after the closing `>` in the document.
    package var start: Int
    package var end: Int

    package func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }
}

package struct XMLReadError: Error, Sendable, Equatable {
    package var message: String
    /// Byte offset in the document.
    package var offset: Int
}

package struct XMLReader {
    private let bytes: [UInt8]
    private var position = 0
    private var sawDoctype = false
    /// Deep enough for any report; a bound so a hostile file cannot exhaust the stack.
    private static let maxDepth = 64

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The document's root element.
    package static func parse(_ bytes: [UInt8]) throws(XMLReadError) -> XMLElement {
        var reader = XMLReader(bytes)
        return try reader.document()
    }

    /// The first error in the document, whether of its characters or of its structure.
    private mutating func document() throws(XMLReadError) -> XMLElement {
        let badCharacter = Self.firstIllegalCharacter(in: bytes)
        let root: XMLElement
        do throws(XMLReadError) {
            root = try structure()
        } catch {
            // A structural error after a bad character may only be its echo.
            if let badCharacter, badCharacter.offset <= error.offset { throw badCharacter }
            throw error
        }
        if let badCharacter { throw badCharacter }
        return root
    }

    private mutating func structure() throws(XMLReadError) -> XMLElement {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        let declarationOffset = position
        var root: XMLElement?
        while true {
            skipSpace()
            guard position < bytes.count else { break }
            guard bytes[position] == UInt8(ascii: "<") else {
                throw XMLReadError(message: root == nil ? "expected an XML element" : "text after the root element", offset: position)
            }
            if hasPrefix("<?") {
                try processingInstruction(atDocumentStart: position == declarationOffset)
                continue
            }
            if hasPrefix("<!DOCTYPE") {
                guard root == nil else { throw XMLReadError(message: "a DOCTYPE after the root element", offset: position) }
                guard !sawDoctype else { throw XMLReadError(message: "a second DOCTYPE", offset: position) }
                sawDoctype = true
                try skip(past: ">", from: position, what: "DOCTYPE")
                continue
            }
            if try skipComment() { continue }
            guard root == nil else { throw XMLReadError(message: "a second root element", offset: position) }
            root = try element(depth: 0)
        }
        guard let root else { throw XMLReadError(message: "no root element (empty file?)", offset: position) }
        return root
    }

    /// Skips a comment at `position`; false when there is none. `--` ends a comment, so
    /// it may only be followed by `>`.
    private mutating func skipComment() throws(XMLReadError) -> Bool {
        guard hasPrefix("<!--") else { return false }
        let start = position
        position += 4
        while position + 1 < bytes.count {
            if bytes[position] == UInt8(ascii: "-"), bytes[position + 1] == UInt8(ascii: "-") {
                guard position + 2 < bytes.count, bytes[position + 2] == UInt8(ascii: ">") else {
                    throw XMLReadError(message: "'--' inside a comment", offset: position)
                }
                position += 3
                return true
            }
            position += 1
        }
        throw XMLReadError(message: "unterminated comment", offset: start)
    }

    /// Skips the processing instruction at `position`. Its target `xml` (in any case) is
    /// the XML declaration, which only the document's first bytes may hold.
    private mutating func processingInstruction(atDocumentStart: Bool) throws(XMLReadError) {
        let start = position
        position += 2
        let target = try name()
        if target.lowercased() == "xml" {
            guard atDocumentStart, target == "xml" else {
                throw XMLReadError(message: "an XML declaration that is not at the very start of the document", offset: start)
            }
        }
        try skip(past: "?>", from: start, what: "processing instruction")
    }

    private mutating func element(depth: Int) throws(XMLReadError) -> XMLElement {
        let start = position
        guard depth < Self.maxDepth else { throw XMLReadError(message: "elements nested deeper than \(Self.maxDepth)", offset: start) }
        position += 1
        let name = try self.name()
        var attributes: [(name: String, value: String)] = []
        var attributeNames: Set<String> = []
        while true {
            let hadSpace = skipSpace()
            guard position < bytes.count else { throw XMLReadError(message: "unterminated start tag <\(name)>", offset: start) }
            if hasPrefix("/>") {
                position += 2
                return XMLElement(name: name, attributes: attributes, children: [], start: start, end: position)
            }
            if bytes[position] == UInt8(ascii: ">") {
                position += 1
                break
            }
            guard hadSpace else { throw XMLReadError(message: "expected a space, '>' or '/>' in <\(name)>", offset: position) }
            let attributeOffset = position
            let attributeName = try self.name()
            guard attributeNames.insert(attributeName).inserted else {
                throw XMLReadError(message: "attribute '\(attributeName)' given twice", offset: attributeOffset)
            }
            let value = try attributeValue(of: attributeName, inStartTagOf: name, at: start)
            attributes.append((attributeName, value))
        }
        var children: [XMLElement] = []
        while true {
            guard position < bytes.count else { throw XMLReadError(message: "<\(name)> is never closed", offset: start) }
            if bytes[position] != UInt8(ascii: "<") {
                let textStart = position
                while position < bytes.count, bytes[position] != UInt8(ascii: "<") {
                    if bytes[position] == UInt8(ascii: ">"), position - textStart >= 2,
                       bytes[position - 1] == UInt8(ascii: "]"), bytes[position - 2] == UInt8(ascii: "]") {
                        throw XMLReadError(message: "']]>' in text (write ]]&gt;)", offset: position - 2)
                    }
                    position += 1
                }
                _ = try decode(textStart..<position)
            } else if hasPrefix("<![CDATA[") {
                try skip(past: "]]>", from: position, what: "CDATA section")
            } else if hasPrefix("</") {
                let closeStart = position
                position += 2
                let closing = try self.name()
                skipSpace()
                guard closing == name else {
                    throw XMLReadError(message: "</\(closing)> closes <\(name)>", offset: closeStart)
                }
                guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
                    throw XMLReadError(message: "expected '>' to end </\(closing)>", offset: position)
                }
                position += 1
                return XMLElement(name: name, attributes: attributes, children: children, start: start, end: position)
            } else if hasPrefix("<?") {
                try processingInstruction(atDocumentStart: false)
            } else if hasPrefix("<!DOCTYPE") {
                throw XMLReadError(message: "a DOCTYPE inside an element", offset: position)
            } else if try skipComment() {
                continue
            } else {
                children.append(try element(depth: depth + 1))
            }
        }
    }

    /// `= "value"` after an attribute's name, the value decoded.
    private mutating func attributeValue(of attributeName: String, inStartTagOf element: String,
                                         at tagStart: Int) throws(XMLReadError) -> String {
        skipSpace()
        guard position < bytes.count else { throw XMLReadError(message: "unterminated start tag <\(element)>", offset: tagStart) }
        guard bytes[position] == UInt8(ascii: "=") else {
            throw XMLReadError(message: "expected '=' after attribute '\(attributeName)'", offset: position)
        }
        position += 1
        skipSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") else {
            throw XMLReadError(message: "expected a quoted value for attribute '\(attributeName)'", offset: position)
        }
        let quote = bytes[position]
        position += 1
        let valueStart = position
        while position < bytes.count, bytes[position] != quote {
            if bytes[position] == UInt8(ascii: "<") { throw XMLReadError(message: "'<' in an attribute value", offset: position) }
            position += 1
        }
        guard position < bytes.count else { throw XMLReadError(message: "unterminated attribute value", offset: valueStart - 1) }
        let value = try decode(valueStart..<position)
        position += 1
        return value
    }

    private mutating func name() throws(XMLReadError) -> String {
        let start = position
        while position < bytes.count, Self.isNameByte(bytes[position], first: position == start) { position += 1 }
        guard position > start else { throw XMLReadError(message: "expected a name", offset: start) }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"), UInt8(ascii: ":"), 0x80...0xFF:
            return true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
            return !first
        default:
            return false
        }
    }

    /// Text with its references decoded; an unknown or unterminated one is an error.
    private func decode(_ range: Range<Int>) throws(XMLReadError) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "&") else {
                out.append(byte)
                index += 1
                continue
            }
            // The longest reference (`&#x10FFFF;`) is 10 bytes: look no further for its end.
            guard let semicolon = bytes[index..<min(index + 11, range.upperBound)].firstIndex(of: UInt8(ascii: ";")) else {
                throw XMLReadError(message: "'&' that starts no entity reference (write &amp;)", offset: index)
            }
            let reference = String(decoding: bytes[(index + 1)..<semicolon], as: UTF8.self)
            switch reference {
            case "lt": out.append(UInt8(ascii: "<"))
            case "gt": out.append(UInt8(ascii: ">"))
            case "amp": out.append(UInt8(ascii: "&"))
            case "quot": out.append(UInt8(ascii: "\""))
            case "apos": out.append(UInt8(ascii: "'"))
            default:
                guard let number = Self.characterNumber(reference) else {
                    throw XMLReadError(message: "unknown entity '&\(reference);'", offset: index)
                }
                guard let scalar = Unicode.Scalar(number), Self.isLegal(scalar) else {
                    throw XMLReadError(message: "'&\(reference);' refers to a character XML does not allow", offset: index)
                }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            }
            index = semicolon + 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The number of a character reference's text (`#65`, `#x41`): digits only, no sign.
    private static func characterNumber(_ reference: String) -> UInt32? {
        let hex = reference.hasPrefix("#x")
        guard hex || reference.hasPrefix("#") else { return nil }
        let digits = reference.dropFirst(hex ? 2 : 1)
        guard !digits.isEmpty, digits.allSatisfy({ hex ? $0.isHexDigit : ("0"..."9").contains($0) }) else { return nil }
        return UInt32(digits, radix: hex ? 16 : 10)
    }

    /// XML 1.0's `Char`: tab, LF, CR, and U+0020 up, without the surrogates, U+FFFE and U+FFFF.
    private static func isLegal(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// The first byte that does not start a legal character in valid UTF-8, as an error.
    private static func firstIllegalCharacter(in bytes: [UInt8]) -> XMLReadError? {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x20, byte < 0x80 {
                index += 1
                continue
            }
            if byte < 0x20 {
                guard byte == 0x09 || byte == 0x0A || byte == 0x0D else {
                    return XMLReadError(message: "control character U+\(hex4(UInt32(byte))) (not allowed in XML, even as a reference)", offset: index)
                }
                index += 1
                continue
            }
            guard let (scalar, length) = utf8Scalar(in: bytes, at: index) else {
                return XMLReadError(message: "bytes that are not UTF-8", offset: index)
            }
            guard isLegal(scalar) else {
                return XMLReadError(message: "character U+\(hex4(scalar.value)) (not allowed in XML)", offset: index)
            }
            index += length
        }
        return nil
    }

    /// The scalar a multi-byte UTF-8 sequence at `index` encodes, and its length; nil for
    /// a stray continuation byte, a truncated or overlong sequence, or a surrogate.
    private static func utf8Scalar(in bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[index]
        let length: Int, minimum: UInt32
        switch lead {
        case 0xC2...0xDF: (length, minimum) = (2, 0x80)
        case 0xE0...0xEF: (length, minimum) = (3, 0x800)
        case 0xF0...0xF4: (length, minimum) = (4, 0x10000)
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        var value = UInt32(lead) & (0xFF >> (length + 1))
        for offset in 1..<length {
            let next = bytes[index + offset]
            guard next & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(next & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }

    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    @discardableResult
    private mutating func skipSpace() -> Bool {
        let start = position
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        return position > start
    }

    private func hasPrefix(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        return bytes.count - position >= utf8.count && bytes[position..<(position + utf8.count)].elementsEqual(utf8)
    }

    private mutating func skip(past terminator: String, from start: Int, what: String) throws(XMLReadError) {
        let utf8 = Array(terminator.utf8)
        while position + utf8.count <= bytes.count {
            if bytes[position..<(position + utf8.count)].elementsEqual(utf8) {
                position += utf8.count
                return
            }
            position += 1
        }
        throw XMLReadError(message: "unterminated \(what)", offset: start)
    }
}
