import Testing
@testable import CourierJSON

/// Courier's bounded regular-expression engine (``RegexPattern``): matches and groups per
/// dialect, syntax errors, and the step budget.
@Suite struct RegexTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var pattern: String
        var subject: String
        /// Group texts of the first match (group 0 first; `nil` for a group that did not take
        /// part), or `nil` for no match.
        var groups: [String?]?
        var dialect: RegexDialect = .ecma262

        var testDescription: String { "/\(pattern)/ on \"\(subject)\"" }
    }

    static let cases: [Case] = [
        // Literals, alternation, leftmost-first priority.
        Case(pattern: "abc", subject: "xxabcxx", groups: ["abc"]),
        Case(pattern: "abd", subject: "abcabc", groups: nil),
        Case(pattern: "a|ab", subject: "abc", groups: ["a"]),
        Case(pattern: "ab|a", subject: "abc", groups: ["ab"]),
        Case(pattern: "", subject: "abc", groups: [""]),
        // Quantifiers: greedy, lazy, counted.
        Case(pattern: "a*", subject: "aaa", groups: ["aaa"]),
        Case(pattern: "a*?", subject: "aaa", groups: [""]),
        Case(pattern: "a+?", subject: "aaa", groups: ["a"]),
        Case(pattern: "<(.+)>", subject: "<a><b>", groups: ["<a><b>", "a><b"]),
        Case(pattern: "<(.+?)>", subject: "<a><b>", groups: ["<a>", "a"]),
        Case(pattern: "a{2,3}", subject: "aaaa", groups: ["aaa"]),
        Case(pattern: "a{2,3}?", subject: "aaaa", groups: ["aa"]),
        Case(pattern: "^a{2}$", subject: "aaa", groups: nil),
        Case(pattern: "(ab){2,}", subject: "abababx", groups: ["ababab", "ab"]),
        Case(pattern: "(ab){1,2}?c", subject: "ababc", groups: ["ababc", "ab"]),
        Case(pattern: "x{", subject: "x{", groups: ["x{"]),
        Case(pattern: "x{1,a}", subject: "x{1,a}", groups: ["x{1,a}"]),
        Case(pattern: "(a|b)*c", subject: "abac", groups: ["abac", "a"]),
        Case(pattern: "(?:(a)|b)+", subject: "ab", groups: ["ab", nil]),
        Case(pattern: "(a*)*b", subject: "aab", groups: ["aab", "aa"]),
        Case(pattern: "(a*)+$", subject: "b", groups: ["", ""]),
        // ECMA-262's empty check: an optional iteration may not match empty (found by
        // comparing with V8 on random patterns).
        Case(pattern: "(\\b)?", subject: "ca", groups: ["", nil]),
        Case(pattern: "(.??)?", subject: "bcb", groups: ["b", "b"]),
        Case(pattern: "([ab]??){1,2}", subject: "aa", groups: ["a", "a"]),
        Case(pattern: "^(?:(?:a??.+?)*?|\\b)+", subject: "AaaAa ", groups: ["AaaAa "]),
        // Anchors and word boundaries.
        Case(pattern: "^b", subject: "a\nb", groups: nil),
        Case(pattern: "a$", subject: "a\n", groups: nil),
        Case(pattern: "(?m)^b$", subject: "a\nb\nc", groups: ["b"], dialect: .workflow),
        Case(pattern: "\\bfoo\\b", subject: "a foo.", groups: ["foo"]),
        Case(pattern: "\\Boo\\B", subject: "foo", groups: nil),
        Case(pattern: "\\Bo", subject: "foo", groups: ["o"]),
        // Classes and escapes.
        Case(pattern: "[a-c]+", subject: "xxabcabd", groups: ["abcab"]),
        Case(pattern: "[^a-c]+", subject: "abxyzc", groups: ["xyz"]),
        Case(pattern: "[\\d-]+", subject: "a12-3b", groups: ["12-3"]),
        Case(pattern: "\\d+", subject: "x٣42", groups: ["42"]),
        Case(pattern: "\\w+", subject: "é_ab1", groups: ["_ab1"]),
        Case(pattern: "\\s", subject: "a\u{FEFF}b", groups: ["\u{FEFF}"]),
        Case(pattern: "a.c", subject: "a\nc", groups: nil),
        Case(pattern: "(?s)a.c", subject: "a\nc", groups: ["a\nc"], dialect: .workflow),
        Case(pattern: "[]", subject: "a", groups: nil),
        Case(pattern: "[^]", subject: "\n", groups: ["\n"]),
        Case(pattern: "\\u0041\\x42\\u{43}\\cJ", subject: "ABC\n", groups: ["ABC\n"]),
        Case(pattern: "\\p{Lu}+", subject: "abÉCd", groups: ["ÉC"]),
        Case(pattern: "\\P{L}", subject: "ab1", groups: ["1"]),
        Case(pattern: "[\\p{Nd}x]+", subject: "-x٣2-", groups: ["x٣2"]),
        Case(pattern: "\\.\\/\\-", subject: "./-", groups: ["./-"]),
        // Unicode scalars, including astral ones.
        Case(pattern: "^.$", subject: "😀", groups: ["😀"]),
        Case(pattern: "^\\ud83d\\ude00$", subject: "😀", groups: ["😀"]),
        Case(pattern: "[😀-😂]", subject: "x😁", groups: ["😁"]),
        Case(pattern: "^..$", subject: "e\u{301}", groups: ["e\u{301}"]),
        // Case-insensitivity.
        Case(pattern: "(?i)hello", subject: "say HeLLo", groups: ["HeLLo"], dialect: .workflow),
        Case(pattern: "(?i)[a-z]+", subject: "ÀBc", groups: ["Bc"], dialect: .workflow),
        Case(pattern: "(?i)straße", subject: "STRAßE", groups: ["STRAßE"], dialect: .workflow),
        Case(pattern: "(?i)σ", subject: "Σ", groups: ["Σ"], dialect: .workflow),
        Case(pattern: "(?i)[^a]", subject: "A", groups: nil, dialect: .workflow),
        Case(pattern: "(?i)ſ", subject: "xS", groups: ["S"], dialect: .workflow),
        Case(pattern: "(?i)ſ+", subject: "xsS", groups: ["sS"], dialect: .workflow),
        Case(pattern: "(?i)k", subject: "\u{212A}", groups: ["\u{212A}"], dialect: .workflow),
        Case(pattern: "(?i)(a)\\1", subject: "aA", groups: ["aA", "a"], dialect: .workflow),
        // Backreferences and named groups.
        Case(pattern: "(a|b)\\1", subject: "abba", groups: ["bb", "b"]),
        Case(pattern: "(?<q>['\"]).*?\\k<q>", subject: "x'a\"b'", groups: ["'a\"b'", "'"]),
        Case(pattern: "\\1(a)", subject: "a", groups: ["a", "a"]),
        Case(pattern: "(a)|\\1b", subject: "b", groups: ["b", nil]),
        // Lookaround.
        Case(pattern: "a(?=b)", subject: "acab", groups: ["a"]),
        Case(pattern: "a(?!b)", subject: "abac", groups: ["a"]),
        Case(pattern: "(?<=\\$)\\d+", subject: "x1 $42", groups: ["42"]),
        Case(pattern: "(?<!\\$)\\b\\d+", subject: "$1 42", groups: ["42"]),
        Case(pattern: "(?<=(\\d+)(\\d+))$", subject: "1053", groups: ["", "1", "053"]),
        Case(pattern: "(?<=\\1(a))b", subject: "aab", groups: ["b", "a"]),
        Case(pattern: "(?=(a+))a*b\\1", subject: "baaabac", groups: ["aba", "a"]),
        Case(pattern: "(?!(a))\\1b", subject: "b", groups: ["b", nil]),
        // I-Regexp.
        Case(pattern: "a.c", subject: "a\u{2028}c", groups: ["a\u{2028}c"], dialect: .iRegexp),
        Case(pattern: "[a-c]+", subject: "xabc", groups: ["abc"], dialect: .iRegexp),
        Case(pattern: "\\p{Lu}", subject: "aB", groups: ["B"], dialect: .iRegexp),
    ]

    @Test(arguments: cases)
    func matches(_ c: Case) throws {
        let pattern = try RegexPattern(c.pattern, dialect: c.dialect)
        switch pattern.firstMatch(in: c.subject) {
        case .match(let match):
            let groups = (0...pattern.groupCount).map { match[$0] }
            #expect(groups == c.groups)
        case .noMatch:
            #expect(c.groups == nil)
        case .tooExpensive(let exceeded):
            Issue.record("unexpected: \(exceeded)")
        }
    }

    static let invalid: [(pattern: String, dialect: RegexDialect, offset: Int, message: String)] = [
        ("(a", .ecma262, 0, "missing ')'"),
        ("a)", .ecma262, 1, "unmatched ')'"),
        ("*a", .ecma262, 0, "nothing to repeat"),
        ("a**", .ecma262, 2, "nothing to repeat"),
        ("[b-a]", .ecma262, 1, "range out of order"),
        ("a{3,2}", .ecma262, 1, "numbers out of order"),
        ("\\2(a)", .ecma262, 0, "backreference to group 2"),
        ("\\k<x>(?<y>a)", .ecma262, 0, "no group named 'x'"),
        ("\\e", .ecma262, 0, "invalid escape"),
        ("\\p{Greek}", .ecma262, 0, "unsupported Unicode property"),
        ("[a", .ecma262, 0, "missing ']'"),
        ("(?i)a", .ecma262, 0, "invalid group"),
        ("a(?i)b", .workflow, 1, "only allowed at the start"),
        ("(?ix)a", .workflow, 3, "unknown flag"),
        ("(?<n>a)(?<n>b)", .ecma262, 10, "duplicate group name"),
    ]

    @Test(arguments: 0..<invalid.count)
    func rejects(_ index: Int) {
        let c = Self.invalid[index]
        #expect {
            _ = try RegexPattern(c.pattern, dialect: c.dialect)
        } throws: { error in
            guard let error = error as? RegexSyntaxError else { return false }
            return error.offset == c.offset && error.message.contains(c.message)
        }
    }

    @Test func iRegexpRejectsWhatRFC9485Excludes() {
        for pattern in ["(a)\\1", "a*?", "\\d", "(?:a)", "(?=a)", "a{,2}"] {
            #expect(throws: RegexSyntaxError.self, "\(pattern)") { try RegexPattern(pattern, dialect: .iRegexp) }
        }
    }

    @Test func nestingIsCappedWithoutExhaustingTheStack() async throws {
        let deepest = String(repeating: "(", count: RegexParser.maximumNesting) + "a" + String(repeating: ")", count: RegexParser.maximumNesting)
        // On the cooperative pool, whose threads have smaller stacks than the main thread.
        let matched = try await Task.detached {
            try RegexPattern(deepest, dialect: .ecma262).matches("a")
        }.value
        #expect(matched)
        let tooDeep = "(" + deepest + ")"
        #expect(throws: RegexSyntaxError.self) { try RegexPattern(tooDeep, dialect: .ecma262) }
        let deepQuantified = String(repeating: "(?:", count: 500) + "a" + String(repeating: ")*", count: 500)
        #expect(try RegexPattern(deepQuantified, dialect: .ecma262).matches(String(repeating: "a", count: 1000)))
    }

    // MARK: - Budget

    @Test(.timeLimit(.minutes(1)), arguments: 30...39)
    func ambiguousAlternationIsLinear(_ count: Int) throws {
        let pattern = try RegexPattern("(a|a)*b", dialect: .ecma262)
        let subject = String(repeating: "a", count: count)
        #expect(try pattern.matches(subject) == false)
        #expect(pattern.steps(in: subject) < 10_000)
        #expect(try pattern.matches(subject + "b"))
    }

    @Test(.timeLimit(.minutes(1)))
    func exponentialBackreferencesRunOutOfBudget() throws {
        // Backreferences turn the visited set off, so this one is exponential.
        let pattern = try RegexPattern("^(a|a)*\\1b", dialect: .ecma262)
        let subject = String(repeating: "a", count: 39)
        guard case .tooExpensive(let exceeded) = pattern.firstMatch(in: subject) else {
            Issue.record("expected the budget to run out")
            return
        }
        #expect(exceeded.description == "pattern too expensive (more than 1,000,000 steps against 39 characters)")
    }

    @Test func budgetBoundary() throws {
        let pattern = try RegexPattern("^(a|b)*\\1c", dialect: .ecma262)
        let subject = "abababababd"
        let needed = pattern.steps(in: subject)
        #expect(needed > 50)
        guard case .noMatch = pattern.firstMatch(in: subject, budget: RegexBudget(steps: needed)) else {
            Issue.record("expected no match within \(needed) steps")
            return
        }
        guard case .tooExpensive(let exceeded) = pattern.firstMatch(in: subject, budget: RegexBudget(steps: needed - 1)) else {
            Issue.record("expected the budget of \(needed - 1) steps to run out")
            return
        }
        #expect(exceeded.steps == needed - 1)
    }

    @Test func budgetGrowsWithLongSubjects() {
        #expect(RegexBudget.default.limit(forLength: 39) == 1_000_000)
        #expect(RegexBudget.default.limit(forLength: 1_000_000) == 200_000_000)
    }

    @Test func largeBodiesMatchWithinTheDefaultBudget() throws {
        let body = String(repeating: "lorem ipsum dolor sit amet, ", count: 4_000) + "\"id\": 42"
        let pattern = try RegexPattern("\"id\":\\s*(\\d+)", dialect: .workflow)
        guard case .match(let match) = pattern.firstMatch(in: body) else {
            Issue.record("expected a match")
            return
        }
        #expect(match[1] == "42")
        // More steps than the fixed 1,000,000 (linear, but the body is long): the per-scalar
        // allowance covers it.
        let nested = try RegexPattern("(\\w+\\s?)*!", dialect: .workflow)
        #expect(nested.steps(in: body) > RegexBudget.defaultSteps)
        #expect(try nested.matches(body) == false)
    }

    @Test func jsonPathRecordsTheFirstCallThatRanOutOfBudget() throws {
        let cache = IRegexpCache(budget: RegexBudget(steps: 50))
        let regex = try #require(cache.regex(for: "(a|a)*b", anchored: true))
        #expect(cache.matches(regex, String(repeating: "a", count: 39), pattern: "(a|a)*b", anchored: true) == false)
        #expect(cache.firstExceeded?.description == "match() with '(a|a)*b': pattern too expensive (more than 50 steps against 39 characters)")
        // Later calls answer false at once.
        #expect(cache.matches(regex, "b", pattern: "(a|a)*b", anchored: true) == false)
    }
}
