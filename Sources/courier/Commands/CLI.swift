import CourierDiagnostics
import CourierHTTP
import Foundation

/// Dispatches to the sub-commands of section 11 of the spec.
enum CLI {
    static let usage = """
        usage: courier <command> [options] [PATH...]

        commands:
          run [PATH...]                 run workflows (files or directories; default: .)
          validate [PATH...]            parse and check files without sending anything
          list [PATH...]                workflows, steps and tags
          query [--paths] JSONPATH [FILE]
                                        evaluate a JSONPath on a JSON file (or stdin)
          merge-reports OUT IN...       merge the JUnit or JSON reports of separate runs into one
          version                       the version and the libcurl/TLS libraries (--version: the version alone)

        'courier help <command>' (or 'courier <command> --help') shows a command's options.

        """

    /// On the main thread: commands load and check workflows there before anything runs
    /// elsewhere, and glibc gives the main thread the arena that grows without a system call
    /// per page (see MallocTuning).
    @MainActor
    static func main(_ arguments: [String]) async -> Int32 {
        guard let command = arguments.first else {
            Output.err(usage)
            return ExitCode.invalid
        }
        let rest = Array(arguments.dropFirst())
        do {
            switch command {
            case "run": return try await RunCommand.run(rest)
            case "validate": return try ValidateCommand.run(rest)
            case "list": return try ListCommand.run(rest)
            case "query": return runQueryCommand(rest)
            case "merge-reports": return try MergeReportsCommand.run(rest)
            case "version": return VersionCommand.run(details: true)
            case "--version", "-V": return VersionCommand.run(details: false)
            case "help":
                return try help(rest)
            case "--help", "-h":
                Output.out(usage)
                return ExitCode.passed
            default:
                throw UsageError("unknown command '\(command)'" + didYouMean(command, among: commands))
            }
        } catch let error as UsageError {
            Output.err("error: \(error.message)\n(see 'courier --help')\n")
            return ExitCode.invalid
        } catch {
            Output.err("error: \(error)\n")
            return ExitCode.internalError
        }
    }
}

extension CLI {
    static let commands = ["run", "validate", "list", "query", "merge-reports", "version", "help"]

    /// `courier help` is the general help; `courier help run` is `courier run --help`.
    static func help(_ arguments: [String]) throws(UsageError) -> Int32 {
        guard let command = arguments.first else {
            Output.out(usage)
            return ExitCode.passed
        }
        if arguments.count > 1 {
            throw UsageError("'courier help' takes one command, not '\(arguments.joined(separator: " "))'")
        }
        switch command {
        case "run": Output.out(RunCommand.help)
        case "validate": Output.out(ValidateCommand.help)
        case "list": Output.out(ListCommand.help)
        case "query": Output.out(queryUsage + "\n")
        case "merge-reports": Output.out(MergeReportsCommand.help)
        case "version": Output.out("usage: courier version\n\nPrints the version and the libcurl and TLS libraries; 'courier --version' prints the version alone.\n")
        case "help": Output.out(usage)
        default:
            throw UsageError("unknown command '\(command)'" + didYouMean(command, among: commands))
        }
        return ExitCode.passed
    }
}

/// `courier --version` prints the version alone and starts without libcurl;
/// `courier version` adds the libraries it runs on.
enum VersionCommand {
    static func run(details: Bool) -> Int32 {
        var text = "courier \(CourierVersion.string)\n"
        if details {
            if let curl = HTTPClient.libcurlVersion {
                text += "libcurl \(curl)\n"
                if let tls = HTTPClient.tlsLibraryVersion { text += "TLS \(tls)\n" }
            } else {
                text += "libcurl: not available (\(HTTPClient.libcurlUnavailableReason ?? "unknown reason"))\n"
            }
        }
        Output.out(text)
        return ExitCode.passed
    }
}
