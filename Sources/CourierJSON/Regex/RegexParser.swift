/// Parses ECMA-262 pattern syntax (read as with the `u` flag, with the lenient Annex B
/// readings browsers apply: a `{` that starts no quantifier and a lone `]` or `}` are
/// literals, and `\` before any character that is not an ASCII letter or digit escapes it).
///
/// Groups are parsed with an explicit stack of frames rather than recursion, and nesting is
/// capped at ``maximumNesting``, so no pattern can exhaust the thread's stack here or in the
/// compiler's walk over the tree.
struct RegexParser {
    static let maximumNesting = 512
    /// Repetition counts above this are rejected rather than expanded.
    static let maximumRepetition = 100_000

    private let scalars: [Unicode.Scalar]
    private var position = 0
    private let allowsLeadingFlags: Bool
    private(set) var flags = RegexFlags()
    private(set) var groupCount = 0
    private(set) var groupNames: [String: Int] = [:]
    private var nextGroup = 1

    init(_ pattern: String, allowsLeadingFlags: Bool) {
        scalars = Array(pattern.unicodeScalars)
        self.allowsLeadingFlags = allowsLeadingFlags
    }

    private enum FrameKind {
        case root
        case group(capture: Int?)
        case lookaround(behind: Bool, negative: Bool)
    }

    private struct Frame {
        var kind: FrameKind
        var start: Int
        var alternatives: [RegexNode] = []
        var items: [RegexNode] = []
        /// Whether the last item may take a quantifier (not an assertion or lookaround).
        var lastIsQuantifiable = false

        func node() -> RegexNode {
            let all = alternatives + [Self.sequence(items)]
            return all.count == 1 ? all[0] : .alternation(all)
        }

        static func sequence(_ items: [RegexNode]) -> RegexNode {
            switch items.count {
            case 0: .empty
            case 1: items[0]
            default: .concatenation(items)
            }
        }
    }

    private func error(_ message: String, at offset: Int? = nil) -> RegexSyntaxError {
        RegexSyntaxError(offset: offset ?? position, message: message)
    }

