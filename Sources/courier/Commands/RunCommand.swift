import CourierDiagnostics
import CourierEngine
import CourierHTTP
import CourierJSON
import CourierReports
import CourierResults
import CourierWorkflow
import Foundation
import Synchronization

/// `courier run [PATH...]`: validate everything, run, report, exit with the outcome.
enum RunCommand: CourierCommand {
    static let parser = ArgumentParser(command: "run", options: selectionOptions + ShardRequest.options + otherOptions)

    /// Variables, and what picks the workflows `--shard` then slices.
    private static let selectionOptions: [ArgumentParser.Option] = [
        .init(names: ["--var"], value: "NAME=VALUE", help: "set a variable (repeatable); beats --vars-file and vars:"),
        .init(names: ["--vars-file"], value: "FILE", help: "a YAML map of variables"),
        .init(names: ["--env-file"], value: "FILE", help: "a dotenv file; its values are read as env.NAME"),
        .init(names: ["--tag"], value: "TAG", help: "run only workflows with this tag (repeatable)"),
        .init(names: ["--exclude-tag"], value: "TAG", help: "skip workflows with this tag (repeatable)"),
        .init(names: ["--filter"], value: "REGEX", help: "run only workflows whose name or a step name matches REGEX"),
        .init(names: ["--exclude"], value: "GLOB", help: "leave out files and directories below PATH matching GLOB (gitignore syntax; repeatable)"),
    ]

    private static let otherOptions: [ArgumentParser.Option] = [
        .init(names: ["--jobs", "-j"], value: "N", help: "workflows at once (default: the number of CPUs; 1: one after the other)"),
        .init(names: ["--fail-fast"], value: nil, help: "after the first failed workflow, cancel the running ones and start no more"),
        .init(names: ["--timeout"], value: "DURATION", help: "default request timeout (250ms, 2s, 1m)"),
        .init(names: ["--retry"], value: "N", help: "default retry attempts (GET, HEAD, PUT, DELETE, OPTIONS, TRACE; any method when nothing was sent)"),
        .init(names: ["--insecure", "-k"], value: nil, help: "skip TLS verification (prints a warning)"),
        .init(names: ["--cacert"], value: "FILE", help: "CA bundle (PEM) for every request"),
        .init(names: ["--cert"], value: "FILE", help: "client certificate (PEM or .p12/.pfx)"),
        .init(names: ["--key"], value: "FILE", help: "client private key (PEM)"),
        .init(names: ["--proxy"], value: "URL", help: "proxy URL for every request"),
        .init(names: ["--max-body-size"], value: "SIZE", help: "largest response body kept in memory (10MB, 1GiB, bytes; default 256MiB)"),
        .init(names: ["--junit"], value: "FILE", help: "write a JUnit XML report to FILE ('-': standard output, the console then on standard error)"),
        .init(names: ["--json"], value: "FILE", help: "write a JSON report to FILE (docs/report.schema.json; '-': standard output)"),
        .init(names: ["--html"], value: "FILE", help: "write a self-contained HTML report to FILE ('-': standard output)"),
        .init(names: ["--verbose", "-v"], value: nil, help: "print every request and response"),
        .init(names: ["--dry-run"], value: nil, help: "render every request and print it; send nothing (exit 2 if one does not render)"),
        .init(names: ["--curl"], value: nil, help: "print a curl command reproducing each failed request (secrets as shell variables)"),
        .init(names: ["--quiet", "-q"], value: nil, help: "print only failures, warnings and the summary"),
        .init(names: ["--color"], value: "WHEN", help: "auto, always or never (NO_COLOR is honoured)"),
        .init(names: ["--exit-codes"], value: "HOW", help: "default, or detailed: exit 4 when a step errored (transport, TLS, timeout, login)"),
        .init(names: ["--help", "-h"], value: nil, help: "show this help"),
    ]

    /// `courier run --help`, also `courier help run`.
    static var help: String {
        """
        usage: courier run [options] [PATH...]

        Runs the workflows named, and those found below each directory (default: .).

        \(parser.optionsHelp)

        """
    }

