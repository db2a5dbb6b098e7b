import Foundation
import Testing

/// Issue 21, "the console can be driven by the server": escape sequences in a body, a
/// header or a captured value used as a step name reached the terminal raw (`ESC[1A`,
/// `ESC[2K` erase a `FAIL` line, a server's `PASS  fake` took its place). Every control
/// character from outside but tab and line feed is now shown as `\u001b`; a secret that
/// holds ESC is masked first, so it is still `***`.
@Suite
struct TerminalEscapeTests {
    /// Raw C0 controls but tab, LF (and the CR of nothing: none is written without colour),
    /// DEL and C1: what must not reach a terminal.
    static func rawControls(in text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x09, 0x0A: false
            case 0x00...0x1F, 0x7F...0x9F: true
            default: false
            }
        }.map { String(format: "U+%04X", $0.value) }
    }

    static func workflow(_ base: String) -> String { """
        name: terminal
        steps:
          - request: { url: "\(base)/terminal?json=1" }
            capture:
              evil: $.name
              token: { json: $.secret, secret: true }
          - name: "{{ evil }}"
            request: { url: "\(base)/terminal" }
            expect: { status: 201 }
        """ }

    @Test("body, header and a captured step name: no raw ESC or C1 on stdout or stderr, the escaped form instead, the ESC secret masked",
          arguments: [[], ["-v"], ["-q"]])
    func serverControlsAreEscaped(flags: [String]) async throws {
        let server = try await MisbehavingServer.start()
        defer { server.stop() }
        let workspace = try Workspace()
        try workspace.write("terminal.yaml", Self.workflow(server.baseURL))
        let result = try await Courier.run(["run", "terminal.yaml"] + flags, in: workspace.url)
        #expect(result.status == 1, "\("\(result.stdout)\n\(result.stderr)")")
        // Before the fix: U+001B (ESC[1A, ESC[2K, ESC]0;…, ESC[2J), U+0007, U+009B and U+007F, raw.
        #expect(Self.rawControls(in: result.stdout).isEmpty, "raw controls on stdout: \(Self.rawControls(in: result.stdout))")
        #expect(Self.rawControls(in: result.stderr).isEmpty, "raw controls on stderr: \(Self.rawControls(in: result.stderr))")
        // The step name a server filled in: shown, inert (its FAIL line is there, in one piece).
        #expect(result.stdout.contains(#"\u001b[1A\u001b[2K  PASS  fake"#), "\(result.stdout)")
        if flags != ["-q"] {
            #expect(result.stdout.contains(#"FAIL  \u001b[1A\u001b[2K  PASS  fake  200"#), "\(result.stdout)")
        }
        // The header and the body of the failed step's transcript (-q keeps failure blocks).
        #expect(result.stdout.contains(#"< X-Evil: a\u001b[2Jb"#), "\(result.stdout)")
        #expect(result.stdout.contains(#"\u001b]0;owned\u0007\u001b[2J\u009b2J\u007f *** end"#), "\(result.stdout)")
        // The secret holding ESC is masked before escaping: never shown, escaped or not.
        #expect(!result.allOutput.contains("tok\u{1B}en-9"))
        #expect(!result.allOutput.contains(#"tok\u001ben-9"#), "\(result.stdout)")
    }

    @Test("with --color always, Courier's own colour still reaches the terminal, the server's sequences do not")
    func ownColourStays() async throws {
        let server = try await MisbehavingServer.start()
        defer { server.stop() }
        let workspace = try Workspace()
        try workspace.write("terminal.yaml", Self.workflow(server.baseURL))
        let result = try await Courier.run(["run", "terminal.yaml", "--color", "always"], in: workspace.url)
        #expect(result.stdout.contains("\u{1B}[1;31mFAIL \u{1B}[0m \\u001b[1A\\u001b[2K  PASS  fake"), "\(result.stdout)")
        // Every raw ESC is one of Courier's SGR sequences (ESC [ digits/; m).
        let stripped = result.stdout.replacingOccurrences(of: #"\u{1B}\[[0-9;]*m"#, with: "", options: .regularExpression)
        #expect(Self.rawControls(in: stripped).isEmpty, "raw controls besides colour: \(Self.rawControls(in: stripped))")
    }

    @Test("merge-reports quotes an input's value with its control characters escaped")
    func mergeReportsMessages() async throws {
        let workspace = try Workspace()
        try workspace.write("a.xml", """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="courier" tests="1" failures="0" errors="0" time="0.1">
              <testsuite name="s" tests="1" failures="0" errors="0" time="\u{9B}2J">
                <testcase name="x" classname="a" time="0.1"/>
              </testsuite>
            </testsuites>
            """)
        let result = try await Courier.run(["merge-reports", "out.xml", "a.xml"], in: workspace.url)
        #expect(result.status != 0, "\(result.stderr)")
        #expect(result.stderr.contains(#"\u009b2J"#), "\(result.stderr)")
        #expect(Self.rawControls(in: result.allOutput).isEmpty, "raw controls: \(Self.rawControls(in: result.allOutput))")
    }
}
