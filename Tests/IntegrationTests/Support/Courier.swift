import Foundation
import Testing

/// Runs the built `courier` executable.
enum Courier {
    /// Set by ``BothThreadingModes``: the run uses engine threads even for one workflow.
    @TaskLocal static var engineExecutorsForced = false

    /// `courier ARGS...` in `directory`, with a clean, proxy-free, colour-free environment plus
    /// `environment`. Killed after `timeout`.
    ///
    /// `cpuSeconds` caps the CPU time the process may use (`ulimit -t`; past it the kernel
    /// sends SIGXCPU, so the exit status is no longer the expected one). Unlike a wall-clock
    /// bound it does not depend on how loaded the machine is: use it where "does not burn
    /// seconds of CPU" is what a test guards.
    ///
    /// A `courier run` also writes a JSON report, validated against `docs/report.schema.json`
    /// (``JSONReportHook``): an invalid or missing one is an issue at `sourceLocation`, and a
    /// valid one is `jsonReport` of the result. `jsonReport: .optOut(reason:)` runs the command
    /// as given. `binary` replaces the built `courier` (the hook's self-test).
    static func run(
        _ arguments: [String],
        in directory: URL,
        environment: [String: String] = [:],
        timeout: Duration = .seconds(60),
        interruptAfter: Duration? = nil,
        cpuSeconds: Int? = nil,
        jsonReport: JSONReportHook.Check = .validate,
        binary: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ProcessResult {
        var env = ProcessInfo.processInfo.environment
        for name in ["http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
            env[name] = nil
        }
        env["no_proxy"] = "127.0.0.1,localhost"
        env["NO_PROXY"] = "127.0.0.1,localhost"
        env["NO_COLOR"] = "1"
        if engineExecutorsForced { env["COURIER_ENGINE_EXECUTORS"] = "always" }
        env.merge(environment) { _, new in new }
        let binary = try binary ?? Paths.courierBinary()
        let (report, arguments) = JSONReportHook.plan(arguments, in: directory, check: jsonReport)
        let (executable, commandLine) = cpuSeconds.map { limit in
            ("/bin/sh", ["-c", "ulimit -t \(limit) && exec \"$0\" \"$@\"", binary] + arguments)
        } ?? (binary, arguments)
        let result = try await ProcessRunner.run(executable, commandLine, in: directory,
                                                 environment: env, timeout: timeout, interruptAfter: interruptAfter)
        if result.timedOut {
            throw HarnessError("courier \(arguments.joined(separator: " ")) did not finish within \(timeout); output so far:\n\(result.allOutput)")
        }
        var checked = result
        checked.jsonReport = await JSONReportHook.check(report, after: result, sourceLocation: sourceLocation)
        return checked
    }

    /// `courier run FILES... --var base_url=<server> [extra]` in `workspace`.
    static func run(
        files: [String],
        workspace: Workspace,
        server: TestServer?,
        extra: [String] = [],
        environment: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ProcessResult {
        var arguments = ["run"] + files
        if let server { arguments += ["--var", "base_url=\(server.baseURL)"] }
        return try await run(arguments + extra, in: workspace.url, environment: environment, sourceLocation: sourceLocation)
    }
}

extension ProcessResult {
    /// For `#expect(..., result.context)`: everything the run printed.
    var context: Comment {
        "exit \(status)\n--- stdout ---\n\(stdout)\n--- stderr ---\n\(stderr)"
    }
}
