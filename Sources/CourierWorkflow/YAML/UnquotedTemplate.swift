import CourierDiagnostics
import Foundation

/// Finds the most common YAML mistake in a workflow: a plain value that starts with a
/// template (`url: {{ base }}/health`). YAML reads the `{` as the start of a flow mapping, so
/// libyaml reports "did not find expected key" somewhere after it, or the value silently
/// becomes a mapping. The fix is to quote the value: `url: "{{ base }}/health"`.
enum UnquotedTemplate {
    /// The error for an unquoted `{{` on one of the 1-based `lines` (searched last to first),
    /// at or before `limit` (a 1-based line and column), or nil when there is none.
    static func diagnostic(in input: UnsafeBufferPointer<UInt8>, lines: ClosedRange<Int>, before limit: (line: Int, column: Int),
                           file: String) -> Diagnostic? {
        let starts = lineStarts(in: input, upTo: lines.upperBound)
        for line in lines.reversed() where line - 1 < starts.count {
            let start = starts[line - 1]
            var end = start
            while end < input.count, input[end] != UInt8(ascii: "\n"), input[end] != UInt8(ascii: "\r") { end += 1 }
            let text = Array(input[start..<end])
            let found = candidates(in: text).last { offset in
                line < limit.line || column(of: offset, in: text) <= limit.column
            }
            if let offset = found {
                return diagnostic(line: line, text: text, offset: offset, file: file)
            }
        }
        return nil
    }

    /// The error for the `{{` at byte `offset` of line `line` (whose bytes are `text`).
    static func diagnostic(line: Int, text: [UInt8], offset: Int, file: String) -> Diagnostic {
        let column = column(of: offset, in: text)
        let value = String(decoding: text[offset..<valueEnd(in: text, from: offset)], as: UTF8.self)
        let range = SourceRange(file: file, startLine: line, startColumn: column, endLine: line, endColumn: column + 2)
        return .error("a value starting with '{{' must be quoted (YAML reads '{' as the start of a mapping): write \(quoted(value))",
                      at: range)
    }

    /// The byte offsets of `{{` that start a value (not inside quotes or a longer plain scalar).
    static func candidates(in text: [UInt8]) -> [Int] {
        var found: [Int] = []
        var index = 0
        var quote: UInt8?
        var previous: UInt8?  // last non-blank byte outside quotes
        var onlyIndicatorsBefore = true  // nothing but blanks and `- ` so far
        while index < text.count {
            let byte = text[index]
            if let open = quote {
                if byte == UInt8(ascii: "\\"), open == UInt8(ascii: "\"") { index += 2; continue }
                if byte == open { quote = nil; previous = byte }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                index += 1
                continue
            case UInt8(ascii: "#") where index == 0 || text[index - 1] == UInt8(ascii: " ") || text[index - 1] == UInt8(ascii: "\t"):
                return found
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                // A quote opens a scalar only where a value starts.
                if startsValue(previous: previous, onlyIndicatorsBefore: onlyIndicatorsBefore, text: text, at: index) { quote = byte }
            case UInt8(ascii: "{") where index + 1 < text.count && text[index + 1] == UInt8(ascii: "{"):
                if startsValue(previous: previous, onlyIndicatorsBefore: onlyIndicatorsBefore, text: text, at: index) {
                    found.append(index)
                }
                // Skip the template: its `{`, `}` and `:` are not YAML's.
                var close = index + 2
                while close + 1 < text.count, !(text[close] == UInt8(ascii: "}") && text[close + 1] == UInt8(ascii: "}")) { close += 1 }
                index = min(close + 2, text.count)
                previous = UInt8(ascii: "}")
                onlyIndicatorsBefore = false
                continue
            default:
                break
            }
            if byte != UInt8(ascii: "-") || index + 1 < text.count && text[index + 1] != UInt8(ascii: " ") {
                onlyIndicatorsBefore = onlyIndicatorsBefore && byte == UInt8(ascii: "-")
            }
            previous = byte
            index += 1
        }
        return found
    }

    /// Whether a value starts at `index`: after `key: `, a `- ` item, `? `, or inside `[`, `{`, `,`.
    private static func startsValue(previous: UInt8?, onlyIndicatorsBefore: Bool, text: [UInt8], at index: Int) -> Bool {
        guard let previous else { return true }
        switch previous {
        case UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ","):
            return true
        case UInt8(ascii: ":"), UInt8(ascii: "?"):
            // `key: value` needs the blank; `key:{{` is one plain scalar.
            return index > 0 && (text[index - 1] == UInt8(ascii: " ") || text[index - 1] == UInt8(ascii: "\t"))
        case UInt8(ascii: "-"):
            return onlyIndicatorsBefore
        default:
            return false
        }
    }

    /// Where the value starting at `start` ends: the end of the line (before a comment) in a
    /// block, the next `,` `]` `}` outside templates inside a flow collection.
    private static func valueEnd(in text: [UInt8], from start: Int) -> Int {
        var inFlow = false
        var before = start - 1
        while before >= 0, text[before] == UInt8(ascii: " ") || text[before] == UInt8(ascii: "\t") { before -= 1 }
        if before >= 0, [UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ",")].contains(text[before]) { inFlow = true }
        if !inFlow {
            // Any open flow collection before the value puts it in flow context.
            var depth = 0
            for byte in text[..<start] {
                if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") { depth += 1 }
                if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") { depth -= 1 }
            }
            inFlow = depth > 0
        }
        var index = start
        var end = text.count
        while index < text.count {
            if index + 1 < text.count, text[index] == UInt8(ascii: "{"), text[index + 1] == UInt8(ascii: "{") {
                var close = index + 2
                while close + 1 < text.count, !(text[close] == UInt8(ascii: "}") && text[close + 1] == UInt8(ascii: "}")) { close += 1 }
                index = close + 2
                continue
            }
            let byte = text[index]
            if byte == UInt8(ascii: "#"), index > start, text[index - 1] == UInt8(ascii: " ") { end = index; break }
            if inFlow, byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") { end = index; break }
            index += 1
        }
        end = min(end, text.count)
        while end > start, text[end - 1] == UInt8(ascii: " ") || text[end - 1] == UInt8(ascii: "\t") { end -= 1 }
        return end
    }

    /// `"value"`, or `'value'` when it holds a double quote and no single one.
    private static func quoted(_ value: String) -> String {
        if value.contains("\"") && !value.contains("'") { return "'\(value)'" }
        return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// The 1-based column (in Unicode scalars, as libyaml counts) of byte `offset` of `text`.
    private static func column(of offset: Int, in text: [UInt8]) -> Int {
        text[..<min(offset, text.count)].reduce(1) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
    }

    /// Byte offsets of the starts of lines 1...`last` (fewer when the input is shorter).
    private static func lineStarts(in input: UnsafeBufferPointer<UInt8>, upTo last: Int) -> [Int] {
        var starts = [0]
        var index = 0
        while index < input.count, starts.count < last {
            let byte = input[index]
            index += 1
            if byte == UInt8(ascii: "\n") {
                starts.append(index)
            } else if byte == UInt8(ascii: "\r") {
                if index < input.count, input[index] == UInt8(ascii: "\n") { index += 1 }
                starts.append(index)
            }
        }
        return starts
    }
}
