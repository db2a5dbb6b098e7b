import Foundation
import Testing

/// `courier help [COMMAND]` and `courier COMMAND --help` print the same golden text; option
/// placeholders say what they take. Goldens: Tests/Goldens/help/<command>.txt, re-recorded
/// with `COURIER_RECORD=1` (review the diff).
@Suite struct HelpTests {
    static let goldens = Paths.packageRoot.appendingPathComponent("Tests/Goldens/help")

    @Test("courier help COMMAND is golden and equals COMMAND --help", arguments: ["run", "validate", "list", "query", "merge-reports", "version", "help"])
    func commandHelp(command: String) async throws {
        let directory = FileManager.default.temporaryDirectory
        let help = try await Courier.run(["help", command], in: directory)
        #expect(help.status == 0, help.context)
        #expect(help.stderr.isEmpty, help.context)
        let golden = Self.goldens.appendingPathComponent("\(command).txt")
        if ProcessInfo.processInfo.environment["COURIER_RECORD"] == "1" {
            try help.stdout.write(to: golden, atomically: true, encoding: .utf8)
        } else {
            #expect(help.stdout == (try String(contentsOf: golden, encoding: .utf8)), help.context)
        }
        if ["run", "validate", "list", "query", "merge-reports"].contains(command) {
            let flag = try await Courier.run([command, "--help"], in: directory)
            #expect(flag.status == 0 && flag.stdout == help.stdout, flag.context)
        }
    }

    @Test("courier help alone is the general help; an unknown command is exit 2 with did-you-mean")
    func generalHelp() async throws {
        let directory = FileManager.default.temporaryDirectory
        let plain = try await Courier.run(["help"], in: directory)
        let flag = try await Courier.run(["--help"], in: directory)
        #expect(plain.status == 0 && plain.stdout == flag.stdout, plain.context)
        #expect(plain.stdout.contains("'courier help <command>'"), plain.context)
        let unknown = try await Courier.run(["help", "rnu"], in: directory)
        #expect(unknown.status == 2, unknown.context)
        #expect(unknown.stderr.hasPrefix("error: unknown command 'rnu'; did you mean 'run'?\n"), unknown.context)
        #expect(unknown.stdout.isEmpty, unknown.context)
    }

    @Test("no option placeholder is a bare VALUE")
    func placeholdersSayWhatTheyTake() async throws {
        for command in ["run", "validate", "list"] {
            let help = try await Courier.run([command, "--help"], in: FileManager.default.temporaryDirectory)
            #expect(!help.stdout.contains(" VALUE "), help.context)
        }
        let run = try await Courier.run(["run", "--help"], in: FileManager.default.temporaryDirectory)
        for expected in ["--var NAME=VALUE", "--vars-file FILE", "--timeout DURATION", "-j, --jobs N", "--max-body-size SIZE",
                         "--filter REGEX", "--exclude GLOB", "--tag TAG", "--proxy URL", "--junit FILE"] {
            #expect(run.stdout.contains(expected), "\(expected): \(run.context)")
        }
    }
}
