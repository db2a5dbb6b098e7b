import Foundation
import Testing

// MARK: - Canaries

/// Secret values built to survive every encoding a leak could go through: at least 24 bytes,
/// with a space, `"`, `@`, `+`, `/`, `&`, `<`, a non-ASCII letter and a newline. The first 12
/// bytes (`Cn07aq7Vbz "`) name the scenario and the canary, so a prefix left by a cut is still
/// recognisable and never matches anything else by chance.
enum Canary {
    static func make(_ scenario: Int, _ index: Int = 0) -> String {
        let letter = Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(index)))
        let number = scenario < 10 ? "0\(scenario)" : "\(scenario)"
        return "Cn\(number)\(letter)q7Vbz \"x@y+z/a&b<c\u{E4}\nd-ok"
    }

    /// Letters and digits only (24 bytes or more): a value every masker handles, for checking
    /// that the suite passes where Courier already works.
    static func makeSimple(_ scenario: Int, _ index: Int = 0) -> String {
        make(scenario, index).prefix(10) + "PlainSecretZx9k"
    }

    /// `value` as a YAML double-quoted scalar (for secrets written literally in a file).
    static func yamlQuoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// RFC 3986 percent-encoding (unreserved characters kept), for values the harness hands
    /// to a server in a query string.
    static func percentEncoded(_ value: String) -> String {
        let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        return value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }
}

// MARK: - Secret forms

/// A secret as the form derivation sees it: a string or a structure whose every leaf is a
/// secret; `user` adds the Basic `user:secret` form.
struct SecretSpec: Sendable {
    enum Value: Sendable {
        case string(String)
        case list([String])
        case object([String: String])

        var json: Any {
            switch self {
            case .string(let s): return s
            case .list(let l): return l
            case .object(let o): return o
            }
        }
    }

    var label: String
    var value: Value
    var user: String?

    static func string(_ label: String, _ value: String, user: String? = nil) -> SecretSpec {
        SecretSpec(label: label, value: .string(value), user: user)
    }
}

/// One form of one secret, as bytes to look for.
struct SecretForm: Sendable {
    var label: String
    var name: String
    var bytes: [UInt8]
}

/// The forms, derived by `Tests/Support/secret_forms.py`: independently of Courier's code.
enum SecretForms {
    static var script: URL { Paths.packageRoot.appendingPathComponent("Tests/Support/secret_forms.py") }

    static func derive(_ secrets: [SecretSpec]) async throws -> [SecretForm] {
        var entries: [[String: Any]] = []
        for secret in secrets {
            var entry: [String: Any] = ["label": secret.label, "value": secret.value.json]
            if let user = secret.user { entry["user"] = user }
            entries.append(entry)
        }
        let input = try JSONSerialization.data(withJSONObject: ["secrets": entries])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-forms-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputFile = directory.appendingPathComponent("in.json")
        try input.write(to: inputFile)
        let result = try await ProcessRunner.run("/bin/sh", ["-c", "exec \"$0\" \"$1\" < \"$2\"", Paths.systemPython, script.path, inputFile.path],
                                                 timeout: .seconds(30))
        guard result.status == 0 else { throw HarnessError("secret_forms.py failed (\(result.status)):\n\(result.allOutput)") }
        var forms: [SecretForm] = []
        for line in result.stdout.split(separator: "\n") where !line.isEmpty {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String],
                  let label = object["label"], let name = object["form"], let value = object["value"] else {
                throw HarnessError("secret_forms.py printed an unexpected line: \(line)")
            }
            forms.append(SecretForm(label: label, name: name, bytes: Array(value.utf8)))
        }
        guard !forms.isEmpty else { throw HarnessError("secret_forms.py printed no forms") }
        return forms
    }
}

// MARK: - Outputs and the search

/// Everything one run of `courier` left for a reader: its stdout, its stderr and its JUnit report.
struct CapturedOutput: Sendable {
    var name: String
    var bytes: [UInt8]
}

