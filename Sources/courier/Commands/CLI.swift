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
          version                       the version and the libcurl/TLS libraries (--version: the version alone)

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
            case "version": return VersionCommand.run(details: true)
            case "--version", "-V": return VersionCommand.run(details: false)
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

/// `courier --version` prints the version alone and starts without libcurl;
/// `courier version` adds the libraries it runs on.
enum VersionCommand {
    static func run(details: Bool) -> Int32 {
        var text = "courier \(CourierHTTPVersion.string)\n"
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
