import Foundation

/// Standard output and error, unbuffered enough for CI logs to stream.
enum Output {
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func err(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Whether to colour: `--color always|never`, else only on a terminal and without `NO_COLOR`.
    static func useColor(_ choice: String?, fileDescriptor: Int32) -> Bool {
        switch choice {
        case "always": return true
        case "never": return false
        default:
            if let noColor = ProcessInfo.processInfo.environment["NO_COLOR"], !noColor.isEmpty { return false }
            if ProcessInfo.processInfo.environment["TERM"] == "dumb" { return false }
            return isatty(fileDescriptor) == 1
        }
    }
}

/// Exit statuses of the spec (section 11).
enum ExitCode {
    static let passed: Int32 = 0
    static let failed: Int32 = 1
    static let invalid: Int32 = 2
    static let internalError: Int32 = 3
    static let interrupted: Int32 = 130
}

/// A command-line mistake: printed as `error: …` with a pointer to `--help`, exit 2.
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
