import Foundation

/// One long-lived `validate_junit.py --serve` for the whole test run: importing `xmlschema` and
/// building the schema take about a second, which per report would dominate the suite's time.
/// The Python process reads report paths from its stdin, so it ends with the test process.
actor SchemaValidator {
    enum Outcome: Sendable {
        case valid
        case invalid(String)
        case unavailable(String)
    }

    static let shared = SchemaValidator()

    private var process: Process?
    private var toPython: FileHandle?
    private var fromPython: FileHandle?
    private var pending = Data()
    private var unavailableReason: String?

    func validate(_ path: String) -> Outcome {
        if let unavailableReason { return .unavailable(unavailableReason) }
        do {
            try startIfNeeded()
            guard let toPython else { throw HarnessError("the validator is not running") }
            try toPython.write(contentsOf: Data((path + "\n").utf8))
            let line = try readLine()
            if line == "OK" { return .valid }
            if line.hasPrefix("INVALID ") {
                let json = Data(line.dropFirst("INVALID ".count).utf8)
                let reasons = (try? JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed]) as? String) ?? line
                return .invalid(reasons)
            }
            throw HarnessError("unexpected answer from validate_junit.py: \(line)")
        } catch is Unavailable {
            return .unavailable(unavailableReason ?? "the schema validator is unavailable")
        } catch {
            // A validator that stopped answering is a harness problem, not a schema verdict.
            process?.terminate()
            process = nil
            toPython = nil
            fromPython = nil
            return .invalid("the schema validator failed: \(error)")
        }
    }

    private func startIfNeeded() throws {
        if process != nil { return }
        let python = Paths.reportPython
        let schema = Paths.junitSchema
        guard FileManager.default.isExecutableFile(atPath: python) else {
            unavailableReason = "no Python at '\(python)' (run Scripts/venv.sh, or set COURIER_PYTHON)"
            throw Unavailable()
        }
        guard FileManager.default.fileExists(atPath: schema.path) else {
            unavailableReason = "no schema at '\(schema.path)' (run Scripts/corpora.sh, or set COURIER_CORPORA_CACHE)"
            throw Unavailable()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [Paths.validateJUnitScript.path, "--serve", schema.path]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        self.process = process
        toPython = input.fileHandleForWriting
        fromPython = output.fileHandleForReading
        let ready: String
        do {
            ready = try readLine()
        } catch {
            process.waitUntilExit()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            self.process = nil
            if process.terminationStatus == 3 {
                unavailableReason = stderr
                throw Unavailable()
            }
            throw HarnessError("validate_junit.py --serve exited with \(process.terminationStatus): \(stderr)")
        }
        guard ready == "READY" else { throw HarnessError("validate_junit.py --serve said '\(ready)'") }
    }

    /// Blocks until a whole line arrives (the validator answers within milliseconds).
    private func readLine() throws -> String {
        guard let fromPython else { throw HarnessError("the validator is not running") }
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                return line
            }
            let chunk = fromPython.availableData
            if chunk.isEmpty { throw HarnessError("validate_junit.py closed its output") }
            pending.append(chunk)
        }
    }

    private struct Unavailable: Error {}
}