    /// What a run needs once everything is validated: nothing is sent before this exists.
    struct Plan {
        let parsed: ArgumentParser.Parsed
        let reports: ReportSink
        let sources: SourceStore
        let settings: RunSettings
        let workflows: [Workflow]
        /// `shard 2/3 (…): 4 of 11 selected workflows`, the console's first line.
        let shardHeadline: String?
    }

    /// What the run left for ``finish(_:_:)``: its result, and what is still live until the
    /// reports are written (a second signal while they are written still quits at once).
    struct Execution {
        let result: RunResult
        let control: RunControl
        let signals: StopSignals
    }

    /// `courier run`: ``plan(_:)`` (parse, discover, load, check; an invalid or empty run ends
    /// there with its reports), ``execute(_:)``, ``finish(_:_:)`` (reports and exit status).
    @MainActor
    static func run(_ arguments: [String]) async throws(UsageError) -> Int32 {
        guard let parsed = try parse(arguments) else { return ExitCode.passed }
        switch try plan(parsed) {
        case .stop(let status):
            return status
        case .run(let plan):
            return finish(plan, await execute(plan))
        }
    }

    enum Planned {
        case run(Plan)
        /// Nothing to send: the reports are written and this is the exit status.
        case stop(Int32)
    }

    /// Everything is validated before anything is sent; libcurl loads meanwhile.
    @MainActor
    static func plan(_ parsed: ArgumentParser.Parsed) throws(UsageError) -> Planned {
        if let color = parsed.last("--color"), !["auto", "always", "never"].contains(color) {
            throw UsageError("--color takes auto, always or never, not '\(color)'")
        }
        if let codes = parsed.last("--exit-codes"), !["default", "detailed"].contains(codes) {
            throw UsageError("--exit-codes takes default or detailed, not '\(codes)'")
        }
        if let jobs = parsed.last("--jobs"), Int(jobs).map({ $0 < 1 }) ?? true {
            throw UsageError("--jobs takes a positive number, not '\(jobs)'")
        }
        let shard = try ShardRequest.resolve(parsed, environment: ProcessInfo.processInfo.environment)
        let reports = ReportSink(try reportRequests(parsed), secrets: Output.secrets, shard: shard?.recorded,
                                 root: ProjectRoot.find(from: FileManager.default.currentDirectoryPath))

        HTTPClient.preload()
        let found = try discover(parsed)
        let files = found.candidates.map(\.path)
        try ReportDestinations.check(reports.requests, workflowFiles: files)
        let sources = SourceStore()
        let stderrColor = Output.useColor(parsed.last("--color"), fileDescriptor: 2)
        let loaded = load(found, sources: sources, quiet: parsed.has("--quiet"))
        WorkflowLoading.registerLiteralSecrets(of: loaded.workflows, in: Output.secrets)
        var settings = RunSettings()
        var diagnostics = loaded.diagnostics
        try configure(&settings, from: parsed, sources: sources, diagnostics: &diagnostics)
        let commandLineNames = Set(settings.commandLineVariables.map(\.name) + settings.fileVariables.map(\.name))
        diagnostics += WorkflowLoading.checkNames(loaded.facts, externalNames: commandLineNames,
                                                  environment: .init(settings.environment, isTheRunsEnvironment: true))
        // Only when every file loaded (a --var may be meant for the file that did not) and
        // something is selected (selecting nothing is its own error, below).
        let selected = try select(loaded.workflows, parsed)
        if loaded.workflows.count == files.count && !selected.isEmpty {
            diagnostics += UnusedVariables.check(selected, commandLineNames: settings.commandLineVariables.map(\.name))
        }
        diagnostics += shortSecretOverrides(loaded.workflows, settings: settings)
        if diagnostics.contains(where: { $0.severity == .error }) {
            WorkflowLoading.report(diagnostics, sources: sources, color: stderrColor)
            Output.err("nothing was sent: fix the errors above first\n")
            // CI still gets its report: the invalid files, each as a failed test.
            // A slice reports the invalid files that fall in it, so the slices' reports merge.
            let reported = shard.map { $0.diagnosticsInSlice(diagnostics, found: found) } ?? diagnostics
            var run = invalidRun(files: files, diagnostics: reported, sources: sources)
            // The valid workflows that would have run are listed, their steps skipped, so CI's
            // test history keeps them (one invalid file used to leave a single `validate` case).
            let invalidFiles = Set(diagnostics.filter { $0.severity == .error }.compactMap(\.range?.file))
            let valid = selected.filter { !invalidFiles.contains($0.file) }
            run.workflows += Engine.notRun(shard.map { $0.slice(valid, found: found) } ?? valid,
                                           reason: SkipReason.anotherWorkflowInvalid, settings: settings)
            for failure in reports.write(run) {
                Output.err("error: \(failure)\n")
            }
            return .stop(ExitCode.invalid)
        }
        WorkflowLoading.report(diagnostics, sources: sources, color: stderrColor)
        if selected.isEmpty {
            return .stop(selectedNothing(parsed, found: found, loaded: loaded, reports: reports, sources: sources))
        }
        // The slice comes after selection: every shard sees the same selected workflows.
        var workflows = selected
        var shardHeadline: String?
        if let shard {
            workflows = shard.slice(selected, found: found)
            shardHeadline = shard.headline(taken: workflows.count, of: selected.count)
        }
        if let warning = insecureWarning(settings: settings, workflows: workflows) {
            Output.err(warning)
        }
        return .run(Plan(parsed: parsed, reports: reports, sources: sources, settings: settings, workflows: workflows,
                         shardHeadline: shardHeadline))
    }

