@testable import courier
import Testing

/// The prologue every command shares (CourierCommand): parse, then `--help`.
@Suite struct CourierCommandTests {
    /// A command of the test's own, so nothing of a real command's options is assumed.
    enum Probe: CourierCommand {
        static let parser = ArgumentParser(command: "probe", options: [
            .init(names: ["--exclude"], value: "GLOB", help: "leave out"),
            .init(names: ["--help", "-h"], value: nil, help: "show this help"),
        ])
        static var help: String { "usage: courier probe\n" }
    }

    @Test func theArgumentsComeBackParsed() throws {
        let parsed = try #require(try Probe.parse(["--exclude", "a/**", "x.yaml"]))
        #expect(parsed.positional == ["x.yaml"])
        #expect(parsed.all("--exclude") == ["a/**"])
    }

    @Test(arguments: [["--help"], ["-h", "x.yaml"], ["x.yaml", "--exclude", "b", "--help"]])
    func helpEndsTheCommandWhateverElseIsGiven(arguments: [String]) throws {
        #expect(try Probe.parse(arguments) == nil)
    }

    /// Parsing comes first: a wrong option is a usage error even beside `--help`.
    @Test func anUnknownOptionBesideHelpIsAUsageError() {
        #expect(throws: UsageError.self) { try Probe.parse(["--bogus", "--help"]) }
    }
}
