/// Turns a syntax tree into a ``RegexProgram``.
///
/// Counted repetitions of groups are expanded (`(ab){2,3}` is `ab ab (ab)?`); repetitions of a
/// single scalar or class become one `repeatSet` instruction whatever the counts. The program
/// size is capped at ``maximumInstructions`` so expansion cannot eat memory.
///
/// Memoization (RE2's "BitState"): without backreferences, whether the rest of the pattern
/// matches from instruction `pc` at position `p` depends only on `(pc, p)`, so each branch
/// point records the positions it has tried and never tries one twice. That makes
/// `(a|a)*b` linear. Two places break that premise, and their branch points are not memoized
/// (the step budget alone bounds them): inside lookaround bodies a success abandons the
/// alternatives still pending, so a visited mark there does not mean "fails"; and inside an
/// iteration that may match the empty string, ECMA-262's empty check makes the outcome depend
/// on where the iteration started too. The loop's own branch point is still memoized, which
/// keeps `(a*)*b` polynomial.
struct RegexCompiler {
    static let maximumInstructions = 200_000

    private var program = RegexProgram()
    private let flags: RegexFlags
    private let memoize: Bool
    private var lookDepth = 0
    /// How many iterations that may match empty enclose the code being emitted.
    private var emptyCheckDepth = 0
    private var registers = 0

    private init(flags: RegexFlags, memoize: Bool) {
        self.flags = flags
        self.memoize = memoize
    }

    static func compile(_ node: RegexNode, flags: RegexFlags, groupCount: Int, groupNames: [String: Int]) throws(RegexSyntaxError) -> RegexProgram {
        var compiler = RegexCompiler(flags: flags, memoize: !node.containsBackreference)
        compiler.program.groupCount = groupCount
        compiler.program.groupNames = groupNames
        try compiler.emit(.save(slot: 0))
        try compiler.compile(node, backward: false)
        try compiler.emit(.save(slot: 1))
        try compiler.emit(.match)
        compiler.program.slotCount = 2 * (groupCount + 1) + compiler.registers
        compiler.program.firstScalars = node.firstScalars.map {
            CompiledScalarSet($0, ignoreCase: flags.ignoreCase)
        }
        compiler.program.anchoredAtStart = !flags.multiline && node.startsWithStartAnchor
        return compiler.program
    }

    private mutating func emit(_ instruction: RegexProgram.Instruction) throws(RegexSyntaxError) {
        guard program.instructions.count < Self.maximumInstructions else {
            throw RegexSyntaxError(offset: 0, message: "pattern too large (more than \(Self.maximumInstructions) instructions once repetitions are expanded)")
        }
        program.instructions.append(instruction)
    }

    private var here: Int { program.instructions.count }

    private mutating func memoRow() -> Int {
        guard memoize && lookDepth == 0 && emptyCheckDepth == 0 else { return -1 }
        defer { program.memoRows += 1 }
        return program.memoRows
    }

    private mutating func addSet(_ set: ScalarSet) -> Int {
        let compiled = CompiledScalarSet(set, ignoreCase: flags.ignoreCase)
        program.sets.append(compiled)
        program.asciiBits += [compiled.low, compiled.high]
        return program.sets.count - 1
    }

    // MARK: - Nodes

    private mutating func compile(_ node: RegexNode, backward: Bool) throws(RegexSyntaxError) {
        switch node {
        case .empty:
            break
        case .scalar(let value):
            try emit(.scalar(flags.ignoreCase ? CaseFolding.fold(value) : value, fold: flags.ignoreCase, backward: backward))
        case .set(let set):
            try emit(.set(addSet(set), backward: backward))
        case .concatenation(let items):
            // Right to left inside lookbehind (ECMA-262: the direction applies to sequences).
            for item in backward ? items.reversed() : items {
                try compile(item, backward: backward)
            }
        case .alternation(let items):
            var jumps: [Int] = []
            for (index, item) in items.enumerated() {
                if index < items.count - 1 {
                    let split = here
                    try emit(.split(first: split + 1, second: -1, memo: memoRow()))
                    try compile(item, backward: backward)
                    jumps.append(here)
                    try emit(.jump(-1))
                    patch(split, second: here)
                } else {
                    try compile(item, backward: backward)
                }
            }
            for jump in jumps { program.instructions[jump] = .jump(here) }
        case .group(let inner, let capture):
            guard let capture else { return try compile(inner, backward: backward) }
            // Backward, the end of the group is reached first.
            try emit(.save(slot: 2 * capture + (backward ? 1 : 0)))
            try compile(inner, backward: backward)
            try emit(.save(slot: 2 * capture + (backward ? 0 : 1)))
        case .assertion(let assertion):
            try emit(.assertion(assertion, multiline: flags.multiline))
        case .backreference(let group):
            try emit(.backreference(group: group, fold: flags.ignoreCase, backward: backward))
        case .lookaround(let inner, let behind, let negative):
            let start = here
            try emit(.lookStart(negative: negative, end: -1))
            lookDepth += 1
            try compile(inner, backward: behind)
            lookDepth -= 1
            try emit(.lookEnd)
            program.instructions[start] = .lookStart(negative: negative, end: here - 1)
        case .quantified(let inner, let min, let max, let greedy):
            try quantified(inner, min: min, max: max, greedy: greedy, backward: backward)
        }
    }