    /// A run that selects nothing would pass while testing nothing: a usage error, nothing
    /// sent, and CI gets its report saying so in one errored test case.
    @MainActor
    private static func selectedNothing(_ parsed: ArgumentParser.Parsed, found: WorkflowDiscovery.Found, loaded: WorkflowLoading.Loaded,
                                        reports: ReportSink, sources: SourceStore) -> Int32 {
        let criteria = EmptySelection.Criteria(tags: parsed.all("--tag"), excludedTags: parsed.all("--exclude-tag"),
                                               filter: parsed.last("--filter"))
        let message = EmptySelection.message(found: found, skipped: loaded.skipped.count, workflows: loaded.workflows.count,
                                             criteria: criteria)
        Output.err("error: \(message)\n")
        for failure in reports.write(invalidRun(files: found.candidates.map(\.path), diagnostics: [.error(message, at: nil)], sources: sources,
                                                stepName: "select workflows")) {
            Output.err("error: \(failure)\n")
        }
        return ExitCode.invalid
    }

    /// Runs the plan, streaming progress to the console (standard error when a report takes
    /// standard output).
    @MainActor
    static func execute(_ plan: Plan) async -> Execution {
        let (parsed, reports, settings, workflows) = (plan.parsed, plan.reports, plan.settings, plan.workflows)
        let consoleOutput = reports.requests.contains(where: \.toStandardOutput) ? Output.standardError : Output.standardOutput
        if let headline = plan.shardHeadline { consoleOutput.write(headline) }
        var consoleOptions = ConsoleReporter.Options()
        consoleOptions.color = Output.useColor(parsed.last("--color"), fileDescriptor: consoleOutput.fileDescriptor)
        consoleOptions.quiet = parsed.has("--quiet")
        consoleOptions.verbose = settings.recordSentRequests
        consoleOptions.dryRun = settings.dryRun
        // What is running, on a terminal only: a log or a pipe gets the blocks alone.
        consoleOptions.statusLine = !consoleOptions.quiet && isatty(consoleOutput.fileDescriptor) == 1
        let console = ConsoleReporter(options: consoleOptions, sources: plan.sources, output: consoleOutput)
        let client = HTTPClient()
        // After a signal, the reports of what ran are written as soon as the main steps
        // have stopped: a teardown that then hangs until SIGKILL cannot take them along.
        let control = RunControl(onStepsStopped: { partial in reports.writeInBackground(partial) })
        // One SourceStore for the run: files included at run time are read once, into the
        // store the console renders their diagnostics from.
        var engine = Engine(transport: PipedBodyTransport(client), settings: settings, sources: plan.sources, control: control,
                            onEvent: { console.handle($0) })
        // Where the engine's code runs. Workflows run at once (--jobs) each get a thread of
        // their own, so one's checks never stall another's transfers. One workflow at a time
        // runs on the thread driving transfers: between its requests no other transfer
        // exists to stall, and no thread hop per request keeps it near curl's speed
        // (Benchmarks/http); large bodies are still checked elsewhere (heavyWorkExecutor).
        // `COURIER_ENGINE_EXECUTORS=always` gives even one workflow an engine thread: the test
        // suite runs the jobs, auth and retry tests that way too, so both modes are tested.
        let slots = max(1, min(settings.jobs, workflows.count))
        let forced = ProcessInfo.processInfo.environment["COURIER_ENGINE_EXECUTORS"] == "always"
        let engineExecutors = slots > 1 || forced ? (0..<slots).map { EngineExecutor(name: "courier.engine.\($0)") } : []
        defer { for executor in engineExecutors { executor.stop() } }
        engine.executors = engineExecutors
        if engineExecutors.isEmpty { engine.heavyWorkExecutor = globalConcurrentExecutor }
        let runExecutor: any TaskExecutor = engineExecutors.first ?? client.taskExecutor
        // Signals are handled before the run starts: installed after it, a SIGTERM that came
        // while the main thread had not got there yet (a loaded CI machine) was ignored and the
        // run went on to the end. One that comes before the task exists cancels it at once.
        let running = Mutex<Task<RunResult, Never>?>(nil)
        let signals = StopSignals.install(
            first: { interruption in
                control.interrupt(interruption)
                running.withLock { $0?.cancel() }
            },
            again: { first in
                for failure in reports.writeBeforeExit(control.snapshot()) { Output.err("error: \(failure)\n") }
                _exit(ExitCode.interrupted(by: first.signal ?? SIGINT))
            })
        let runTask = Task(executorPreference: runExecutor) { [engine] in await engine.run(workflows) }
        running.withLock { $0 = runTask }
        if control.interruption != nil { runTask.cancel() }
        let result = await runTask.value
        // libcurl is released before the process exits, never by a driver thread racing exit().
        await client.shutdown()
        console.writeSummary(result)
        return Execution(result: result, control: control, signals: signals)
    }