/// A form found in an output.
struct Leak: Sendable, CustomStringConvertible {
    var form: SecretForm
    var output: String
    var offset: Int
    var context: String

    var description: String {
        "\(form.label) leaks as \(form.name) ('\(Leak.printable(form.bytes))') in \(output) at byte \(offset): …\(context)…"
    }

    /// Control characters made visible, so the report shows exactly what was found.
    static func printable(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: Array(bytes), as: UTF8.self).unicodeScalars.map { scalar -> String in
            switch scalar {
            case "\n": return "\\n"
            case "\r": return "\\r"
            case "\t": return "\\t"
            default: return scalar.value < 0x20 ? String(format: "\\x%02x", scalar.value) : String(scalar)
            }
        }.joined()
    }
}

enum LeakScan {
    /// One message per output: every form found there, with the context of the first.
    static func report(_ leaks: [Leak]) -> [String] {
        var order: [String] = []
        var byOutput: [String: [Leak]] = [:]
        for leak in leaks {
            if byOutput[leak.output] == nil { order.append(leak.output) }
            byOutput[leak.output, default: []].append(leak)
        }
        return order.compactMap { output in
            guard let found = byOutput[output], let first = found.first else { return nil }
            let forms = found.map { "\($0.form.label): \($0.form.name) at byte \($0.offset)" }.joined(separator: ", ")
            return "LEAK in \(output): \(forms)\nfirst: \(first)"
        }
    }

