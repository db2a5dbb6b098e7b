@testable import CourierEngine
import CourierJSON
import Testing

/// Issue 8: every user-written regex goes through the bounded engine. `(a|a)*b` against 30–39
/// a's never finished before (backtracking is exponential there); now it is decided at once,
/// and a pattern that really is exponential (a backreference defeats the engine's memo) fails
/// its check with "pattern too expensive" instead of hanging the run.
@Suite("Regex budget in checks and captures", .timeLimit(.minutes(1)))
struct RegexBudgetTests {
    static let lengths = [30, 35, 39]

    static func a(_ count: Int) -> String { String(repeating: "a", count: count) }

    @Test(arguments: lengths)
    func matchesDecidesAmbiguousAlternationAtOnce(_ count: Int) async throws {
        let yaml = """
            steps:
              - request: { url: "http://127.0.0.1:9/x" }
                expect:
                  status: 200
                  json:
                    $.name: { matches: "(a|a)*b" }
            """
        let run = try await runStep(yaml, response: jsonResponse(200, #"{"name": "\#(Self.a(count))"}"#))
        let failures = run.failures()
        #expect(failures.map(\.message) == ["json $.name: expected to match /(a|a)*b/"])
    }

    @Test(arguments: lengths)
    func notMatchesDecidesAmbiguousAlternationAtOnce(_ count: Int) async throws {
        let yaml = """
            steps:
              - request: { url: "http://127.0.0.1:9/x" }
                expect:
                  status: 200
                  json:
                    $.name: { not_matches: "(a|a)*b" }
            """
        let run = try await runStep(yaml, response: jsonResponse(200, #"{"name": "\#(Self.a(count))"}"#))
        #expect(run.steps.first?.outcome.isPassed == true, "\(run.steps.map(\.outcome))")
    }

    @Test(arguments: lengths)
    func regexCaptureDecidesAmbiguousAlternationAtOnce(_ count: Int) async throws {
        let yaml = """
            steps:
              - request: { url: "http://127.0.0.1:9/x" }
                capture:
                  found: { regex: "((a|a)*b)" }
                  whole: { regex: "^((a|a)*)$" }
            """
        let run = try await runStep(yaml, response: textResponse(200, Self.a(count)))
        #expect(run.failures().map(\.message) == ["capture 'found': the body does not match /((a|a)*b)/; add 'default:' to make it optional"])
    }

    @Test(arguments: lengths)
    func jsonPathFilterDecidesAmbiguousAlternationAtOnce(_ count: Int) async throws {
        let yaml = """
            steps:
              - request: { url: "http://127.0.0.1:9/x" }
                expect:
                  status: 200
                  json:
                    "$.names[?match(@, '(a|a)*b')]": { exists: false }
                    "$.names[?search(@, '(a|a)*b')]": { exists: false }
                    "$.names[?match(@, '(a|a)*')]": [\(Self.a(count))]
            """
        let run = try await runStep(yaml, response: jsonResponse(200, #"{"names": ["\#(Self.a(count))", "c"]}"#))
        #expect(run.steps.first?.outcome.isPassed == true, "\(run.steps.map(\.outcome))")
    }

    // MARK: - Out of budget

    /// Exponential with or without memo: the backreference turns memoization off.
    static let exponential = #"^(a|a)*\\1b"#

    @Test func matchesFailsWhenThePatternIsTooExpensive() async throws {
        let yaml = """
            steps:
              - request: { url: "http://127.0.0.1:9/x" }
                expect:
                  status: 200
                  json:
                    $.name: { matches: "\(Self.exponential)" }
                    $.other: { not_matches: "\(Self.exponential)" }
            """
        let run = try await runStep(yaml, response: jsonResponse(200, #"{"name": "\#(Self.a(39))", "other": "\#(Self.a(39))"}"#))
        #expect(run.failures().map(\.message) == [
            "json $.name: matches: pattern too expensive (more than 1,000,000 steps against 39 characters)",
            "json $.other: not_matches: pattern too expensive (more than 1,000,000 steps against 39 characters)",
        ])
    }

    @Test func regexCaptureFailsWhenThePatternIsTooExpensive() async throws {
        let yaml = """
            steps:
              - request: { url: "http://127.0.0.1:9/x" }
                capture:
                  found: { regex: "\(Self.exponential)", default: none }
            """
        let run = try await runStep(yaml, response: textResponse(200, Self.a(39)))
        #expect(run.failures().map(\.message) == [
            #"capture 'found': regex: pattern too expensive (more than 1,000,000 steps against 39 characters)"#,
        ])
    }

    @Test func invalidPatternsAreLoadErrors() throws {
        for (line, needle) in [("expect: { body: { matches: \"(a\" } }", "missing ')'"),
                               ("capture: { x: { regex: \"a{2,1}\" } }", "numbers out of order")] {
            let yaml = """
                steps:
                  - request: { url: "http://127.0.0.1:9/x" }
                    \(line)
                """
            #expect(throws: WorkflowDecodingFailed.self) { try decode(yaml) }
            do { _ = try decode(yaml) } catch let error as WorkflowDecodingFailed {
                #expect(error.messages.contains { $0.contains("invalid regular expression") && $0.contains(needle) }, "\(error.messages)")
            }
        }
    }
}