    private mutating func patch(_ split: Int, second: Int) {
        if case .split(let first, _, let memo) = program.instructions[split] {
            program.instructions[split] = .split(first: first, second: second, memo: memo)
        }
    }

    private mutating func quantified(_ inner: RegexNode, min: Int, max: Int?, greedy: Bool, backward: Bool) throws(RegexSyntaxError) {
        if let set = inner.singleScalarSet {
            let index = addSet(set)
            try emit(.repeatSet(set: index, min: min, max: max ?? Int.max, greedy: greedy, backward: backward, memo: memoRow()))
            return
        }
        if max == 0 { return }
        let captures = inner.captureGroups.map { (2 * $0.lowerBound)..<(2 * $0.upperBound + 2) }
        func body(_ compiler: inout RegexCompiler, checked: Bool = false) throws(RegexSyntaxError) {
            if let captures { try compiler.emit(.resetCaptures(captures)) }
            if checked { compiler.emptyCheckDepth += 1 }
            try compiler.compile(inner, backward: backward)
            if checked { compiler.emptyCheckDepth -= 1 }
        }
        for _ in 0..<min { try body(&self) }
        // ECMA-262 RepeatMatcher: an iteration beyond the minimum that matches the empty
        // string fails (so `(a??)?` backtracks into `a??` rather than accept it empty).
        let register = inner.canBeEmpty ? 2 * (program.groupCount + 1) + registers : nil
        if register != nil { registers += 1 }
        if let max {
            // Optional copies: each may be skipped, and skipping one skips the rest.
            var splits: [Int] = []
            for _ in min..<max {
                splits.append(here)
                try emit(.split(first: -1, second: -1, memo: memoRow()))
                if let register { try emit(.emptyCheckStart(slot: register)) }
                try body(&self, checked: register != nil)
                if let register { try emit(.emptyCheckEnd(slot: register)) }
            }
            let exit = here
            for split in splits {
                if case .split(_, _, let memo) = program.instructions[split] {
                    program.instructions[split] = greedy
                        ? .split(first: split + 1, second: exit, memo: memo)
                        : .split(first: exit, second: split + 1, memo: memo)
                }
            }
            return
        }
        // Unbounded: loop, refusing an iteration that matches the empty string.
        let loop = here
        try emit(.split(first: -1, second: -1, memo: memoRow()))
        if let register { try emit(.emptyCheckStart(slot: register)) }
        try body(&self, checked: register != nil)
        if let register { try emit(.emptyCheckEnd(slot: register)) }
        try emit(.jump(loop))
        let exit = here
        if case .split(_, _, let memo) = program.instructions[loop] {
            program.instructions[loop] = greedy
                ? .split(first: loop + 1, second: exit, memo: memo)
                : .split(first: exit, second: loop + 1, memo: memo)
        }
    }
}

// MARK: - Analysis

extension RegexNode {
    var containsBackreference: Bool {
        switch self {
        case .backreference: true
        case .empty, .scalar, .set, .assertion: false
        case .concatenation(let items), .alternation(let items): items.contains(where: \.containsBackreference)
        case .group(let inner, _), .quantified(let inner, _, _, _), .lookaround(let inner, _, _): inner.containsBackreference
        }
    }

    /// The set when the node matches exactly one scalar and captures nothing.
    var singleScalarSet: ScalarSet? {
        switch self {
        case .scalar(let value): .single(value)
        case .set(let set): set
        case .group(let inner, nil): inner.singleScalarSet
        default: nil
        }
    }

    var startsWithStartAnchor: Bool {
        switch self {
        case .assertion(.start): true
        case .concatenation(let items): items.first?.startsWithStartAnchor ?? false
        case .group(let inner, _): inner.startsWithStartAnchor
        case .alternation(let items): items.allSatisfy(\.startsWithStartAnchor)
        default: false
        }
    }

    /// The scalars every match starts with, when that is known and the node cannot match
    /// empty; `nil` otherwise.
    var firstScalars: ScalarSet? {
        switch self {
        case .scalar(let value):
            // With its case variants: a superset is safe for skipping, and `(?i)` needs them.
            return ScalarSet(items: CaseFolding.variants(of: value).map { .range($0, $0) })
        case .set(let set): return set
        case .concatenation(let items):
            guard let first = items.first else { return nil }
            return first.firstScalars
        case .alternation(let items):
            var union = ScalarSet(items: [])
            for item in items {
                // A negated class cannot join a union of items: the search then tries every position.
                guard let first = item.firstScalars, !first.negated else { return nil }
                union.items += first.items
            }
            return union
        case .group(let inner, _):
            return inner.firstScalars
        case .quantified(let inner, let min, _, _):
            return min > 0 ? inner.firstScalars : nil
        case .empty, .assertion, .lookaround, .backreference:
            return nil
        }
    }
}
