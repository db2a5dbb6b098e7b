import CourierDiagnostics
@testable import CourierWorkflow
import Testing

@Suite struct DiagnosticsTests {
    @Test(arguments: [
        ("hedaers", "headers"), ("metod", "method"), ("URL", "url"), ("contians", "contains"),
        ("tiemout", "timeout"), ("base_ulr", "base_url"),
    ])
    func suggestsCloseNames(word: String, expected: String) {
        let keys = ["headers", "method", "url", "contains", "timeout", "base_url", "json"]
        #expect(suggestion(for: word, among: keys) == expected)
    }

    @Test(arguments: ["zzz", "3", "completely_different", ""])
    func noSuggestionForFarWords(word: String) {
        #expect(suggestion(for: word, among: ["headers", "method", "2", "1.1"]) == nil)
    }

    /// The growing form answers as the one-shot search would over the names that the
    /// question accepts at that moment, however the accepted set changes between questions.
    @Test func growingSuggestionsFollowTheAcceptedNames() {
        var suggestions = GrowingSuggestions()
        var defined: Set<String> = []
        func ask(_ word: String) -> String? { suggestions.closest(to: word) { defined.contains($0) } }
        #expect(ask("tokne") == nil)
        for name in ["user", "token", "tokens"] {
            suggestions.offer(name)
            defined.insert(name)
        }
        #expect(ask("tokne") == "token")
        #expect(ask("tokne") == suggestion(for: "tokne", among: ["user", "token", "tokens"]))
        defined.remove("token")
        #expect(ask("tokne") == "tokens")
        defined.remove("tokens")
        #expect(ask("tokne") == nil)
        // Case alone is the closest of all, even when offered last.
        suggestions.offer("TOKNE")
        defined.formUnion(["token", "TOKNE"])
        #expect(ask("tokne") == "TOKNE")
        // Of equally close names, the first offered.
        var ties = GrowingSuggestions()
        for name in ["tokem", "tokel"] { ties.offer(name) }
        #expect(ties.closest(to: "token") { _ in true } == "tokem")
    }

    /// A limited distance agrees with the full one wherever that is within the limit, and
    /// says "over" (limit + 1) otherwise: random words over a small alphabet, so that
    /// transpositions and near misses are common.
    @Test func limitedEditDistanceAgreesWithTheFullOne() {
        var random = SystemRandomNumberGenerator()
        let alphabet = Array("abc".unicodeScalars)
        func word() -> [Unicode.Scalar] { (0..<Int.random(in: 0...7, using: &random)).map { _ in alphabet.randomElement(using: &random)! } }
        for _ in 0..<5_000 {
            let (a, b) = (word(), word())
            let full = editDistance(a, b)
            for limit in 0...3 {
                let limited = editDistance(a, b, limit: limit)
                #expect(full <= limit ? limited == full : limited > limit, "\(a) \(b) limit \(limit): \(limited) vs \(full)")
            }
        }
    }

    /// Past its comparison budget, a word not yet compared gets no suggestion; words
    /// compared before keep theirs.
    @Test func growingSuggestionsStopAtTheirBudget() {
        var suggestions = GrowingSuggestions(comparisonBudget: 3)
        for name in ["alpha", "beta", "gamma"] { suggestions.offer(name) }
        #expect(suggestions.closest(to: "alpah") { _ in true } == "alpha")
        #expect(suggestions.closest(to: "gamam") { _ in true } == nil)
        #expect(suggestions.closest(to: "alpah") { _ in true } == "alpha")
    }

    @Test func longLinesShowAWindowAroundTheCaret() {
        let sources = SourceStore()
        let line = String(repeating: "a", count: 300) + "!" + String(repeating: "b", count: 300)
        sources.register(path: "doc.json", text: line + "\n")
        let start = SourceLocation(file: "doc.json", line: 1, column: 301)
        let d = Diagnostic.error("unexpected '!'", at: SourceRange(start: start, end: start.advanced(by: 1)))
        let lines = DiagnosticRenderer(sources: sources, color: false).render(d).split(separator: "\n")
        let excerpt = String(lines[1]), caret = String(lines[2])
        #expect(excerpt.hasPrefix("    1 | ...") && excerpt.hasSuffix("..."), "\(excerpt)")
        #expect(excerpt.count <= "    1 | ".count + 120)
        // The caret stands under the '!' in the shown window.
        let caretColumn = caret.distance(from: caret.startIndex, to: caret.firstIndex(of: "^")!)
        let bangColumn = excerpt.distance(from: excerpt.startIndex, to: excerpt.firstIndex(of: "!")!)
        #expect(caretColumn == bangColumn)
    }

    @Test func rendersTheSpecExampleExactly() {
        let sources = SourceStore()
        var text = ""
        for _ in 1...13 { text += "#\n" }
        text += "      hedaers:\n"
        sources.register(path: "Workflows/login.yaml", text: text)
        let start = SourceLocation(file: "Workflows/login.yaml", line: 14, column: 7)
        let d = Diagnostic.error("unknown key 'hedaers' in request; did you mean 'headers'?",
                                 at: SourceRange(start: start, end: start.advanced(by: 7)))
        #expect(DiagnosticRenderer(sources: sources, color: false).render(d) == """
        Workflows/login.yaml:14:7: error: unknown key 'hedaers' in request; did you mean 'headers'?
           14 |       hedaers:
              |       ^~~~~~~

        """)
    }

    @Test func colourOnlyWhenAsked() {
        let sources = SourceStore()
        sources.register(path: "a", text: "x\n")
        let d = Diagnostic.error("bad", at: SourceRange(at: SourceLocation(file: "a", line: 1, column: 1)))
        #expect(!DiagnosticRenderer(sources: sources, color: false).render(d).contains("\u{1B}"))
        #expect(DiagnosticRenderer(sources: sources, color: true).render(d).contains("\u{1B}[1;31merror: "))
    }

    @Test func tabsExpandAndCaretFollows() {
        let sources = SourceStore()
        sources.register(path: "a", text: "\tkey: x\n")
        let start = SourceLocation(file: "a", line: 1, column: 2)
        let d = Diagnostic.error("m", at: SourceRange(start: start, end: start.advanced(by: 3)))
        let lines = DiagnosticRenderer(sources: sources, color: false).render(d).split(separator: "\n")
        #expect(lines[1] == "    1 |     key: x")
        #expect(lines[2] == "      |     ^~~")
    }

    @Test func withoutSourceOnlyTheHeadline() {
        let d = Diagnostic.error("cannot read 'x.yaml': no such file", at: nil)
        #expect(DiagnosticRenderer(sources: SourceStore(), color: false).render(d) == "error: cannot read 'x.yaml': no such file\n")
    }

    @Test func missingFileIsADiagnosticNotACrash() {
        guard case .failure(let list) = loadWorkflow(path: "/nonexistent/w.yaml", sources: SourceStore()) else {
            Issue.record("expected failure")
            return
        }
        #expect(list.diagnostics.first?.message.hasPrefix("cannot read '/nonexistent/w.yaml'") == true)
    }

    @Test(arguments: [
        ("250ms", 250), ("2s", 2000), ("1.5s", 1500), ("1m", 60000), ("3", 3000), ("0.25", 250), ("1h", 3_600_000),
    ])
    func durations(text: String, ms: Int64) {
        #expect(Duration.parse(text)?.wholeMilliseconds == ms)
    }

    @Test(arguments: ["", "ms", "-1s", "1 s", "abc", "1.5.2s", "2d"])
    func invalidDurations(text: String) {
        #expect(Duration.parse(text) == nil)
    }
}
