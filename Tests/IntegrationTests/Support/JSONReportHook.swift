import CourierJSON
import Foundation
import Testing

/// Every `courier run` the tests start through ``Courier/run(_:in:environment:timeout:interruptAfter:cpuSeconds:jsonReport:binary:sourceLocation:)``
/// also leaves a JSON report, validated against `docs/report.schema.json` with Courier's own
/// validator: the issue asks for the schema to hold for every integration workflow, and the
/// tests that look at the JSON report on purpose cover only a few.
///
/// When the test named no JSON report, `--json <temporary file>` is added right after `run`
/// (before any `--`, and a file report changes neither the console nor the exit status);
/// when it gave `--json FILE` or `--json -`, that report is the one validated.
enum JSONReportHook {
    /// What a test wants done with the report of a run.
    enum Check: Sendable {
        /// Validate it (the default).
        case validate
        /// Leave the command line alone and check nothing; `reason` says why, for the reader.
        case optOut(reason: String)
    }

    /// Where the report of one run is, as decided before it starts.
    enum Plan {
        /// Not a run (another command, `--help`), or the test opted out.
        case none
        /// `--json <temporary file>` was added: validated, then removed (kept when invalid).
        case added(URL)
        /// The test's own `--json FILE`.
        case own(URL)
        /// The test's own `--json -`: the report is the standard output.
        case standardOutput
    }

    /// The plan for `arguments` run in `directory`, and the arguments to run with.
    static func plan(_ arguments: [String], in directory: URL, check: Check) -> (Plan, [String]) {
        guard case .validate = check, arguments.first == "run" else { return (.none, arguments) }
        let options = arguments.dropFirst().prefix { $0 != "--" }
        if options.contains(where: { $0 == "--help" || $0 == "-h" }) { return (.none, arguments) }
        var own: String?
        var index = options.startIndex
        while index < options.endIndex {
            let argument = options[index]
            if argument == "--json", index + 1 < options.endIndex {
                own = options[index + 1]
                index += 1
            } else if argument.hasPrefix("--json=") {
                own = String(argument.dropFirst("--json=".count))
            }
            index += 1
        }
        if let own {
            if own == "-" { return (.standardOutput, arguments) }
            let url = own.hasPrefix("/") ? URL(fileURLWithPath: own) : directory.appendingPathComponent(own)
            return (.own(url), arguments)
        }
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("courier-it-report-\(UUID().uuidString).json")
        return (.added(file), [arguments[0], "--json", file.path] + arguments.dropFirst())
    }

    /// Validates the report `plan` names after `result`, recording an issue at `sourceLocation`
    /// for a report that is missing when the run should have written one, is not JSON, or
    /// breaks the schema. Returns the report when it was read and valid. A temporary report is
    /// removed when valid and kept, for the reader of the issue, when not.
    static func check(_ plan: Plan, after result: ProcessResult, sourceLocation: SourceLocation) async -> JSONReportFile? {
        guard expectsReport(result) else {
            if case .added(let file) = plan { try? FileManager.default.removeItem(at: file) }
            if case .none = plan {} else { log("not expected (exit \(result.status))", at: sourceLocation) }
            return nil
        }
        let text: String
        let origin: String
        switch plan {
        case .none:
            return nil
        case .standardOutput:
            text = result.stdout
            origin = "the standard output (--json -)"
        case .added(let file), .own(let file):
            // A FIFO or a device the test named: what went there is the test's to read.
            if case .own = plan, !isRegularFileOrMissing(file) {
                log("not a regular file: \(file.path)", at: sourceLocation)
                return nil
            }
            guard let data = FileManager.default.contents(atPath: file.path) else {
                Issue.record("""
                    courier run wrote no JSON report at \(file.path) (every run writes one, invalid and interrupted runs too)
                    \(result.context)
                    """, sourceLocation: sourceLocation)
                return nil
            }
            guard let read = String(data: data, encoding: .utf8) else {
                Issue.record("the JSON report at \(file.path) is not UTF-8 (RFC 8259 §8.1)", sourceLocation: sourceLocation)
                return nil
            }
            text = read
            origin = file.path
        }
        keep(text, from: sourceLocation)
        let clock = ContinuousClock()
        let start = clock.now
        let (value, problems, validating) = await validatedOffThePool(text)
        log("\(problems.isEmpty ? "valid" : "INVALID") \(text.utf8.count) bytes, validated in \(validating), waited \(clock.now - start - validating)",
            at: sourceLocation)
        guard let value, problems.isEmpty else {
            Issue.record("""
                the JSON report at \(origin) does not match docs/report.schema.json (\(problems.count) \
                violation\(problems.count == 1 ? "" : "s")):
                \(problems.prefix(20).joined(separator: "\n"))\(problems.count > 20 ? "\n… and \(problems.count - 20) more" : "")
                """, sourceLocation: sourceLocation)
            return nil
        }
        if case .added(let file) = plan { try? FileManager.default.removeItem(at: file) }
        return JSONReportFile(value: value, text: text)
    }

