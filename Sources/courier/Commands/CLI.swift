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
          version                       print the version (also --version)

        'courier <command> --help' shows a command's options.

        """

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
            case "version", "--version", "-V": return VersionCommand.run()
            case "help", "--help", "-h":
                Output.out(usage)
                return ExitCode.passed
            default:
                var message = "unknown command '\(command)'"
                if let close = suggestion(for: command, among: ["run", "validate", "list", "query", "version", "help"]) {
                    message += "; did you mean '\(close)'?"
                }
                throw UsageError(message)
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

enum VersionCommand {
    static func run() -> Int32 {
        var line = "courier \(CourierHTTPVersion.string) (libcurl \(HTTPClient.libcurlVersion)"
        if let tls = HTTPClient.tlsLibraryVersion { line += ", \(tls)" }
        Output.out(line + ")\n")
        return ExitCode.passed
    }
}
