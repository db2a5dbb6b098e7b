/// A JSON report cut into its envelope and its workflows, so that `merge-reports` parses
/// one workflow at a time: the parsed tree of a whole report is several times its size
/// (a 35 MiB report peaked at 165 MiB), and one workflow's is small.
///
/// The cut only finds where `run.workflows[i]` begin and end; every piece is then parsed by
/// the JSON parser, which checks it. Anything the scanner does not expect (not an object,
/// no `run.workflows` array, a key twice, garbage between values) gives nil, and the report
/// is parsed whole, as before, so its errors keep their exact positions.
struct ReportSlices {
    /// The report with `run.workflows` emptied (`[]`).
    let envelope: [UInt8]
    /// Where each workflow of `run.workflows` is in the report's bytes.
    let workflows: [Range<Int>]

    init?(_ bytes: [UInt8]) {
        let scanner = Scanner(bytes: bytes)
        guard let (open, close, items) = scanner.findWorkflows() else { return nil }
        envelope = Array(bytes[..<(open + 1)]) + Array(bytes[close...])
        workflows = items
    }

    /// A class: an object's members are read by a closure that scans on.
    private final class Scanner {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        /// The `[` and `]` of `run.workflows` and its items, in a report `{ …, "run": { …, "workflows": [ … ] } }`.
        func findWorkflows() -> (open: Int, close: Int, items: [Range<Int>])? {
            var found: (open: Int, close: Int, items: [Range<Int>])?
            let complete = members { key in
                guard key == "run", peek() == UInt8(ascii: "{") else { return skipValue() }
                return members { key in
                    guard key == "workflows", peek() == UInt8(ascii: "[") else { return skipValue() }
                    guard found == nil, let array = items() else { return false }
                    found = array
                    return true
                }
            }
            skipSpace()
            guard complete, index == bytes.count else { return nil }
            return found
        }

        /// An object's members, each value read by `value` (which returns false to give up).
        private func members(_ value: (String) -> Bool) -> Bool {
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return false }
            skipSpace()
            if take(UInt8(ascii: "}")) { return true }
            var keys: Set<String> = []
            while true {
                skipSpace()
                guard let key = string(), keys.insert(key).inserted else { return false }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return false }
                skipSpace()
                guard value(key) else { return false }
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                return take(UInt8(ascii: "}"))
            }
        }

        /// An array's items as ranges; the array's `[` and `]`.
        private func items() -> (open: Int, close: Int, items: [Range<Int>])? {
            let open = index
            guard take(UInt8(ascii: "[")) else { return nil }
            var ranges: [Range<Int>] = []
            skipSpace()
            if peek() == UInt8(ascii: "]") { index += 1; return (open, index - 1, []) }
            while true {
                skipSpace()
                let start = index
                guard skipValue() else { return nil }
                ranges.append(start..<index)
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                guard peek() == UInt8(ascii: "]") else { return nil }
                index += 1
                return (open, index - 1, ranges)
            }
        }

        /// Past one value, whatever it holds (the parser checks it later).
        private func skipValue() -> Bool {
            guard let first = peek() else { return false }
            switch first {
            case UInt8(ascii: "\""):
                return string() != nil
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while let byte = peek() {
                    switch byte {
                    case UInt8(ascii: "\""):
                        guard string() != nil else { return false }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                    default: break
                    }
                    index += 1
                    if depth == 0 { return true }
                }
                return false
            default:
                // A number or a literal: up to the next delimiter.
                let start = index
                while let byte = peek(), !Self.delimiters.contains(byte) { index += 1 }
                return index > start
            }
        }

        /// A string's text when it has no escapes (keys are compared), else "" — or nil when unterminated.
        private func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            var escaped = false
            while let byte = peek() {
                index += 1
                if byte == UInt8(ascii: "\\") { escaped = true; index += 1; continue }
                if byte == UInt8(ascii: "\"") {
                    return escaped ? "" : String(decoding: bytes[start..<(index - 1)], as: UTF8.self)
                }
            }
            return nil
        }

        private static let delimiters: Set<UInt8> = [UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"),
                                                     0x20, 0x09, 0x0A, 0x0D]

        private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

        private func take(_ byte: UInt8) -> Bool {
            guard peek() == byte else { return false }
            index += 1
            return true
        }

        private func skipSpace() {
            while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }
    }
}