    /// With `COURIER_IT_REPORT_LOG=FILE`, one line per run the hook looked at (what it found,
    /// the report's size, the time validation took, the test's line): for measuring the hook's
    /// cost and seeing that it ran, without reading every test.
    private static func log(_ line: String, at sourceLocation: SourceLocation) {
        guard let path = Paths.environment["COURIER_IT_REPORT_LOG"], !path.isEmpty else { return }
        logLock.lock()
        defer { logLock.unlock() }
        guard let handle = FileHandle(forWritingAtPath: path) ?? {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            return FileHandle(forWritingAtPath: path)
        }() else { return }
        defer { try? handle.close() }
        _ = try? handle.seekToEnd()
        try? handle.write(contentsOf: Data("\(sourceLocation.fileID):\(sourceLocation.line)\t\(line)\n".utf8))
    }

    private static let logLock = NSLock()

    /// With `COURIER_IT_REPORT_KEEP=DIR`, a copy of every report the hook read, named after the
    /// test's line: to look at what the suite's runs write, or to check them with another tool.
    private static func keep(_ text: String, from sourceLocation: SourceLocation) {
        guard let directory = Paths.environment["COURIER_IT_REPORT_KEEP"], !directory.isEmpty else { return }
        let name = "\(sourceLocation.fileID.replacingOccurrences(of: "/", with: "_"))-\(sourceLocation.line)-\(UUID().uuidString.prefix(8)).json"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try? text.write(toFile: (directory as NSString).appendingPathComponent(name), atomically: false, encoding: .utf8)
    }

    /// ``validated(_:)`` on a queue of its own, and how long it took: the cooperative pool is as
    /// wide as the CPUs (2 here) and already busy on a loaded machine (the log's "waited" is the
    /// time to get back onto it, seconds at times); a parse and a validation need not add to
    /// that. One at a time, so memory stays bounded by the largest report.
    static func validatedOffThePool(_ text: String) async -> (value: JSONValue?, violations: [String], took: Duration) {
        await withCheckedContinuation { continuation in
            validationQueue.async {
                let clock = ContinuousClock()
                let start = clock.now
                let (value, violations) = validated(text)
                continuation.resume(returning: (value, violations, clock.now - start))
            }
        }
    }

    private static let validationQueue = DispatchQueue(label: "courier.tests.json-report-hook")

    /// `text` parsed, and the schema's violations by it, one line each (empty: valid); text that
    /// is not JSON, or a schema that does not load, is one violation saying so.
    static func validated(_ text: String) -> (value: JSONValue?, violations: [String]) {
        let value: JSONValue
        do {
            value = try JSONValue.parse(text)
        } catch {
            return (nil, ["not JSON: \(error) (it starts \(String(text.prefix(200)).debugDescription))"])
        }
        do {
            return (value, try JSONReportFile.violations(of: value))
        } catch {
            return (value, ["\(error)"])
        }
    }

    /// Whether `result` is one of a run that writes its reports: not a usage error (rejected
    /// before any report is opened), not a process killed by a signal Courier does not handle
    /// (SIGKILL, SIGXCPU), not a run whose JSON report could not be written (the test reads that
    /// failure from standard error).
    static func expectsReport(_ result: ProcessResult) -> Bool {
        if result.timedOut { return false }
        if result.status == 2 && result.stderr.hasSuffix("(see 'courier --help')\n") { return false }
        if result.status == 3 && result.stderr.contains("error: JSON report: ") { return false }
        // Courier stops on SIGINT, SIGTERM and SIGHUP, writing its reports; other signals end it as is.
        if result.status > 128 && ![SIGHUP, SIGINT, SIGTERM].map({ 128 + $0 }).contains(result.status) { return false }
        return true
    }

    private static func isRegularFileOrMissing(_ file: URL) -> Bool {
        guard let type = try? FileManager.default.attributesOfItem(atPath: file.path)[.type] as? FileAttributeType else { return true }
        return type == .typeRegular
    }
}
