/// Patterns in gitignore syntax, from a `.courierignore` file or `--exclude GLOB` options.
///
/// What is supported, as in gitignore: blank lines and `#` comments; `\#` and `\!` for a
/// literal first character; `!` negates (re-includes); later lines win; a trailing `/`
/// matches directories only; a pattern with a `/` before its end is anchored to the ignore
/// file's directory (a leading `/` only anchors), else it matches a name at any depth;
/// `*` and `?` never match `/`; `[abc]`, `[a-z]`, `[!a]` classes; `**/` is any number of
/// directories, a trailing `/**` everything inside. As in git, a file inside an ignored
/// directory cannot be re-included (the walk never enters that directory).
struct IgnoreRules: Sendable {
    struct Rule: Sendable {
        var negated: Bool
        var directoryOnly: Bool
        /// The pattern matched against the whole path relative to the rules' directory.
        var glob: [UInt8]
    }

    private(set) var rules: [Rule] = []

    init(rules: [Rule] = []) {
        self.rules = rules
    }

    /// The rules of a `.courierignore` file's text.
    init(parsing text: String) {
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            if let rule = Self.rule(String(line)) { rules.append(rule) }
        }
    }

    /// One rule from one line or one `--exclude` value; nil for blank lines and comments.
    static func rule(_ line: String) -> Rule? {
        var text = line
        if text.hasSuffix("\r") { text.removeLast() }
        // Trailing blanks are not part of the pattern unless escaped.
        while text.hasSuffix(" ") && !text.hasSuffix("\\ ") { text.removeLast() }
        guard !text.isEmpty, !text.hasPrefix("#") else { return nil }
        var negated = false
        if text.hasPrefix("!") {
            negated = true
            text.removeFirst()
        } else if text.hasPrefix("\\!") || text.hasPrefix("\\#") {
            text.removeFirst()
        }
        var directoryOnly = false
        while text.hasSuffix("/") {
            directoryOnly = true
            text.removeLast()
        }
        guard !text.isEmpty else { return nil }
        // A slash at the start or in the middle anchors the pattern to the rules' directory.
        let anchored = text.contains("/")
        if text.hasPrefix("/") { text.removeFirst() }
        if !anchored { text = "**/" + text }
        return Rule(negated: negated, directoryOnly: directoryOnly, glob: Array(text.utf8))
    }

    /// Whether the last rule that matches `path` (relative to the rules' directory, `/`-separated)
    /// ignores it: true ignored, false re-included, nil when no rule matches.
    func decision(for path: String, isDirectory: Bool) -> Bool? {
        let bytes = Array(path.utf8)
        for rule in rules.reversed() where !rule.directoryOnly || isDirectory {
            if Self.matches(rule.glob, bytes) { return !rule.negated }
        }
        return nil
    }

    // MARK: - Glob matching

    /// Whether `glob` matches all of `path`. Memoised on positions: at most
    /// glob × path steps, whatever the stars.
    static func matches(_ glob: [UInt8], _ path: [UInt8]) -> Bool {
        var failed = Set<Int>()
        return match(glob, 0, path, 0, failed: &failed)
    }

    private static let slash = UInt8(ascii: "/")
    private static let star = UInt8(ascii: "*")

    private static func match(_ g: [UInt8], _ gi: Int, _ p: [UInt8], _ pi: Int, failed: inout Set<Int>) -> Bool {
        let key = gi &* (p.count + 1) &+ pi
        if failed.contains(key) { return false }
        let result = matchUncached(g, gi, p, pi, failed: &failed)
        if !result { failed.insert(key) }
        return result
    }

    private static func matchUncached(_ g: [UInt8], _ gi: Int, _ p: [UInt8], _ pi: Int, failed: inout Set<Int>) -> Bool {
        if gi == g.count { return pi == p.count }
        let atSegmentStart = gi == 0 || g[gi - 1] == slash
        // `**` as a whole segment.
        if g[gi] == star, gi + 1 < g.count, g[gi + 1] == star, atSegmentStart, gi + 2 == g.count || g[gi + 2] == slash {
            if gi + 2 == g.count {
                // A trailing `**`: everything (inside the directory before it).
                return true
            }
            // `**/`: zero or more whole directories.
            if match(g, gi + 3, p, pi, failed: &failed) { return true }
            var index = pi
            while index < p.count {
                if p[index] == slash, match(g, gi + 3, p, index + 1, failed: &failed) { return true }
                index += 1
            }
            return false
        }
        if pi == p.count {
            // Only stars can match nothing.
            return g[gi] == star && match(g, gi + 1, p, pi, failed: &failed)
        }
        switch g[gi] {
        case star:
            // Any run of characters within one segment (collapsing `**` inside a segment to `*`).
            var next = gi + 1
            while next < g.count, g[next] == star { next += 1 }
            var index = pi
            while true {
                if match(g, next, p, index, failed: &failed) { return true }
                if index == p.count || p[index] == slash { return false }
                index += 1
            }
        case UInt8(ascii: "?"):
            return p[pi] != slash && match(g, gi + 1, p, pi + 1, failed: &failed)
        case UInt8(ascii: "["):
            guard let (matched, after) = matchClass(g, gi, p[pi]) else {
                // No closing `]`: a literal `[`.
                return p[pi] == UInt8(ascii: "[") && match(g, gi + 1, p, pi + 1, failed: &failed)
            }
            return matched && p[pi] != slash && match(g, after, p, pi + 1, failed: &failed)
        case UInt8(ascii: "\\") where gi + 1 < g.count:
            return p[pi] == g[gi + 1] && match(g, gi + 2, p, pi + 1, failed: &failed)
        default:
            return p[pi] == g[gi] && match(g, gi + 1, p, pi + 1, failed: &failed)
        }
    }

    /// Matches `byte` against the class starting at `g[start] == "["`: whether it matched and
    /// the index after the class, or nil when the class is not closed.
    private static func matchClass(_ g: [UInt8], _ start: Int, _ byte: UInt8) -> (Bool, Int)? {
        var index = start + 1
        var negated = false
        if index < g.count, g[index] == UInt8(ascii: "!") || g[index] == UInt8(ascii: "^") {
            negated = true
            index += 1
        }
        var matched = false
        var first = true
        while index < g.count {
            let c = g[index]
            if c == UInt8(ascii: "]") && !first { return (matched != negated, index + 1) }
            first = false
            if index + 2 < g.count, g[index + 1] == UInt8(ascii: "-"), g[index + 2] != UInt8(ascii: "]") {
                if g[index] <= byte && byte <= g[index + 2] { matched = true }
                index += 3
            } else {
                if c == byte { matched = true }
                index += 1
            }
        }
        return nil
    }
}