    /// The reports, written even when steps failed or the run was interrupted, and the exit status.
    @MainActor
    static func finish(_ plan: Plan, _ execution: Execution) -> Int32 {
        let result = execution.result
        var status = result.passed ? ExitCode.passed : ExitCode.failed
        // `--exit-codes detailed`: CI can tell "the API is down" (a step errored) from "the API
        // is wrong" (only expectations failed).
        if status == ExitCode.failed, plan.parsed.last("--exit-codes") == "detailed", result.stepCounts.errored > 0 {
            status = ExitCode.errored
        }
        // A dry run fails only where a request did not render: the command was wrong, not the API.
        if plan.settings.dryRun && !result.passed { status = ExitCode.invalid }
        let failures = plan.reports.write(result)
        for failure in failures { Output.err("error: \(failure)\n") }
        if !failures.isEmpty { status = ExitCode.internalError }
        execution.signals.remove()
        // A signal wins, also one that came after the last step: the caller asked to stop.
        if let signal = (execution.control.interruption ?? result.interruption)?.signal {
            status = ExitCode.interrupted(by: signal)
        }
        KeptUntilExit.keep(result)
        KeptUntilExit.keep(plan.workflows)
        KeptUntilExit.keep(execution.control)
        return status
    }

    /// The reports asked for, checked before anything is sent.
    static func reportRequests(_ parsed: ArgumentParser.Parsed) throws(UsageError) -> [ReportRequest] {
        var requests: [ReportRequest] = []
        for format in ReportRequest.Format.allCases {
            guard let path = parsed.last(format.option) else { continue }
            guard !path.isEmpty else {
                throw UsageError("\(format.option) needs a file name ('-' for standard output), not ''")
            }
            requests.append(ReportRequest(format: format, path: path))
        }
        if requests.filter(\.toStandardOutput).count > 1 {
            throw UsageError("only one report can go to standard output ('-')")
        }
        return requests
    }

