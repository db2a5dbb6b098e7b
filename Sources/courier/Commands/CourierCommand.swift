import CourierDiagnostics

/// What `run`, `validate`, `list` and `merge-reports` share: their options and help, and the
/// prologue every one of them starts with (parse, answer `--help`; for the commands over
/// workflows, discover the files named and load them), so that the steps, their order and
/// their messages are the same in each.
protocol CourierCommand {
    /// The command's options.
    static var parser: ArgumentParser { get }
    /// `courier <command> --help`, also `courier help <command>`.
    static var help: String { get }
}

extension CourierCommand {
    /// The arguments parsed, or nil when `--help` was asked for: the help is printed and
    /// the command ends there, passing, whatever else was given.
    static func parse(_ arguments: [String]) throws(UsageError) -> ArgumentParser.Parsed? {
        let parsed = try parser.parse(arguments)
        guard !parsed.has("--help") else {
            Output.out(help)
            return nil
        }
        return parsed
    }

    /// The workflow files named by `PATH...` (default: `.`), directories searched, `--exclude` applied.
    static func discover(_ parsed: ArgumentParser.Parsed) throws(UsageError) -> WorkflowDiscovery.Found {
        try WorkflowDiscovery.find(parsed.positional, exclude: parsed.all("--exclude"))
    }

    /// Loads what discovery found into `sources`; the files skipped as not workflows are
    /// listed on standard error unless `quiet`.
    static func load(_ found: WorkflowDiscovery.Found, sources: SourceStore, quiet: Bool, keepingSteps: Bool = true) -> WorkflowLoading.Loaded {
        let loaded = WorkflowLoading.load(found, sources: sources, keepingSteps: keepingSteps)
        if !quiet { Output.err(WorkflowLoading.skippedLines(loaded.skipped)) }
        return loaded
    }
}
