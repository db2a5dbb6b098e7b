import CourierDiagnostics
import CourierReports
import CourierSecrets
import Foundation

/// Standard output and error, through the console writers: unbuffered, so CI logs
/// stream, and never a crash on a closed pipe or a full disk.
///
/// Every byte is masked with the process's ``secrets`` (one run per process):
/// diagnostics, warnings, the console reporter and reports all go through it.
enum Output {
    /// The secrets of this process's run: the engine registers into it, and
    /// every console write and report is masked with its policy.
    static let secrets = SecretRegistry()
    static let standardOutput = MaskedOutput(ConsoleWriter.standardOutput, secrets: secrets)
    static let standardError = MaskedOutput(ConsoleWriter.standardError, secrets: secrets)

    static func out(_ text: String) {
        standardOutput.write(text)
    }

    static func err(_ text: String) {
        standardError.write(text)
    }

    /// Diagnostics, in colour when asked for: only the colour reaches the terminal raw.
    static func err(_ text: TerminalText) {
        standardError.write(text)
    }

    /// The status to exit with once a command returned `status`: a console that could
    /// not be written (other than a reader that went away) turns 0 and 1 into 3, with
    /// one line on standard error. Invalid input (2) and signals (128 + n) keep theirs.
    static func exitStatus(after status: Int32) -> Int32 {
        let failure = ConsoleWriter.standardOutput.failure ?? ConsoleWriter.standardError.failure
        guard let failure else { return status }
        err("error: \(failure)\n")
        return status == ExitCode.passed || status == ExitCode.failed ? ExitCode.internalError : status
    }

    /// Whether to colour: `--color always|never`, else only on a terminal and without `NO_COLOR`.
    static func useColor(_ choice: String?, fileDescriptor: Int32) -> Bool {
        switch choice {
        case "always": return true
        case "never": return false
        default:
            // getenv, not ProcessInfo's environment: that copies every variable into a dictionary.
            if let noColor = getenv("NO_COLOR"), noColor.pointee != 0 { return false }
            if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
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
    /// With `--exit-codes detailed`: a step errored (transport, TLS, timeout, login), not
    /// only an expectation failed.
    static let errored: Int32 = 4

    /// 128 + the signal's number, as shells report a process a signal ended:
    /// 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP.
    static func interrupted(by signal: Int32) -> Int32 { 128 + signal }
}

/// A command-line mistake: printed as `error: …` with a pointer to `--help`, exit 2.
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
