import CourierJSON
import Foundation

// `courier query [--paths] [--compact] JSONPATH [FILE]`: runs an RFC 9535 query over a JSON
// document and prints the nodelist as one JSON array.

let queryUsage = """
    usage: courier query [--paths] [--compact] JSONPATH [FILE]

    Evaluates an RFC 9535 JSONPath query on the JSON document in FILE (or standard input
    when FILE is omitted or '-') and prints the selected values as one JSON array.

    options:
      --paths     print the normalized paths of the selected nodes instead of their values
      --compact   print the array on one line
      -h, --help  show this help

    exit status: 0 on success (also when nothing matches), 2 for an invalid query, invalid
    JSON, an unreadable file or a usage error.
    """

/// Runs `courier query` with the arguments after the word `query`; returns the exit status.
func runQueryCommand(_ arguments: [String]) -> Int32 {
    let result = executeQueryCommand(arguments) {
        FileHandle.standardInput.readDataToEndOfFile()
    }
    if !result.standardOutput.isEmpty {
        FileHandle.standardOutput.write(Data(result.standardOutput.utf8))
    }
    if !result.standardError.isEmpty {
        FileHandle.standardError.write(Data(result.standardError.utf8))
    }
    return result.status
}

/// What `courier query` writes and returns, computed without touching the real streams.
struct QueryCommandResult: Equatable {
    var standardOutput = ""
    var standardError = ""
    var status: Int32 = 0
}

func executeQueryCommand(_ arguments: [String], readStandardInput: () -> Data) -> QueryCommandResult {
    var printPaths = false
    var compact = false
    var positionals: [String] = []
    var optionsEnded = false
    for argument in arguments {
        if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
            positionals.append(argument)
            continue
        }
        switch argument {
        case "--": optionsEnded = true
        case "--paths": printPaths = true
        case "--compact": compact = true
        case "-h", "--help": return QueryCommandResult(standardOutput: queryUsage + "\n")
        default: return usageError("unknown option '\(argument)'")
        }
    }
    guard let queryText = positionals.first else { return usageError("missing JSONPATH argument") }
    guard positionals.count <= 2 else { return usageError("unexpected argument '\(positionals[2])'") }

    let query: JSONPath
    do {
        query = try JSONPath(queryText)
    } catch {
        return QueryCommandResult(
            standardError: renderQueryDiagnostic(
                file: "<query>", source: Array(queryText.unicodeScalars), offset: error.offset, message: error.message),
            status: 2)
    }

    let fileName: String
    let bytes: Data
    if positionals.count == 2 && positionals[1] != "-" {
        fileName = positionals[1]
        switch readFile(atPath: fileName) {
        case .success(let data): bytes = data
        case .failure(let reason):
            return QueryCommandResult(standardError: "error: cannot read '\(fileName)': \(reason.message)\n", status: 2)
        }
    } else {
        fileName = "<stdin>"
        bytes = readStandardInput()
    }

    let document: JSONValue
    do {
        document = try JSONValue.parse(bytes)
    } catch {
        let (lineText, _) = sourceLine(in: bytes, at: error.offset)
        return QueryCommandResult(
            standardError: renderQueryDiagnostic(
                file: fileName, source: Array(lineText.unicodeScalars), offset: error.column - 1,
                message: error.message, line: error.line),
            status: 2)
    }

    let nodes = query.evaluate(document)
    let output: JSONValue = printPaths ? .array(nodes.map { .string($0.path) }) : .array(nodes.map(\.value))
    return QueryCommandResult(standardOutput: output.serialized(pretty: !compact) + "\n")
}

private func usageError(_ message: String) -> QueryCommandResult {
    QueryCommandResult(standardError: "error: \(message)\nusage: courier query [--paths] [--compact] JSONPATH [FILE]\n", status: 2)
}

private struct ReadFailure: Error {
    var message: String
}

private func readFile(atPath path: String) -> Result<Data, ReadFailure> {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return .failure(ReadFailure(message: String(cString: strerror(errno)))) }
    defer { close(descriptor) }
    var data = Data()
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 { return .failure(ReadFailure(message: String(cString: strerror(errno)))) }
        if count == 0 { return .success(data) }
        data.append(contentsOf: chunk[0..<count])
    }
}

/// The text of the line containing byte `offset`, and the offset where that line starts.
private func sourceLine(in bytes: Data, at offset: Int) -> (String, Int) {
    let clamped = min(max(offset, 0), bytes.count)
    var start = clamped
    while start > 0 && bytes[bytes.startIndex + start - 1] != UInt8(ascii: "\n") { start -= 1 }
    var end = clamped
    while end < bytes.count && bytes[bytes.startIndex + end] != UInt8(ascii: "\n") { end += 1 }
    if end > start && bytes[bytes.startIndex + end - 1] == UInt8(ascii: "\r") { end -= 1 }
    let text = String(decoding: bytes[(bytes.startIndex + start)..<(bytes.startIndex + max(start, end))], as: UTF8.self)
    return (text, start)
}

// MARK: - Diagnostics

/// Renders `file:line:col: error: message`, the source line and a caret under column `offset`.
///
/// `source` is the text the offset points into: the whole query, or for JSON the one line
/// (then `line` says which). Long lines are cut to a window around the caret.
/// The shared CourierDiagnostics renderer will replace this function.
func renderQueryDiagnostic(file: String, source: [Unicode.Scalar], offset: Int, message: String, line: Int? = nil) -> String {
    // Locate the line within `source` when it spans several lines (a query with newlines).
    var lineNumber = line ?? 1
    var lineStart = 0
    if line == nil {
        for i in 0..<min(offset, source.count) where source[i] == "\n" {
            lineNumber += 1
            lineStart = i + 1
        }
    }
    var lineEnd = lineStart
    while lineEnd < source.count && source[lineEnd] != "\n" && source[lineEnd] != "\r" { lineEnd += 1 }
    var text = Array(source[lineStart..<lineEnd])
    var caret = max(0, offset - lineStart)

    // Show at most 100 scalars around the caret: minified documents are one long line.
    let window = 100
    if text.count > window {
        let from = max(0, min(caret - window / 2, text.count - window))
        let to = min(text.count, from + window)
        let prefix: [Unicode.Scalar] = from > 0 ? ["."] + [".", "."] : []
        let suffix: [Unicode.Scalar] = to < text.count ? [".", ".", "."] : []
        text = prefix + Array(text[from..<to]) + suffix
        caret = caret - from + prefix.count
    }
    // Control characters (tabs…) would shift the caret; show them as spaces.
    let shown = String(String.UnicodeScalarView(text.map { $0.value < 0x20 ? " " : $0 }))

    let number = String(lineNumber)
    let gutter = String(repeating: " ", count: max(0, 5 - number.count)) + number
    let blank = String(repeating: " ", count: gutter.count)
    return """
        \(file):\(lineNumber):\(offset - lineStart + 1): error: \(message)
        \(gutter) | \(shown)
        \(blank) | \(String(repeating: " ", count: caret))^

        """
}