    /// Byte search, not `String.contains`: Swift compares strings by canonical equivalence and
    /// whole grapheme clusters, which would both find NFD copies of NFC text and miss a secret
    /// followed by a combining mark — exactly the cases under test.
    static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        let first = needle[0]
        var i = 0
        let last = haystack.count - needle.count
        while i <= last {
            if haystack[i] == first {
                var j = 1
                while j < needle.count && haystack[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }

    /// Every (form, output) pair where the form occurs, with 80 bytes of context around it.
    static func leaks(of forms: [SecretForm], in outputs: [CapturedOutput]) -> [Leak] {
        var found: [Leak] = []
        for output in outputs {
            for form in forms {
                guard let at = firstIndex(of: form.bytes, in: output.bytes) else { continue }
                let from = max(0, at - 40)
                let to = min(output.bytes.count, at + form.bytes.count + 40)
                found.append(Leak(form: form, output: output.name, offset: at,
                                  context: Leak.printable(output.bytes[from..<to])))
            }
        }
        return found
    }
}

// MARK: - Running courier

/// How a scenario's workflow is run: plain, `-v`, and `--junit`; and with `--json` and
/// `--html` once `courier run --help` offers them (issue 9 asks for every report).
enum RunMode: String, CaseIterable, Sendable {
    case plain, verbose, junit, json, html

    var arguments: [String] {
        switch self {
        case .plain: return []
        case .verbose: return ["-v"]
        case .junit: return ["--junit", "junit.xml"]
        case .json: return ["--json", "report.json"]
        case .html: return ["--html", "report.html"]
        }
    }

    /// The report file this mode writes, if any.
    var report: String? { arguments.count == 2 ? arguments[1] : nil }

    /// The modes this `courier` supports.
    static func available() async throws -> [RunMode] {
        let help = try await ProcessRunner.run(try Paths.courierBinary(), ["run", "--help"], timeout: .seconds(30))
        let text = help.stdout + help.stderr
        return allCases.filter { mode in
            guard mode == .json || mode == .html else { return true }
            return text.contains(mode.arguments[0] + " ")
        }
    }
}

enum CanaryRun {
    /// Runs `courier run flow.yaml ARGS` in `workspace` once per mode and returns each run's
    /// exit status and outputs. stdout and stderr go to files and are read as bytes (a cut in
    /// the middle of a UTF-8 sequence must not turn a whole output into an empty string).
    static func run(workspace: Workspace, arguments: [String], environment: [String: String],
                    modes chosen: [RunMode]? = nil) async throws -> [(mode: RunMode, status: Int32, outputs: [CapturedOutput])] {
        var env = ProcessInfo.processInfo.environment
        for name in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] { env[name] = nil }
        env["no_proxy"] = "127.0.0.1,localhost"
        env["NO_PROXY"] = "127.0.0.1,localhost"
        env["NO_COLOR"] = "1"
        env.merge(environment) { _, new in new }
        let binary = try Paths.courierBinary()
        var runs: [(mode: RunMode, status: Int32, outputs: [CapturedOutput])] = []
        let modes: [RunMode]
        if let chosen { modes = chosen } else { modes = try await RunMode.available() }
        for mode in modes {
            let out = "stdout-\(mode.rawValue).bin", err = "stderr-\(mode.rawValue).bin"
            if let report = mode.report { try? FileManager.default.removeItem(atPath: workspace.path(report)) }
            let result = try await ProcessRunner.run(
                "/bin/sh", ["-c", "exec \"$0\" \"$@\" >\(out) 2>\(err)", binary, "run", "flow.yaml"] + arguments + mode.arguments,
                in: workspace.url, environment: env, timeout: .seconds(60))
            if result.timedOut { throw HarnessError("courier (\(mode)) did not finish within 60 s") }
            var outputs = [
                CapturedOutput(name: "stdout (\(mode.rawValue))", bytes: bytes(workspace.path(out))),
                CapturedOutput(name: "stderr (\(mode.rawValue))", bytes: bytes(workspace.path(err))),
            ]
            if let report = mode.report, mode != .junit, workspace.exists(report) {
                outputs.append(CapturedOutput(name: "\(mode.rawValue) report", bytes: bytes(workspace.path(report))))
            }
            if mode == .junit {
                // Written for every run, even one whose files do not load (their `validate` case).
                guard workspace.exists("junit.xml") else {
                    throw HarnessError("courier --junit wrote no report; stderr:\n\(String(decoding: outputs[1].bytes, as: UTF8.self))")
                }
                let file = workspace.url.appendingPathComponent("junit.xml")
                outputs.append(CapturedOutput(name: "JUnit file", bytes: bytes(file.path)))
                // The same report as a reader of the XML sees it, entities decoded.
                if let report = try? JUnitReport.parse(file) {
                    var decoded: [String] = []
                    for testCase in report.cases {
                        decoded.append(testCase.name)
                        decoded += [testCase.failure, testCase.error].compactMap { $0 }.flatMap { [$0.message ?? "", $0.text] }
                        decoded.append(testCase.systemOut ?? "")
                        decoded.append(testCase.skippedMessage ?? "")
                    }
                    outputs.append(CapturedOutput(name: "JUnit (decoded)", bytes: Array(decoded.joined(separator: "\n").utf8)))
                }
            }
            runs.append((mode, result.status, outputs))
        }
        return runs
    }

    private static func bytes(_ path: String) -> [UInt8] {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
    }
}

// MARK: - The echo server

/// `Tests/Servers/secrets_echo.py`, started once per test process on first use.
actor CanaryServer {
    static let shared = CanaryServer()
    private var task: Task<ServerProcess, Error>?

    func server() async throws -> ServerProcess {
        if let task { return try await task.value }
        let script = Paths.packageRoot.appendingPathComponent("Tests/Servers/secrets_echo.py").path
        let task = Task { try await ServerProcess.startPython(script, [], scheme: "http") }
        self.task = task
        return try await task.value
    }
}

extension ServerProcess {
    /// Hands `value` to `secrets_echo.py` under `key` (for `/stash/json` and `/stash/cookie`),
    /// so the workflow receives it from the server without ever naming it.
    func stash(_ key: String, _ value: String) throws {
        let (status, body) = try RawHTTP.get(host: "127.0.0.1", port: port,
                                             path: "/__stash?key=\(Canary.percentEncoded(key))&value=\(Canary.percentEncoded(value))")
        guard status == 200 else { throw HarnessError("stash \(key) gave \(status): \(body)") }
    }
}
