/// Reads the plain YAML that nearly every workflow file is written in, about five
/// times faster than libyaml (whose scanner was a third of loading a large workflow),
/// giving exactly the events libyaml gives for the same text.
///
/// It knows block mappings and sequences (indented with spaces), one-line flow
/// collections, one-line plain and quoted scalars and comments, in printable text.
/// Anything else — anchors, aliases, tags, block scalars (`|`, `>`), multi-line
/// scalars, `?` keys, document markers, tabs, CR, control characters, the line and
/// paragraph separators and byte order marks libyaml reads specially, and every error —
/// it declines (returns false), and the loader reads the text with libyaml instead:
/// the subset only has to be right, not complete. `CommonYAMLReaderTests` compares
/// both readers' events over the project's YAML files and generated variations.
enum CommonYAMLReader {
    /// Feeds `input`'s events to `sink`; false when the text is outside the subset (or
    /// the sink stopped), in which case what the sink received must be thrown away.
    static func read<Sink: YAMLEventSink>(_ input: UnsafeBufferPointer<UInt8>, into sink: inout Sink) -> Bool {
        var reader = Reader(input)
        guard reader.isPlainText() else { return false }
        return reader.document(into: &sink)
    }
}

/// One scalar read but not yet delivered: whether it is a key is known only after it.
private struct ScalarToken {
    var text: String
    var style: YAMLScalar.Style
    var start: YAMLMark
    var end: YAMLMark
}

