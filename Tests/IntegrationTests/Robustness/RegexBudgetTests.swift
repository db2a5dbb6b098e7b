import Foundation
import Testing

/// Issue 8 through the built binary: `(a|a)*b` against 30–39 a's used to run for ever in
/// `courier query` filters and `--filter`; now it is decided at once, and an exponential
/// pattern stops with "pattern too expensive" and exit 2.
@Suite("Regex budget through the courier binary", .timeLimit(.minutes(1)))
struct RegexBudgetIntegrationTests {
    static let lengths = [30, 39]

    static func a(_ count: Int) -> String { String(repeating: "a", count: count) }

    @Test("courier query: match() and search() with (a|a)*b finish", arguments: lengths)
    func queryWithAmbiguousAlternation(_ count: Int) async throws {
        let workspace = try Workspace()
        _ = try workspace.write("names.json", #"["\#(Self.a(count))", "\#(Self.a(count))b", "c"]"#)
        let started = ContinuousClock.now
        // The bound is on CPU time (a loaded machine does not stretch it); wall clock is a hang guard.
        let match = try await Courier.run(["query", "--compact", "$[?match(@, '(a|a)*b')]", "names.json"], in: workspace.url, cpuSeconds: 5)
        let search = try await Courier.run(["query", "--compact", "$[?search(@, '(a|a)*b')]", "names.json"], in: workspace.url, cpuSeconds: 5)
        #expect(ContinuousClock.now - started < .seconds(120))
        #expect(match.status == 0, match.context)
        #expect(match.stdout == #"["\#(Self.a(count))b"]"# + "\n", match.context)
        #expect(search.status == 0, search.context)
        #expect(search.stdout == #"["\#(Self.a(count))b"]"# + "\n", search.context)
    }

    @Test("--filter with (a|a)*b finishes and selects by it", arguments: lengths)
    func filterWithAmbiguousAlternation(_ count: Int) async throws {
        let workspace = try Workspace()
        _ = try workspace.write("flows/one.yaml", """
            name: \(Self.a(count))
            steps:
              - request: { url: "http://127.0.0.1:9/unused" }
            """)
        let none = try await Courier.run(["run", "flows", "--filter", "(a|a)*b"], in: workspace.url)
        // Selecting nothing is a usage error (issue 10), reached without running out of budget.
        #expect(none.status == 2, none.context)
        #expect(none.stderr.contains("error: no workflows selected: 1 workflow found in flows, none matches --filter '(a|a)*b'"), none.context)
    }

    @Test("--filter: an exponential pattern is a usage error naming the budget")
    func filterTooExpensive() async throws {
        let workspace = try Workspace()
        _ = try workspace.write("flows/one.yaml", """
            name: \(Self.a(39))
            steps:
              - request: { url: "http://127.0.0.1:9/unused" }
            """)
        let result = try await Courier.run(["run", "flows", "--filter", #"^(a|a)*\1b"#], in: workspace.url)
        #expect(result.status == 2, result.context)
        #expect(result.stderr.contains("pattern too expensive (more than 1,000,000 steps against 39 characters)"), result.context)
    }

    @Test("--filter: an invalid pattern is a usage error")
    func filterInvalid() async throws {
        let workspace = try Workspace()
        _ = try workspace.write("flows/one.yaml", """
            steps:
              - request: { url: "http://127.0.0.1:9/unused" }
            """)
        let result = try await Courier.run(["run", "flows", "--filter", "(a"], in: workspace.url)
        #expect(result.status == 2, result.context)
        #expect(result.stderr.contains("--filter: invalid regular expression '(a': missing ')'"), result.context)
    }
}
