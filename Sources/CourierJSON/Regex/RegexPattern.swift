/// A compiled regular expression, matched by Courier's own bounded engine.
///
/// Every user-written pattern goes through this type: JSON Schema `pattern`, JSONPath
/// `match()`/`search()`, and the workflow's `matches`, `not_matches`, `regex` captures and
/// `--filter`. Matching runs on Unicode scalars with a step budget (``RegexBudget``), so a
/// pattern like `(a|a)*b` cannot hang a run: ordinary patterns take time linear in the
/// subject (branch points remember the positions they have tried), and the budget stops the
/// rest (backreferences can make matching exponential) with ``RegexResult/tooExpensive(_:)``.
///
/// ```swift
/// let pattern = try RegexPattern("id=(\\d+)", dialect: .workflow)
/// if case .match(let match) = pattern.firstMatch(in: "id=42") {
///     print(match[1] ?? "")   // 42
/// }
/// ```
public struct RegexPattern: Sendable {
    /// The pattern as written.
    public let source: String
    public let dialect: RegexDialect
    let program: RegexProgram

    /// Compiles `pattern`; throws where it is not valid in `dialect`.
    public init(_ pattern: String, dialect: RegexDialect) throws(RegexSyntaxError) {
        var text = pattern
        if dialect == .iRegexp {
            guard let translated = IRegexp.translate(pattern) else {
                throw RegexSyntaxError(offset: 0, message: "not an I-Regexp (RFC 9485)")
            }
            text = translated
        }
        var parser = RegexParser(text, allowsLeadingFlags: dialect == .workflow)
        let tree = try parser.parse()
        program = try RegexCompiler.compile(tree, flags: parser.flags, groupCount: parser.groupCount, groupNames: parser.groupNames)
        source = pattern
        self.dialect = dialect
    }

    /// The number of capturing groups.
    public var groupCount: Int { program.groupCount }

    /// The group number of a named group.
    public func group(named name: String) -> Int? { program.groupNames[name] }

    /// The leftmost match in `subject` (patterns are not implicitly anchored).
    public func firstMatch(in subject: String, budget: RegexBudget = .default) -> RegexResult {
        firstMatch(inScalars: Self.scalars(of: subject), budget: budget)
    }

    /// The scalar values of `text`, decoded straight from its UTF-8 when it is stored
    /// contiguously (native strings are): several times faster than `unicodeScalars.map`.
    static func scalars(of text: String) -> [UInt32] {
        let decoded = text.utf8.withContiguousStorageIfAvailable { bytes -> [UInt32] in
            [UInt32](unsafeUninitializedCapacity: bytes.count) { buffer, count in
                var i = 0
                var n = 0
                let end = bytes.count
                while i < end {
                    let b = UInt32(bytes[i])
                    if b < 0x80 {
                        buffer[n] = b
                        i += 1
                    } else if b < 0xE0 {
                        buffer[n] = (b & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F)
                        i += 2
                    } else if b < 0xF0 {
                        buffer[n] = (b & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F)
                        i += 3
                    } else {
                        buffer[n] = (b & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12
                            | UInt32(bytes[i + 2] & 0x3F) << 6 | UInt32(bytes[i + 3] & 0x3F)
                        i += 4
                    }
                    n += 1
                }
                count = n
            }
        }
        // A String's UTF-8 is always valid, so the lead byte gives each scalar's length.
        return decoded ?? text.unicodeScalars.map(\.value)
    }

    func firstMatch(inScalars scalars: [UInt32], budget: RegexBudget) -> RegexResult {
        let limit = budget.limit(forLength: scalars.count)
        var matcher = RegexMatcher(program: program, subject: scalars, limit: limit)
        switch matcher.firstMatch() {
        case .match(let slots): return .match(RegexMatch(scalars: scalars, slots: slots))
        case .noMatch: return .noMatch
        case .tooExpensive: return .tooExpensive(RegexBudgetExceeded(steps: limit, length: scalars.count))
        }
    }

    /// Whether the pattern matches somewhere in `subject`; throws when the budget runs out.
    public func matches(_ subject: String, budget: RegexBudget = .default) throws(RegexBudgetExceeded) -> Bool {
        switch firstMatch(in: subject, budget: budget) {
        case .match: return true
        case .noMatch: return false
        case .tooExpensive(let exceeded): throw exceeded
        }
    }

    /// Steps the last match in `subject` took (for tests of the budget boundary).
    func steps(in subject: String) -> Int {
        var matcher = RegexMatcher(program: program, subject: Self.scalars(of: subject), limit: Int.max)
        _ = matcher.firstMatch()
        return matcher.steps
    }
}

/// Which syntax a pattern is read in. One engine serves all three.
public enum RegexDialect: Sendable {
    /// ECMA-262 with the `u` flag (JSON Schema `pattern` and `patternProperties`).
    case ecma262
    /// RFC 9485 I-Regexp (JSONPath `match()` and `search()`): no backreferences, lookaround,
    /// lazy quantifiers or escapes like `\d`; `.` matches anything but `\n` and `\r`.
    case iRegexp
    /// ECMA-262 syntax plus leading inline flags `(?i)`, `(?m)`, `(?s)` (or combined, `(?is)`):
    /// `matches`, `not_matches`, `regex` captures and `--filter`.
    case workflow
}

/// How much work one match call may do.
///
/// A step is one instruction of the matching machine or one backtrack. The limit of a call is
/// `steps`, or `stepsPerScalar` times the subject's length in scalars when that is more, so
/// large bodies get room in proportion to their size while short subjects keep the fixed
/// bound.
public struct RegexBudget: Sendable, Equatable {
    /// 1,000,000 steps.
    public static let defaultSteps = 1_000_000
    /// 200 steps per scalar of the subject.
    public static let defaultStepsPerScalar = 200
    public static let `default` = RegexBudget(steps: defaultSteps, stepsPerScalar: defaultStepsPerScalar)