private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    var line = 0
    /// Byte offset where the current line starts.
    var lineStart = 0
    /// Whether any byte is outside ASCII: columns then count characters, as libyaml's do.
    var hasNonASCII = false
    /// Where the text ends (a last line without a line break ends at its last byte).
    var textEnd = YAMLMark(line: 0, column: 0)

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private static let newline = UInt8(ascii: "\n")
    private static let space = UInt8(ascii: " ")
    private static let hash = UInt8(ascii: "#")
    private static let colon = UInt8(ascii: ":")
    private static let dash = UInt8(ascii: "-")

    var atEnd: Bool { position >= bytes.count }
    var column: Int { column(of: position) }

    /// The column (in characters) of byte `offset` of the current line.
    func column(of offset: Int) -> Int {
        guard hasNonASCII else { return offset - lineStart }
        var characters = 0
        for index in lineStart..<offset where bytes[index] & 0xC0 != 0x80 { characters += 1 }
        return characters
    }
    var mark: YAMLMark { YAMLMark(line: line, column: column) }

    /// Where a block collection indented by `indent` that ends here ends: at the next
    /// token; at the end of the text, libyaml first closes the collections indented deeper
    /// than the last line's length there, then moves to the start of a new line and
    /// closes the rest.
    func blockEndMark(indent: Int) -> YAMLMark {
        guard atEnd else { return mark }
        if textEnd.column > 0 && indent > textEnd.column { return textEnd }
        return YAMLMark(line: textEnd.column == 0 ? textEnd.line : textEnd.line + 1, column: 0)
    }

    /// The byte at `position + offset`, or 0 past the end.
    func peek(_ offset: Int = 0) -> UInt8 {
        let index = position + offset
        return index < bytes.count ? bytes[index] : 0
    }

    /// Whether the byte at `offset` is a space, a line break or the end.
    func isBlankOrEnd(_ offset: Int) -> Bool {
        let byte = peek(offset)
        return byte == Self.space || byte == Self.newline || byte == 0
    }

    /// Printable characters and line feeds only: no tab, CR or other control character,
    /// and none of the characters libyaml reads as a line break (U+2028, U+2029) or skips
    /// (U+FEFF), nor U+FFFE and U+FFFF. The text is valid UTF-8 (a Swift string's).
    /// Also finds where the stream ends.
    mutating func isPlainText() -> Bool {
        var lines = 0
        var lastLineStart = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == Self.newline {
                lines += 1
                lastLineStart = index + 1
            } else if byte >= 0x80 {
                hasNonASCII = true
                let next = index + 1 < bytes.count ? bytes[index + 1] : 0
                let third = index + 2 < bytes.count ? bytes[index + 2] : 0
                switch byte {
                case 0xC2 where next < 0xA0: return false                              // C1 controls, NEL
                case 0xE2 where next == 0x80 && (third == 0xA8 || third == 0xA9): return false
                case 0xEF where next == 0xBB && third == 0xBF: return false              // U+FEFF
                case 0xEF where next == 0xBF && (third == 0xBE || third == 0xBF): return false
                default: break
                }
            } else if byte < 0x20 || byte == 0x7F {
                return false
            }
            index += 1
        }
        lineStart = lastLineStart
        textEnd = YAMLMark(line: lines, column: column(of: bytes.count))
        lineStart = 0
        return true
    }

    // MARK: Document

    mutating func document<Sink: YAMLEventSink>(into sink: inout Sink) -> Bool {
        guard lineStartIsPlain(), skipBlanks(), !atEnd else { return false }
        guard sink.documentStart(start: mark, end: mark) else { return false }
        guard blockNode(parentIndent: -1, into: &sink) else { return false }
        return atEnd
    }

    /// Moves past spaces, comments and line breaks to the next content byte (or the end);
    /// false when a line starts with a document marker (`---`, `...`).
    mutating func skipBlanks() -> Bool {
        while !atEnd {
            switch bytes[position] {
            case Self.space:
                position += 1
            case Self.newline:
                position += 1
                line += 1
                lineStart = position
                guard lineStartIsPlain() else { return false }
            case Self.hash:
                while !atEnd && bytes[position] != Self.newline { position += 1 }
            default:
                return true
            }
        }
        return true
    }

    /// Not a `---` or `...` line (document markers), nor a `%` directive.
    func lineStartIsPlain() -> Bool {
        let first = peek()
        if first == UInt8(ascii: "%") { return false }
        guard first == Self.dash || first == UInt8(ascii: ".") else { return true }
        return !(peek(1) == first && peek(2) == first && isBlankOrEnd(3))
    }

    /// After a node on its line: spaces, then a comment or nothing up to the line break.
    mutating func finishLine() -> Bool {
        let before = position
        while peek() == Self.space { position += 1 }
        if peek() == Self.hash {
            // A comment needs a space before it (`a#b` is text, `"a"#b` an error).
            guard position > before else { return false }
            while !atEnd && bytes[position] != Self.newline { position += 1 }
        }
        return peek() == Self.newline || atEnd
    }

    /// `- ` (or `-` at the end of its line): a block sequence entry.
    func atSequenceEntry() -> Bool {
        peek() == Self.dash && isBlankOrEnd(1)
    }

    // MARK: Block nodes

    /// The node that starts at the current content byte, more indented than its parent.
    mutating func blockNode<Sink: YAMLEventSink>(parentIndent: Int, into sink: inout Sink) -> Bool {
        if atSequenceEntry() { return blockSequence(indentless: false, into: &sink) }
        switch peek() {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            // A flow collection alone (the document's root, say), then nothing more indented.
            guard flowNode(into: &sink), finishLine(), skipBlanks() else { return false }
            return atEnd || column <= parentIndent
        default:
            // A block mapping; a scalar on a line of its own may go on over more lines: declined.
            guard let key = scalar(flow: false), atMappingValue(afterKeyStarting: key.start) else { return false }
            return blockMapping(firstKey: key, into: &sink)
        }
    }

    /// At `:` followed by a space or a line break (a block mapping's value indicator),
    /// after spaces; a key longer than libyaml's 1,024 characters is declined.
    mutating func atMappingValue(afterKeyStarting start: YAMLMark) -> Bool {
        while peek() == Self.space { position += 1 }
        guard peek() == Self.colon, isBlankOrEnd(1), line == start.line, column - start.column < 1000 else { return false }
        return true
    }

    /// A block mapping whose first key was read; the reader is at that key's `:`.
    mutating func blockMapping<Sink: YAMLEventSink>(firstKey: ScalarToken, into sink: inout Sink) -> Bool {
        let indent = firstKey.start.column
        guard sink.collectionStart(.mapping, flow: false, tag: nil, anchor: nil, start: firstKey.start, end: firstKey.start) else { return false }
        var key = firstKey
        while true {
            // At the `:` after `key`.
            position += 1
            let valueMark = mark
            guard deliver(key, into: &sink) else { return false }
            guard mappingValue(indent: indent, emptyAt: valueMark, into: &sink) else { return false }
            // At the next content byte: another key of this mapping, or an end.
            if atEnd || column < indent { break }
            guard column == indent, let next = scalar(flow: false), atMappingValue(afterKeyStarting: next.start) else { return false }
            key = next
        }
        let end = blockEndMark(indent: indent)
        return sink.collectionEnd(start: end, end: end)
    }

    /// The value after `key:` of a mapping at `indent`, up to the next content byte.
    mutating func mappingValue<Sink: YAMLEventSink>(indent: Int, emptyAt valueMark: YAMLMark, into sink: inout Sink) -> Bool {
        if valueOnLaterLines() {
            // A sequence at the key's own indentation (`key:` then `- item`) is its value too.
            return laterLinesNode(parentIndent: indent, indentlessSequence: true, emptyAt: valueMark, into: &sink)
        }
        guard inlineNode(into: &sink), finishLine(), skipBlanks() else { return false }
        // A more indented line would continue a plain scalar (or be an error): declined.
        return atEnd || column <= indent
    }

    /// A block sequence whose first `-` the reader is at. An indentless one (`key:` then
    /// `- item` at the key's indentation) ends at the first line of that indentation
    /// that is no entry; libyaml also marks its start one column wider.
    mutating func blockSequence<Sink: YAMLEventSink>(indentless: Bool, into sink: inout Sink) -> Bool {
        let indent = column
        let start = mark
        let startEnd = indentless ? YAMLMark(line: line, column: column + 1) : start
        guard sink.collectionStart(.sequence, flow: false, tag: nil, anchor: nil, start: start, end: startEnd) else { return false }
        while true {
            // At `-`.
            position += 1
            let entryEnd = mark
            guard sequenceEntry(indent: indent, emptyAt: entryEnd, into: &sink) else { return false }
            if atEnd || column < indent { break }
            guard column == indent else { return false }
            if atSequenceEntry() { continue }
            guard indentless else { return false }
            break
        }
        let end = blockEndMark(indent: indent)
        return sink.collectionEnd(start: end, end: end)
    }

    /// One entry after its `-`, up to the next content byte.
    mutating func sequenceEntry<Sink: YAMLEventSink>(indent: Int, emptyAt entryEnd: YAMLMark, into sink: inout Sink) -> Bool {
        if valueOnLaterLines() {
            return laterLinesNode(parentIndent: indent, indentlessSequence: false, emptyAt: entryEnd, into: &sink)
        }
        // `- - a` (a sequence in a sequence on one line): declined.
        guard !atSequenceEntry() else { return false }
        if peek() != UInt8(ascii: "{") && peek() != UInt8(ascii: "[") {
            guard let token = scalar(flow: false) else { return false }
            let afterToken = position
            if atMappingValue(afterKeyStarting: token.start) {
                // `- key: value`: a mapping that starts on the entry's line.
                return blockMapping(firstKey: token, into: &sink)
            }
            position = afterToken
            guard deliver(token, into: &sink) else { return false }
        } else {
            guard flowNode(into: &sink) else { return false }
        }
        guard finishLine(), skipBlanks() else { return false }
        return atEnd || column <= indent
    }

    /// After `key:` or `-` and spaces: nothing but a comment or the line's end, so the
    /// node (if any) starts on a later line.
    mutating func valueOnLaterLines() -> Bool {
        while peek() == Self.space { position += 1 }
        return peek() == Self.newline || peek() == Self.hash || atEnd
    }

    /// The node that starts on a later line: a nested block (more indented than its parent),
    /// an indentless sequence where allowed, or nothing (an empty scalar at `emptyMark`).
    mutating func laterLinesNode<Sink: YAMLEventSink>(parentIndent: Int, indentlessSequence: Bool, emptyAt emptyMark: YAMLMark,
                                                      into sink: inout Sink) -> Bool {
        guard skipBlanks() else { return false }
        if !atEnd && column > parentIndent { return blockNode(parentIndent: parentIndent, into: &sink) }
        if indentlessSequence && !atEnd && column == parentIndent && atSequenceEntry() {
            return blockSequence(indentless: true, into: &sink)
        }
        return emptyScalar(at: emptyMark, into: &sink)
    }

    /// A value on the rest of a line: a flow collection or a scalar.
    mutating func inlineNode<Sink: YAMLEventSink>(into sink: inout Sink) -> Bool {
        if peek() == UInt8(ascii: "{") || peek() == UInt8(ascii: "[") { return flowNode(into: &sink) }
        guard let token = scalar(flow: false) else { return false }
        // `a: b: c` is an error; a `:` then a blank after a value ends nothing else.
        let afterToken = position
        while peek() == Self.space { position += 1 }
        if peek() == Self.colon && isBlankOrEnd(1) { return false }
        position = afterToken
        return deliver(token, into: &sink)
    }

    mutating func emptyScalar<Sink: YAMLEventSink>(at mark: YAMLMark, into sink: inout Sink) -> Bool {
        sink.scalar("", style: .plain, tag: nil, anchor: nil, byteCount: 0, start: mark, end: mark)
    }

    func deliver<Sink: YAMLEventSink>(_ token: ScalarToken, into sink: inout Sink) -> Bool {
        sink.scalar(token.text, style: token.style, tag: nil, anchor: nil, byteCount: token.text.utf8.count,
                    start: token.start, end: token.end)
    }

    // MARK: Flow collections (on one line)

    mutating func flowNode<Sink: YAMLEventSink>(into sink: inout Sink) -> Bool {
        let isMapping = peek() == UInt8(ascii: "{")
        let closer = isMapping ? UInt8(ascii: "}") : UInt8(ascii: "]")
        let start = mark
        position += 1
        guard sink.collectionStart(isMapping ? .mapping : .sequence, flow: true, tag: nil, anchor: nil, start: start, end: mark) else {
            return false
        }
        skipSpaces()
        var first = true
        while peek() != closer {
            if !first {
                // `,` then another entry (a trailing comma is declined).
                guard peek() == UInt8(ascii: ",") else { return false }
                position += 1
                skipSpaces()
                guard peek() != closer else { return false }
            }
            first = false
            if isMapping {
                guard flowPair(into: &sink) else { return false }
            } else {
                guard flowEntry(into: &sink) else { return false }
            }
            skipSpaces()
        }
        let end = mark
        position += 1
        return sink.collectionEnd(start: end, end: mark)
    }

    mutating func skipSpaces() {
        while peek() == Self.space { position += 1 }
    }

    /// `key: value` in a flow mapping; keys are scalars, values any flow node.
    mutating func flowPair<Sink: YAMLEventSink>(into sink: inout Sink) -> Bool {
        guard let key = scalar(flow: true) else { return false }
        skipSpaces()
        guard peek() == Self.colon else { return false }
        // After a plain key libyaml wants a blank (`a:b` is one scalar); a quoted key
        // may be followed by its value at once (`"a":1`, as in JSON).
        if key.style == .plain && peek(1) != Self.space { return false }
        guard column - key.start.column < 1000 else { return false }
        position += 1
        guard deliver(key, into: &sink) else { return false }
        skipSpaces()
        return flowEntry(into: &sink)
    }

    /// A flow node: a nested collection or a scalar (a `key: value` pair inside a flow
    /// sequence, `[a: b]`, is declined).
    mutating func flowEntry<Sink: YAMLEventSink>(into sink: inout Sink) -> Bool {
        if peek() == UInt8(ascii: "{") || peek() == UInt8(ascii: "[") { return flowNode(into: &sink) }
        guard let token = scalar(flow: true) else { return false }
        let afterToken = position
        skipSpaces()
        if peek() == Self.colon { return false }
        position = afterToken
        return deliver(token, into: &sink)
    }

    // MARK: Scalars (on one line)

    /// A plain, single- or double-quoted scalar starting here; nil (declined) for
    /// anything else or for one that goes on past its line.
    mutating func scalar(flow: Bool) -> ScalarToken? {
        switch peek() {
        case UInt8(ascii: "\""): return doubleQuoted()
        case UInt8(ascii: "'"): return singleQuoted()
        default: return plain(flow: flow)
        }
    }

    mutating func plain(flow: Bool) -> ScalarToken? {
        let first = peek()
        switch first {
        case UInt8(ascii: "-"):
            // `-1`, `-x`: a dash starts a scalar only before a letter, digit or dot here.
            let next = peek(1)
            guard (next >= UInt8(ascii: "0") && next <= UInt8(ascii: "9")) || (next | 0x20 >= UInt8(ascii: "a") && next | 0x20 <= UInt8(ascii: "z"))
                || next == UInt8(ascii: ".") else { return nil }
        case UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"),
             UInt8(ascii: "}"), UInt8(ascii: "#"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"),
             UInt8(ascii: ">"), UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "`"), Self.space, Self.newline, 0:
            return nil
        default:
            break
        }
        let start = position
        var end = position
        while !atEnd {
            let byte = bytes[position]
            if byte == Self.newline { break }
            if byte == Self.space {
                if peek(1) == Self.hash { break }
                position += 1
                continue
            }
            if byte == Self.colon {
                if isBlankOrEnd(1) { break }
                // In a flow collection libyaml versions differ on `:` inside a plain scalar.
                if flow { return nil }
            }
            if flow {
                switch byte {
                case UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"):
                    position = end
                    return token(from: start, to: end, style: .plain)
                case UInt8(ascii: "?"):
                    return nil
                default:
                    break
                }
            }
            position += 1
            end = position
        }
        position = end
        return token(from: start, to: end, style: .plain)
    }

    func token(from start: Int, to end: Int, style: YAMLScalar.Style) -> ScalarToken {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        return ScalarToken(text: text, style: style, start: YAMLMark(line: line, column: column(of: start)),
                           end: YAMLMark(line: line, column: column(of: end)))
    }

    /// `'…'` with `''` for a quote.
    mutating func singleQuoted() -> ScalarToken? {
        let quote = UInt8(ascii: "'")
        let start = position
        position += 1
        var text: [UInt8]? = nil
        var runStart = position
        while true {
            guard !atEnd, bytes[position] != Self.newline else { return nil }
            if bytes[position] == quote {
                if peek(1) == quote {
                    text = (text ?? []) + bytes[runStart...position]
                    position += 2
                    runStart = position
                    continue
                }
                break
            }
            position += 1
        }
        let closing = position
        position += 1
        return quoted(text, run: runStart..<closing, from: start, style: .singleQuoted)
    }

    /// `"…"` with the escapes JSON knows (`\"`, `\\`, `\/`, `\n`, `\t`, `\r`, `\uXXXX`);
    /// any other escape is declined.
    mutating func doubleQuoted() -> ScalarToken? {
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        let start = position
        position += 1
        var text: [UInt8]? = nil
        var runStart = position
        while true {
            guard !atEnd, bytes[position] != Self.newline else { return nil }
            let byte = bytes[position]
            if byte == quote { break }
            guard byte == backslash else {
                position += 1
                continue
            }
            var unescaped = text ?? []
            unescaped += bytes[runStart..<position]
            switch peek(1) {
            case UInt8(ascii: "\""): unescaped.append(quote)
            case UInt8(ascii: "\\"): unescaped.append(backslash)
            case UInt8(ascii: "/"): unescaped.append(UInt8(ascii: "/"))
            case UInt8(ascii: "n"): unescaped.append(Self.newline)
            case UInt8(ascii: "t"): unescaped.append(UInt8(ascii: "\t"))
            case UInt8(ascii: "r"): unescaped.append(UInt8(ascii: "\r"))
            case UInt8(ascii: "u"):
                var value: UInt32 = 0
                for offset in 2..<6 {
                    guard let digit = Self.hexValue(peek(offset)) else { return nil }
                    value = value * 16 + digit
                }
                // Control characters and surrogate halves: libyaml's own rules decide.
                guard value >= 0x20, value != 0x7F, !(0xD800...0xDFFF).contains(value), let scalar = Unicode.Scalar(value) else { return nil }
                unescaped += Array(String(Character(scalar)).utf8)
                position += 4
            default:
                return nil
            }
            position += 2
            runStart = position
            text = unescaped
        }
        let closing = position
        position += 1
        return quoted(text, run: runStart..<closing, from: start, style: .doubleQuoted)
    }

    /// The token of a quoted scalar: its unescaped bytes so far plus the last run.
    func quoted(_ text: [UInt8]?, run: Range<Int>, from start: Int, style: YAMLScalar.Style) -> ScalarToken {
        let startMark = YAMLMark(line: line, column: column(of: start))
        let endMark = YAMLMark(line: line, column: column)
        guard var text else {
            return ScalarToken(text: String(decoding: UnsafeBufferPointer(rebasing: bytes[run]), as: UTF8.self), style: style,
                               start: startMark, end: endMark)
        }
        text += bytes[run]
        return ScalarToken(text: String(decoding: text, as: UTF8.self), style: style, start: startMark, end: endMark)
    }

    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
