/// A small XML reader for the reports Courier merges (JUnit): elements, attributes,
/// text, CDATA, comments, processing instructions and a DOCTYPE without an
/// internal subset. No namespaces, no external entities (nothing is ever fetched).
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

    /// 1-based line and column (in bytes) of `offset` in `bytes`.
    package static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1, lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return (line, offset - lineStart + 1)
    }

    private mutating func document() throws(XMLReadError) -> XMLElement {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        var root: XMLElement?
        while true {
            skipSpace()
            guard position < bytes.count else { break }
            guard bytes[position] == UInt8(ascii: "<") else {
                throw XMLReadError(message: root == nil ? "expected an XML element" : "text after the root element", offset: position)
            }
            if try skipMarkup() { continue }
            guard root == nil else { throw XMLReadError(message: "a second root element", offset: position) }
            root = try element(depth: 0)
        }
        guard let root else { throw XMLReadError(message: "no root element (empty file?)", offset: position) }
        return root
    }

    /// Skips a comment, processing instruction or DOCTYPE at `position`; false when it is none.
    private mutating func skipMarkup() throws(XMLReadError) -> Bool {
        let start = position
        if hasPrefix("<?") {
            try skip(past: "?>", from: start, what: "processing instruction")
        } else if hasPrefix("<!--") {
            try skip(past: "-->", from: start, what: "comment")
        } else if hasPrefix("<!DOCTYPE") {
            try skip(past: ">", from: start, what: "DOCTYPE")
        } else {
            return false
        }
        return true
    }

    private mutating func element(depth: Int) throws(XMLReadError) -> XMLElement {
        let start = position
        guard depth < Self.maxDepth else { throw XMLReadError(message: "elements nested deeper than \(Self.maxDepth)", offset: start) }
        position += 1
        let name = try self.name()
        var attributes: [(name: String, value: String)] = []
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
            if attributes.contains(where: { $0.name == attributeName }) {
                throw XMLReadError(message: "attribute '\(attributeName)' given twice", offset: attributeOffset)
            }
            skipSpace()
            guard position < bytes.count else { throw XMLReadError(message: "unterminated start tag <\(name)>", offset: start) }
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
            attributes.append((attributeName, value))
        }
        var children: [XMLElement] = []
        while true {
            guard position < bytes.count else { throw XMLReadError(message: "<\(name)> is never closed", offset: start) }
            if bytes[position] != UInt8(ascii: "<") {
                let textStart = position
                while position < bytes.count, bytes[position] != UInt8(ascii: "<") { position += 1 }
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
            } else if try skipMarkup() {
                continue
            } else {
                children.append(try element(depth: depth + 1))
            }
        }
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
            guard let semicolon = bytes[index..<range.upperBound].firstIndex(of: UInt8(ascii: ";")), semicolon - index <= 10 else {
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
                let number: UInt32? = reference.hasPrefix("#x") ? UInt32(reference.dropFirst(2), radix: 16)
                    : reference.hasPrefix("#") ? UInt32(reference.dropFirst(), radix: 10) : nil
                guard let number, let scalar = Unicode.Scalar(number) else {
                    throw XMLReadError(message: "unknown entity '&\(reference);'", offset: index)
                }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            }
            index = semicolon + 1
        }
        return String(decoding: out, as: UTF8.self)
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