    private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        position + ahead < scalars.count ? scalars[position + ahead] : nil
    }

    // MARK: - Structure

    mutating func parse() throws(RegexSyntaxError) -> RegexNode {
        try scanGroups()
        if allowsLeadingFlags { try leadingFlags() }
        var frames = [Frame(kind: .root, start: 0)]
        while let c = peek() {
            switch c {
            case "|":
                position += 1
                let items = frames[frames.count - 1].items
                frames[frames.count - 1].alternatives.append(Frame.sequence(items))
                frames[frames.count - 1].items = []
                frames[frames.count - 1].lastIsQuantifiable = false
            case "(":
                let start = position
                let kind = try groupOpening()
                guard frames.count <= Self.maximumNesting else {
                    throw error("groups nested more than \(Self.maximumNesting) deep", at: start)
                }
                frames.append(Frame(kind: kind, start: start))
            case ")":
                guard frames.count > 1, let frame = frames.popLast() else { throw error("unmatched ')'") }
                position += 1
                let inner = frame.node()
                switch frame.kind {
                case .root:
                    throw error("unmatched ')'")
                case .group(let capture):
                    frames[frames.count - 1].items.append(.group(inner, capture: capture))
                    frames[frames.count - 1].lastIsQuantifiable = true
                case .lookaround(let behind, let negative):
                    frames[frames.count - 1].items.append(.lookaround(inner, behind: behind, negative: negative))
                    frames[frames.count - 1].lastIsQuantifiable = false
                }
            case "*", "+", "?":
                try quantifier(&frames[frames.count - 1])
            case "{":
                if braceQuantifierAhead() {
                    try quantifier(&frames[frames.count - 1])
                } else {
                    position += 1
                    append(.scalar(c.value), to: &frames[frames.count - 1])
                }
            default:
                let (node, quantifiable) = try atom()
                frames[frames.count - 1].items.append(node)
                frames[frames.count - 1].lastIsQuantifiable = quantifiable
            }
        }
        guard frames.count == 1 else { throw error("missing ')' for the group opened", at: frames[frames.count - 1].start) }
        return frames[0].node()
    }

    private func append(_ node: RegexNode, to frame: inout Frame) {
        frame.items.append(node)
        frame.lastIsQuantifiable = true
    }

    /// `(?i)`, `(?ms)`… at the very start of a workflow pattern.
    private mutating func leadingFlags() throws(RegexSyntaxError) {
        guard peek() == "(", peek(1) == "?", let first = peek(2), "ims".unicodeScalars.contains(first) else { return }
        var i = position + 2
        var flags = RegexFlags()
        while i < scalars.count, scalars[i] != ")" {
            switch scalars[i] {
            case "i": flags.ignoreCase = true
            case "m": flags.multiline = true
            case "s": flags.dotAll = true
            default: throw error("unknown flag '\(scalars[i])'; the flags are i, m and s", at: i)
            }
            i += 1
        }
        guard i < scalars.count else { throw error("missing ')' after the flags") }
        self.flags = flags
        position = i + 1
    }

    /// Counts capturing groups and collects their names first, so `\2` and `\k<name>` can
    /// refer to groups that open later in the pattern.
    private mutating func scanGroups() throws(RegexSyntaxError) {
        var i = 0
        var inClass = false
        var count = 0
        while i < scalars.count {
            let c = scalars[i]
            if c == "\\" {
                i += 2
                continue
            }
            if inClass {
                if c == "]" { inClass = false }
            } else if c == "[" {
                inClass = true
            } else if c == "(" {
                if i + 1 < scalars.count, scalars[i + 1] == "?" {
                    if i + 2 < scalars.count, scalars[i + 2] == "<", i + 3 < scalars.count,
                       scalars[i + 3] != "=", scalars[i + 3] != "!" {
                        count += 1
                        var name = ""
                        var j = i + 3
                        while j < scalars.count, scalars[j] != ">" {
                            name.unicodeScalars.append(scalars[j])
                            j += 1
                        }
                        guard j < scalars.count, Self.isGroupName(name) else {
                            throw error("invalid group name '\(name)'", at: i + 3)
                        }
                        guard groupNames[name] == nil else { throw error("duplicate group name '\(name)'", at: i + 3) }
                        groupNames[name] = count
                    }
                } else {
                    count += 1
                }
            }
            i += 1
        }
        groupCount = count
    }

    private static func isGroupName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || $0 == "$" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }

    /// `(`, `(?:`, `(?<name>`, `(?=`, `(?!`, `(?<=`, `(?<!`, consumed.
    private mutating func groupOpening() throws(RegexSyntaxError) -> FrameKind {
        let start = position
        position += 1
        guard peek() == "?" else {
            defer { nextGroup += 1 }
            return .group(capture: nextGroup)
        }
        switch (peek(1), peek(2)) {
        case (":", _):
            position += 2
            return .group(capture: nil)
        case ("=", _), ("!", _):
            let negative = peek(1) == "!"
            position += 2
            return .lookaround(behind: false, negative: negative)
        case ("<", "="), ("<", "!"):
            let negative = peek(2) == "!"
            position += 3
            return .lookaround(behind: true, negative: negative)
        case ("<", _):
            position += 2
            while let c = peek(), c != ">" { position += 1 }
            position += 1
            defer { nextGroup += 1 }
            return .group(capture: nextGroup)
        default:
            if allowsLeadingFlags, let flag = peek(1), "imsx".unicodeScalars.contains(flag) {
                throw error("inline flags like '(?\(flag))' are only allowed at the start of the pattern", at: start)
            }
            throw error("invalid group '(?'", at: start)
        }
    }

    // MARK: - Quantifiers

    /// Whether a `{n}`, `{n,}` or `{n,m}` quantifier starts here.
    private func braceQuantifierAhead() -> Bool {
        var i = position + 1
        var digits = 0
        while i < scalars.count, ("0"..."9").contains(scalars[i]) { i += 1; digits += 1 }
        guard digits > 0, i < scalars.count else { return false }
        if scalars[i] == "," {
            i += 1
            while i < scalars.count, ("0"..."9").contains(scalars[i]) { i += 1 }
        }
        return i < scalars.count && scalars[i] == "}"
    }

    private mutating func number() -> Int {
        var value = 0
        while let c = peek(), ("0"..."9").contains(c) {
            value = min(value * 10 + Int(c.value - 0x30), Self.maximumRepetition + 1)
            position += 1
        }
        return value
    }

    private mutating func quantifier(_ frame: inout Frame) throws(RegexSyntaxError) {
        let start = position
        guard frame.lastIsQuantifiable, let target = frame.items.popLast() else {
            throw error("nothing to repeat before '\(scalars[position])'")
        }
        var low = 0
        var high: Int?
        switch scalars[position] {
        case "*": position += 1
        case "+": low = 1; position += 1
        case "?": high = 1; position += 1
        default:
            position += 1
            low = number()
            high = low
            if peek() == "," {
                position += 1
                high = peek() == "}" ? nil : number()
            }
            position += 1  // `}`, checked by braceQuantifierAhead
            if let high, high < low { throw error("numbers out of order in the quantifier", at: start) }
            if low > Self.maximumRepetition || (high ?? 0) > Self.maximumRepetition {
                throw error("repetition count above \(Self.maximumRepetition)", at: start)
            }
        }
        var greedy = true
        if peek() == "?" {
            greedy = false
            position += 1
        }
        frame.items.append(.quantified(target, min: low, max: high, greedy: greedy))
        // `a**` is an error, as in ECMA-262.
        frame.lastIsQuantifiable = false
    }

    // MARK: - Atoms

    /// One atom outside a class, and whether a quantifier may follow it.
    private mutating func atom() throws(RegexSyntaxError) -> (RegexNode, Bool) {
        let c = scalars[position]
        switch c {
        case ".":
            position += 1
            return (.set(flags.dotAll ? .anything : .dot), true)
        case "^":
            position += 1
            return (.assertion(.start), false)
        case "$":
            position += 1
            return (.assertion(.end), false)
        case "[":
            return (.set(try characterClass()), true)
        case "\\":
            return try escape()
        default:
            position += 1
            return (.scalar(c.value), true)
        }
    }

    private mutating func escape() throws(RegexSyntaxError) -> (RegexNode, Bool) {
        let start = position
        guard let e = peek(1) else { throw error("'\\' at the end of the pattern") }
        switch e {
        case "b":
            position += 2
            return (.assertion(.wordBoundary), false)
        case "B":
            position += 2
            return (.assertion(.notWordBoundary), false)
        case "1"..."9":
            position += 1
            let group = number()
            guard group <= groupCount else { throw error("backreference to group \(group), but the pattern has \(groupCount)", at: start) }
            return (.backreference(group), true)
        case "k":
            guard peek(2) == "<" else { throw error("expected '<' after '\\k'", at: start) }
            position += 3
            var name = ""
            while let c = peek(), c != ">" {
                name.unicodeScalars.append(c)
                position += 1
            }
            guard peek() == ">" else { throw error("missing '>' after the group name", at: start) }
            position += 1
            guard let group = groupNames[name] else { throw error("no group named '\(name)'", at: start) }
            return (.backreference(group), true)
        default:
            if let set = try classEscape() { return (.set(set), true) }
            return (.scalar(try characterEscape()), true)
        }
    }

    /// `\d \D \w \W \s \S \p{…} \P{…}`, consumed, or `nil` (nothing consumed).
    private mutating func classEscape() throws(RegexSyntaxError) -> ScalarSet? {
        guard peek() == "\\", let e = peek(1) else { return nil }
        let builtin: BuiltinSet
        switch e {
        case "d", "D": builtin = .digit
        case "w", "W": builtin = .word
        case "s", "S": builtin = .space
        case "p", "P":
            let start = position
            guard peek(2) == "{" else { throw error("expected '{' after '\\\(e)'", at: start) }
            position += 3
            var name = ""
            while let c = peek(), c != "}" {
                name.unicodeScalars.append(c)
                position += 1
            }
            guard peek() == "}" else { throw error("missing '}' after the property name", at: start) }
            position += 1
            guard let property = BuiltinSet.property(named: name) else {
                throw error("unsupported Unicode property '\\\(e){\(name)}' (general categories such as \\p{L} or \\p{Lu} and a few binary properties are supported)", at: start)
            }
            return ScalarSet(items: [.builtin(property, negated: e == "P")])
        default:
            return nil
        }
        position += 2
        let negated = e.properties.isUppercase
        return ScalarSet(items: [.builtin(builtin, negated: negated)])
    }

    /// A character escape (`\n`, `\u0041`, `\u{1F600}`, `\x41`, `\cJ`, `\0`, `\.`), consumed.
    private mutating func characterEscape() throws(RegexSyntaxError) -> UInt32 {
        let start = position
        guard peek() == "\\", let e = peek(1) else { throw error("'\\' at the end of the pattern") }
        position += 2
        switch e {
        case "t": return 0x09
        case "n": return 0x0A
        case "v": return 0x0B
        case "f": return 0x0C
        case "r": return 0x0D
        case "0":
            if let next = peek(), ("0"..."9").contains(next) { throw error("invalid escape '\\0\(next)'", at: start) }
            return 0
        case "c":
            guard let letter = peek(), letter.isASCII, letter.properties.isAlphabetic else {
                throw error("'\\c' needs a letter", at: start)
            }
            position += 1
            return letter.value % 32
        case "x":
            guard let value = hexValue(count: 2) else { throw error("'\\x' needs two hex digits", at: start) }
            return value
        case "u":
            if peek() == "{" {
                position += 1
                var value: UInt32 = 0
                var digits = 0
                while let c = peek(), c != "}" {
                    guard let d = UInt32(String(c), radix: 16), value <= 0x10FFFF else {
                        throw error("invalid '\\u{…}' escape", at: start)
                    }
                    value = value * 16 + d
                    digits += 1
                    position += 1
                }
                guard peek() == "}", digits > 0, value <= 0x10FFFF else { throw error("invalid '\\u{…}' escape", at: start) }
                position += 1
                return value
            }
            guard let high = hexValue(count: 4) else { throw error("'\\u' needs four hex digits", at: start) }
            if (0xD800...0xDBFF).contains(high), peek() == "\\", peek(1) == "u" {
                let saved = position
                position += 2
                if let low = hexValue(count: 4), (0xDC00...0xDFFF).contains(low) {
                    return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                }
                position = saved
            }
            // A lone surrogate cannot occur in a Swift string: it stays a value nothing matches.
            return high
        default:
            // Identity escapes: `\.`, `\/`, `\-`, `\$`… but not unknown letter or digit escapes.
            if e.isASCII && (e.properties.isAlphabetic || ("0"..."9").contains(e)) {
                throw error("invalid escape '\\\(e)'", at: start)
            }
            return e.value
        }
    }

    private mutating func hexValue(count: Int) -> UInt32? {
        guard position + count <= scalars.count else { return nil }
        var value: UInt32 = 0
        for i in 0..<count {
            guard let d = UInt32(String(scalars[position + i]), radix: 16) else { return nil }
            value = value * 16 + d
        }
        position += count
        return value
    }

    // MARK: - Classes

    /// `[…]`: `[]` matches nothing and `[^]` anything.
    private mutating func characterClass() throws(RegexSyntaxError) -> ScalarSet {
        let start = position
        position += 1
        var set = ScalarSet(items: [])
        if peek() == "^" {
            set.negated = true
            position += 1
        }
        while true {
            guard let c = peek() else { throw error("missing ']' for the class opened", at: start) }
            if c == "]" {
                position += 1
                return set
            }
            let atomStart = position
            let low = try classAtom()
            if peek() == "-", let after = peek(1), after != "]" {
                position += 1
                let high = try classAtom()
                switch (low, high) {
                case (.scalar(let l), .scalar(let h)):
                    guard l <= h else { throw error("range out of order in the class", at: atomStart) }
                    set.items.append(.range(l, h))
                default:
                    // `[\d-z]`: the dash is a literal (Annex B).
                    for item in [low, .scalar(0x2D), high] { add(item, to: &set) }
                }
            } else {
                add(low, to: &set)
            }
        }
    }

    private enum ClassAtom {
        case scalar(UInt32)
        case set(ScalarSet)
    }

    private func add(_ atom: ClassAtom, to set: inout ScalarSet) {
        switch atom {
        case .scalar(let value): set.items.append(.range(value, value))
        case .set(let inner):
            // Escape sets are a single (possibly negated) builtin.
            set.items += inner.items
        }
    }

    /// One class member; `\b` is backspace and `\-` a dash there.
    private mutating func classAtom() throws(RegexSyntaxError) -> ClassAtom {
        let c = scalars[position]
        guard c == "\\" else {
            position += 1
            return .scalar(c.value)
        }
        switch peek(1) {
        case "b":
            position += 2
            return .scalar(0x08)
        case "-":
            position += 2
            return .scalar(0x2D)
        case "B":
            throw error("'\\B' is not allowed in a class")
        default:
            if let set = try classEscape() { return .set(set) }
            if let d = peek(1), ("1"..."9").contains(d) { throw error("backreference '\\\(d)' in a class") }
            return .scalar(try characterEscape())
        }
    }
}