    /// A run in which nothing was sent: one workflow per file with errors, holding one
    /// `validate` step that errored with every diagnostic of that file.
    static func invalidRun(files: [String], diagnostics: [Diagnostic], sources: SourceStore, stepName: String = "validate") -> RunResult {
        let renderer = DiagnosticRenderer(sources: sources, color: false)
        var byFile: [String: [Diagnostic]] = [:]
        var order: [String] = []
        for diagnostic in diagnostics where diagnostic.severity == .error {
            let file = diagnostic.range?.file ?? "courier"
            if byFile[file] == nil { order.append(file) }
            byFile[file, default: []].append(diagnostic)
        }
        let workflows = order.map { file in
            let found = byFile[file] ?? []
            let first = found.first
            let error = StepError(.invalidWorkflow,
                                  message: (first?.message ?? "invalid workflow") + (found.count > 1 ? " (and \(found.count - 1) more)" : ""),
                                  location: first?.range, details: renderer.render(found))
            let step = StepResult(name: stepName, phase: .setup, location: first?.range, outcome: .errored(error))
            return WorkflowResult(file: file, name: (file as NSString).lastPathComponent, steps: [step])
        }
        return RunResult(workflows: workflows, durationMicroseconds: 0)
    }

    // MARK: - Settings from the command line

