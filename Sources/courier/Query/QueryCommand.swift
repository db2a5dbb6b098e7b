import CourierDiagnostics
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
    JSON, an unreadable file (a directory, a device such as /dev/zero, or more than 256 MiB)
    or a usage error.
    """

/// Runs `courier query` with the arguments after the word `query`; returns the exit status.
func runQueryCommand(_ arguments: [String]) -> Int32 {
    let result = executeQueryCommand(arguments) { () throws(FileReadError) -> Data in
        Data(try BoundedFileReader.readStandardInput(limit: queryInputLimit, what: "courier query input"))
    }
    Output.out(result.standardOutput)
    Output.err(result.standardError)
    return result.status
}

/// What `courier query` writes and returns, computed without touching the real streams.
struct QueryCommandResult: Equatable {
    var standardOutput = ""
    var standardError = ""
    var status: Int32 = 0
}

/// The most `courier query` reads from FILE or standard input: 256 MiB, like a response body.
/// A device (`/dev/zero`), a directory or a larger input is an error (exit 2), not a hang.
let queryInputLimit = 256 << 20

func executeQueryCommand(_ arguments: [String], readStandardInput: () throws(FileReadError) -> Data) -> QueryCommandResult {
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
            standardError: diagnostic(error.message, in: "<query>", text: queryText, scalarOffset: error.offset),
            status: 2)
    }

    let fileName: String
    let bytes: Data
    do throws(FileReadError) {
        if positionals.count == 2 && positionals[1] != "-" {
            fileName = positionals[1]
            bytes = Data(try BoundedFileReader.read(fileName, limit: queryInputLimit, what: "courier query input"))
        } else {
            fileName = "<stdin>"
            bytes = try readStandardInput()
        }
    } catch {
        return QueryCommandResult(standardError: "error: \(error.errorDescription ?? "cannot read input")\n", status: 2)
    }

    let document: JSONValue
    do {
        document = try JSONValue.parse(bytes)
    } catch {
        let location = SourceLocation(file: fileName, line: error.line, column: error.column)
        return QueryCommandResult(
            standardError: diagnostic(error.message, in: fileName, text: String(decoding: bytes, as: UTF8.self), at: location),
            status: 2)
    }

    let nodes: [JSONPathNode]
    do { nodes = try query.evaluateCheckingRegexBudget(document) } catch {
        return QueryCommandResult(standardError: "error: \(error)\n", status: 2)
    }
    let output: JSONValue = printPaths ? .array(nodes.map { .string($0.path) }) : .array(nodes.map(\.value))
    return QueryCommandResult(standardOutput: output.serialized(pretty: !compact) + "\n")
}

private func usageError(_ message: String) -> QueryCommandResult {
    QueryCommandResult(standardError: "error: \(message)\nusage: courier query [--paths] [--compact] JSONPATH [FILE]\n", status: 2)
}

// MARK: - Diagnostics

/// A diagnostic rendered by the one renderer every command uses.
private func diagnostic(_ message: String, in name: String, text: String, at location: SourceLocation) -> String {
    let sources = SourceStore()
    sources.register(path: name, text: text)
    let range = SourceRange(start: location, end: location.advanced(by: 1))
    return DiagnosticRenderer(sources: sources, color: false).render(.error(message, at: range))
}

/// The same, for an offset counted in Unicode scalars (JSONPath errors), which may fall on
/// any line of a query with newlines.
private func diagnostic(_ message: String, in name: String, text: String, scalarOffset: Int) -> String {
    var line = 1, column = 1
    for scalar in text.unicodeScalars.prefix(scalarOffset) {
        if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
    }
    return diagnostic(message, in: name, text: text, at: SourceLocation(file: name, line: line, column: column))
}