    public var steps: Int
    public var stepsPerScalar: Int

    public init(steps: Int, stepsPerScalar: Int = 0) {
        self.steps = steps
        self.stepsPerScalar = stepsPerScalar
    }

    func limit(forLength length: Int) -> Int {
        let (scaled, overflow) = stepsPerScalar.multipliedReportingOverflow(by: length)
        return overflow ? Int.max : max(steps, scaled)
    }
}

/// The outcome of one match call.
public enum RegexResult: Sendable {
    case match(RegexMatch)
    case noMatch
    /// The budget ran out before the engine could decide.
    case tooExpensive(RegexBudgetExceeded)
}

/// A successful match: where the whole match and each group are, in scalar offsets.
public struct RegexMatch: Sendable {
    let scalars: [UInt32]
    let slots: [Int]

    /// The number of groups, not counting group 0 (the whole match).
    public var groupCount: Int { slots.count / 2 - 1 }

    /// Scalar offsets of group `group` (0 is the whole match), or `nil` when it did not take part.
    public func range(_ group: Int) -> Range<Int>? {
        guard group >= 0, 2 * group + 1 < slots.count else { return nil }
        let from = slots[2 * group], to = slots[2 * group + 1]
        return from >= 0 && to >= from ? from..<to : nil
    }

    /// The text of group `group`, or `nil` when it did not take part.
    public subscript(_ group: Int) -> String? {
        guard let range = range(group) else { return nil }
        var text = String.UnicodeScalarView()
        for value in scalars[range] {
            if let scalar = Unicode.Scalar(value) { text.append(scalar) }
        }
        return String(text)
    }
}

/// The budget ran out: the pattern is too expensive for this subject.
public struct RegexBudgetExceeded: Error, Sendable, Equatable, CustomStringConvertible {
    /// The step limit that was exceeded.
    public let steps: Int
    /// The subject's length in scalars.
    public let length: Int

    /// `pattern too expensive (more than 1,000,000 steps against 39 characters)`.
    public var description: String {
        "pattern too expensive (more than \(Self.grouped(steps)) steps against \(Self.grouped(length)) character\(length == 1 ? "" : "s"))"
    }

    private static func grouped(_ value: Int) -> String {
        var digits = Array(String(value))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return String(digits)
    }
}