    private static func configure(_ settings: inout RunSettings, from parsed: ArgumentParser.Parsed,
                                  sources: SourceStore, diagnostics: inout [Diagnostic]) throws(UsageError) {
        var environment = ProcessInfo.processInfo.environment
        for path in parsed.all("--env-file") {
            let text: String
            do throws(FileReadError) {
                text = String(decoding: try BoundedFileReader.read(path, limit: BoundedFileReader.sourceLimit, what: "--env-file",
                                                                   deadline: .now + BoundedFileReader.sourcePipeDeadline), as: UTF8.self)
            } catch {
                throw UsageError("cannot read --env-file '\(path)': \(error.reasonText)")
            }
            // A file the user names explicitly wins over the inherited environment.
            environment.merge(try DotEnv.parse(text, file: path)) { _, fromFile in fromFile }
        }
        settings.environment = environment
        // One registry for the run: the engine registers, the console and reports mask with it.
        settings.secrets = Output.secrets
        settings.dryRun = parsed.has("--dry-run")
        // A dry run is there to show the requests; what -v prints of each is what went on the wire.
        settings.recordSentRequests = parsed.has("--verbose") || settings.dryRun
        settings.curlCommands = parsed.has("--curl")

        for path in parsed.all("--vars-file") {
            switch loadVarsFile(path: path, sources: sources) {
            case .failure(let list):
                diagnostics += list.diagnostics
            case .success(let definitions):
                // Parsed here (errors before sending); the engine evaluates the templates.
                diagnostics += settings.addFileVariables(definitions)
            }
        }
        for assignment in parsed.all("--var") {
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw UsageError("--var takes NAME=VALUE, not '\(assignment)'")
            }
            // Values stay strings: a password of digits must not turn into a number.
            settings.commandLineVariables.append((String(assignment[..<equals]), .string(String(assignment[assignment.index(after: equals)...]))))
        }
        if let timeout = parsed.last("--timeout") {
            guard let duration = Duration.parse(timeout), duration >= Duration.shortestAllowed,
                  duration <= Duration.longestAllowed else {
                throw UsageError("--timeout takes a duration of at least 1ms and at most \(Duration.longestAllowedText) like 250ms, 2s, 1.5s or 1m, not '\(timeout)'")
            }
            settings.timeoutMilliseconds = Int(duration.wholeMilliseconds)
        }
        if let retry = parsed.last("--retry") {
            guard let attempts = Int(retry), attempts >= 1 else {
                throw UsageError("--retry takes a number of attempts (1 or more, the first included), not '\(retry)'")
            }
            settings.retryAttempts = attempts
        }
        settings.failFast = parsed.has("--fail-fast")
        // Checked to be a positive number in `run`.
        settings.jobs = parsed.last("--jobs").flatMap { Int($0) } ?? ProcessInfo.processInfo.activeProcessorCount
        settings.insecure = parsed.has("--insecure")
        settings.caPath = parsed.last("--cacert")
        settings.certificatePath = parsed.last("--cert")
        settings.keyPath = parsed.last("--key")
        settings.proxy = parsed.last("--proxy")
        if let size = parsed.last("--max-body-size") {
            guard let bytes = ByteCount.parse(size) else {
                throw UsageError("--max-body-size takes a size like 10MB, 512KiB, 1GiB or a number of bytes, not '\(size)'")
            }
            settings.maxResponseBytes = bytes
        }
        for (option, path) in [("--cacert", settings.caPath), ("--cert", settings.certificatePath), ("--key", settings.keyPath)] {
            if let path, !FileManager.default.isReadableFile(atPath: path) {
                throw UsageError("cannot read \(option) '\(path)'")
            }
        }
    }

    /// A `--var` or `--vars-file` value given for a declared secret is checked as a literal
    /// one is at load: too short to mask is an error before anything is sent (exit 2), at
    /// the secret's name in the file.
    static func shortSecretOverrides(_ workflows: [Workflow], settings: RunSettings) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for workflow in workflows {
            for definition in workflow.secrets {
                // --var beats --vars-file.
                guard let value = settings.commandLineVariables.last(where: { $0.name == definition.name })?.value
                        ?? settings.fileVariables.last(where: { $0.name == definition.name })?.value,
                      let (path, length) = SecretLength.firstShortLeaf(of: value, named: definition.name) else { continue }
                found.append(.error(SecretLength.tooShortMessage(name: path, length: length) + " (its value from the command line)",
                                    at: definition.range))
            }
        }
        return found
    }

    // MARK: - Warnings

    /// One warning per run when TLS verification is off anywhere: `--insecure`, or
    /// `tls.insecure: true` in a selected workflow's defaults or requests.
    ///
    /// `tls.insecure` is a plain boolean (never a template), so reading the parsed
    /// workflows tells before anything is sent exactly which files turn it off.
    static func insecureWarning(settings: RunSettings, workflows: [Workflow]) -> String? {
        if settings.insecure {
            return "warning: --insecure: TLS certificates and host names are not verified\n"
        }
        // Included steps count too: literal includes are loaded with the workflow.
        func turnsOffVerification(_ steps: [Step]) -> Bool {
            steps.contains { step in
                switch step.action {
                case .request(let request): request.options.tls?.insecure == true
                case .include(let include): turnsOffVerification(include.resolved?.steps ?? [])
                }
            }
        }
        let files = workflows.filter { workflow in
            workflow.defaults.tls?.insecure == true
                || turnsOffVerification(workflow.setup + workflow.steps + workflow.teardown + (workflow.auth?.login ?? []))
        }.map(\.file)
        guard !files.isEmpty else { return nil }
        let shown = files.prefix(3).joined(separator: ", ") + (files.count > 3 ? " and \(files.count - 3) more" : "")
        return "warning: tls.insecure: TLS certificates and host names are not verified in \(shown)\n"
    }

    // MARK: - Selection

    private static func select(_ workflows: [Workflow], _ parsed: ArgumentParser.Parsed) throws(UsageError) -> [Workflow] {
        let tags = Set(parsed.all("--tag")), excluded = Set(parsed.all("--exclude-tag"))
        var filter: RegexPattern?
        if let pattern = parsed.last("--filter") {
            do { filter = try RegexPattern(pattern, dialect: .workflow) } catch {
                throw UsageError("--filter: invalid regular expression '\(pattern)': \(error)")
            }
        }
        var selected: [Workflow] = []
        for workflow in workflows {
            let workflowTags = Set(workflow.tags.map(\.value))
            if !tags.isEmpty && workflowTags.isDisjoint(with: tags) { continue }
            if !workflowTags.isDisjoint(with: excluded) { continue }
            if let filter {
                let names = [workflow.name] + (workflow.setup + workflow.steps + workflow.teardown).map(StepNaming.name(of:))
                do {
                    guard try names.contains(where: { name throws(RegexBudgetExceeded) in try filter.matches(name) }) else { continue }
                } catch {
                    throw UsageError("--filter '\(filter.source)': \(error)")
                }
            }
            selected.append(workflow)
        }
        return selected
    }
}
