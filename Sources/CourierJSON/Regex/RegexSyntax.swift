/// The syntax tree of a parsed pattern, shared by every dialect.
///
/// The parser builds it without recursion and caps group nesting at
/// ``RegexParser/maximumNesting``, so the compiler's walk over it is bounded.
indirect enum RegexNode {
    /// Matches the empty string.
    case empty
    /// One scalar (case-folded at compile time when the pattern ignores case).
    case scalar(UInt32)
    /// A character class, `.` or an escape such as `\d`.
    case set(ScalarSet)
    case concatenation([RegexNode])
    case alternation([RegexNode])
    /// A group; `capture` is the group number (1-based) of a capturing group.
    case group(RegexNode, capture: Int?)
    /// `max == nil` is unbounded.
    case quantified(RegexNode, min: Int, max: Int?, greedy: Bool)
    case assertion(RegexAssertion)
    case lookaround(RegexNode, behind: Bool, negative: Bool)
    case backreference(Int)
}

enum RegexAssertion {
    /// `^`: the start of the string, or of a line with the `m` flag.
    case start
    /// `$`: the end of the string, or of a line with the `m` flag.
    case end
    case wordBoundary
    case notWordBoundary
}

/// Flags that change how a pattern reads (the workflow dialect's leading `(?ims)`).
struct RegexFlags: Equatable {
    var ignoreCase = false
    /// `^` and `$` also match at line terminators.
    var multiline = false
    /// `.` also matches line terminators.
    var dotAll = false
}

extension RegexNode {
    /// Whether the node can match the empty string (lookarounds and assertions always can).
    var canBeEmpty: Bool {
        switch self {
        case .empty, .assertion, .lookaround, .backreference: true
        case .scalar, .set: false
        case .concatenation(let items): items.allSatisfy(\.canBeEmpty)
        case .alternation(let items): items.contains(where: \.canBeEmpty)
        case .group(let inner, _): inner.canBeEmpty
        case .quantified(let inner, let min, _, _): min == 0 || inner.canBeEmpty
        }
    }

    /// The capture groups the node contains, as a closed range of group numbers, if any.
    var captureGroups: ClosedRange<Int>? {
        func merge(_ a: ClosedRange<Int>?, _ b: ClosedRange<Int>?) -> ClosedRange<Int>? {
            guard let a else { return b }
            guard let b else { return a }
            return min(a.lowerBound, b.lowerBound)...max(a.upperBound, b.upperBound)
        }
        switch self {
        case .empty, .scalar, .set, .assertion, .backreference: return nil
        case .concatenation(let items), .alternation(let items):
            return items.reduce(nil) { merge($0, $1.captureGroups) }
        case .group(let inner, let capture):
            return merge(capture.map { $0...$0 }, inner.captureGroups)
        case .quantified(let inner, _, _, _), .lookaround(let inner, _, _):
            return inner.captureGroups
        }
    }
}
