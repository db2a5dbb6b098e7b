/// Runs a ``RegexProgram`` over a subject's scalars: a backtracking machine with an explicit
/// stack (no recursion, whatever the subject or pattern), a visited set of (branch point,
/// position) pairs (see ``RegexCompiler``), and a step limit that makes every call finish.
struct RegexMatcher {
    enum Outcome {
        /// The capture slots: start and end of group 0, group 1… (-1 when a group did not take part).
        case match([Int])
        case noMatch
        case tooExpensive
    }

    /// What to do when backtracking reaches a frame.
    private enum Frame {
        /// Try instruction `pc` at `position`.
        case alternative(pc: Int, position: Int)
        case restore(slot: Int, value: Int)
        /// A greedy `repeatSet` that last tried its continuation `pc` at `position`; it can give
        /// back scalars down to `lowest`.
        case greedy(pc: Int, position: Int, lowest: Int, memo: Int, backward: Bool)
        /// A lazy `repeatSet` at `pc` that has taken `count` scalars, ending at `position`.
        case lazy(pc: Int, position: Int, count: Int)
        /// A lookaround started at `pc` from `position`, with the capture slots saved before it.
        case look(pc: Int, position: Int, snapshot: Int)
        /// Puts back the capture slots saved before a lookaround that succeeded.
        case restoreAll(snapshot: Int)
    }

    let program: RegexProgram
    let subject: [UInt32]
    let limit: Int
    private(set) var steps = 0
    private var memo: [UInt64] = []
    /// Buffers kept from one start position to the next, so a search allocates once.
    private var slotBuffer: [Int] = []
    private var stackBuffer: [Frame] = []
    /// Largest visited set allocated (in bits); beyond it the matcher runs without one and
    /// only the step limit bounds it.
    static let maximumMemoBits = 1 << 28

    init(program: RegexProgram, subject: [UInt32], limit: Int) {
        self.program = program
        self.subject = subject
        self.limit = limit
        let bits = program.memoRows * (subject.count + 1)
        if bits > 0 && bits <= Self.maximumMemoBits {
            memo = [UInt64](repeating: 0, count: (bits + 63) / 64)
        }
    }

    /// Whether `(row, position)` was visited before; marks it visited.
    @inline(__always)
    private mutating func visited(_ row: Int, _ position: Int) -> Bool {
        guard row >= 0, !memo.isEmpty else { return false }
        let bit = row * (subject.count + 1) + position
        let word = bit >> 6
        let mask: UInt64 = 1 << UInt64(bit & 63)
        if memo[word] & mask != 0 { return true }
        memo[word] |= mask
        return false
    }

    /// The leftmost match (ECMA-262 priority among alternatives at that start).
    mutating func firstMatch() -> Outcome {
        let count = subject.count
        let last = program.anchoredAtStart ? 0 : count
        var start = 0
        while start <= last {
            if let first = program.firstScalars {
                // Skipping positions no match can start at costs no steps: it is a scan.
                while start < count && !first.contains(subject[start]) { start += 1 }
                if start >= count { break }
            }
            switch run(from: start) {
            case .match(let slots): return .match(slots)
            case .tooExpensive: return .tooExpensive
            case .noMatch: break
            }
            start += 1
        }
        return .noMatch
    }

    // MARK: - The machine

    private mutating func run(from start: Int) -> Outcome {
        let instructions = program.instructions
        let sets = program.sets
        let bits = program.asciiBits
        let count = subject.count
        var slots: [Int] = []
        var stack: [Frame] = []
        swap(&slots, &slotBuffer)
        swap(&stack, &stackBuffer)
        defer {
            swap(&slots, &slotBuffer)
            swap(&stack, &stackBuffer)
        }
        if slots.count != program.slotCount {
            slots = [Int](repeating: -1, count: program.slotCount)
        } else {
            for i in slots.indices { slots[i] = -1 }
        }
        stack.removeAll(keepingCapacity: true)
        var snapshots: [[Int]] = []
        var pc = 0
        var position = start
        var failing = false

        while true {
            steps += 1
            if steps > limit { return .tooExpensive }

            if failing {
                guard let frame = stack.popLast() else { return .noMatch }
                switch frame {
                case .alternative(let target, let at):
                    pc = target
                    position = at
                    failing = false
                case .restore(let slot, let value):
                    slots[slot] = value
                case .greedy(let continuation, let at, let lowest, let row, let backward):
                    let next = backward ? at + 1 : at - 1
                    if backward ? next > lowest : next < lowest { break }
                    if next != lowest {
                        stack.append(.greedy(pc: continuation, position: next, lowest: lowest, memo: row, backward: backward))
                    }
                    if visited(row, next) { break }
                    pc = continuation
                    position = next
                    failing = false
                case .lazy(let repeatPC, let at, let taken):
                    guard case .repeatSet(let set, _, let max, _, let backward, let row) = instructions[repeatPC],
                          taken < max else { break }
                    let index = backward ? at - 1 : at
                    guard index >= 0, index < count, Self.contains(set, subject[index], bits, sets) else { break }
                    let next = backward ? at - 1 : at + 1
                    stack.append(.lazy(pc: repeatPC, position: next, count: taken + 1))
                    if visited(row, next) { break }
                    pc = repeatPC + 1
                    position = next
                    failing = false
                case .look(let lookPC, let at, let snapshot):
                    // The body failed: a negative lookaround holds, a positive one fails.
                    slots = snapshots[snapshot]
                    if case .lookStart(true, let end) = instructions[lookPC] {
                        pc = end + 1
                        position = at
                        failing = false
                    }
                case .restoreAll(let snapshot):
                    slots = snapshots[snapshot]
                }
                continue
            }

            switch instructions[pc] {
            case .scalar(let value, let fold, let backward):
                let index = backward ? position - 1 : position
                guard index >= 0, index < count else { failing = true; continue }
                let c = subject[index]
                guard fold ? CaseFolding.fold(c) == value : c == value else { failing = true; continue }
                position = backward ? index : index + 1
                pc += 1
            case .set(let set, let backward):
                let index = backward ? position - 1 : position
                guard index >= 0, index < count, Self.contains(set, subject[index], bits, sets) else { failing = true; continue }
                position = backward ? index : index + 1
                pc += 1
            case .repeatSet(let set, let min, let max, let greedy, let backward, let row):
                // Take `min` scalars (greedy: as many as allowed), one step each.
                let wanted = greedy ? max : min
                var taken = 0
                var at = position
                while taken < wanted {
                    let index = backward ? at - 1 : at
                    guard index >= 0, index < count, Self.contains(set, subject[index], bits, sets) else { break }
                    at = backward ? index : index + 1
                    taken += 1
                    steps += 1
                }
                if steps > limit { return .tooExpensive }
                guard taken >= min else { failing = true; continue }
                if greedy {
                    let lowest = backward ? position - min : position + min
                    if at != lowest {
                        stack.append(.greedy(pc: pc + 1, position: at, lowest: lowest, memo: row, backward: backward))
                    }
                } else if min < max {
                    stack.append(.lazy(pc: pc, position: at, count: taken))
                }
                if visited(row, at) { failing = true; continue }
                position = at
                pc += 1
            case .split(let first, let second, let row):
                if visited(row, position) { failing = true; continue }
                stack.append(.alternative(pc: second, position: position))
                pc = first
            case .jump(let target):
                pc = target
            case .save(let slot):
                stack.append(.restore(slot: slot, value: slots[slot]))
                slots[slot] = position
                pc += 1
            case .resetCaptures(let range):
                for slot in range where slots[slot] != -1 {
                    stack.append(.restore(slot: slot, value: slots[slot]))
                    slots[slot] = -1
                }
                pc += 1
            case .assertion(let assertion, let multiline):
                guard holds(assertion, multiline: multiline, at: position) else { failing = true; continue }
                pc += 1
            case .backreference(let group, let fold, let backward):
                let from = slots[2 * group], to = slots[2 * group + 1]
                if from >= 0 && to >= from {
                    let length = to - from
                    let begin = backward ? position - length : position
                    guard begin >= 0, begin + length <= count else { failing = true; continue }
                    steps += length
                    var equal = true
                    for i in 0..<length {
                        let a = subject[from + i], b = subject[begin + i]
                        if a != b && (!fold || CaseFolding.fold(a) != CaseFolding.fold(b)) {
                            equal = false
                            break
                        }
                    }
                    guard equal else { failing = true; continue }
                    position = backward ? begin : begin + length
                }
                pc += 1
            case .lookStart:
                snapshots.append(slots)
                stack.append(.look(pc: pc, position: position, snapshot: snapshots.count - 1))
                pc += 1
            case .lookEnd:
                // The body matched: drop what it left to try (a lookaround is atomic).
                var found: (pc: Int, position: Int, snapshot: Int)?
                while let frame = stack.popLast() {
                    steps += 1
                    if case .look(let lookPC, let at, let snapshot) = frame {
                        found = (lookPC, at, snapshot)
                        break
                    }
                }
                guard let found, case .lookStart(let negative, let end) = instructions[found.pc] else {
                    return .noMatch  // unreachable: every lookEnd has its lookStart frame
                }
                if negative {
                    slots = snapshots[found.snapshot]
                    failing = true
                    continue
                }
                stack.append(.restoreAll(snapshot: found.snapshot))
                position = found.position
                pc = end + 1
            case .emptyCheckStart(let slot):
                stack.append(.restore(slot: slot, value: slots[slot]))
                slots[slot] = position
                pc += 1
            case .emptyCheckEnd(let slot):
                guard slots[slot] != position else { failing = true; continue }
                pc += 1
            case .match:
                return .match(Array(slots[0..<(2 * (program.groupCount + 1))]))
            }
        }
    }

    @inline(__always)
    private static func contains(_ set: Int, _ value: UInt32, _ bits: [UInt64], _ sets: [CompiledScalarSet]) -> Bool {
        if value < 128 {
            return bits[2 * set + Int(value >> 6)] & (1 << UInt64(value & 63)) != 0
        }
        return sets[set].contains(value)
    }

    private func holds(_ assertion: RegexAssertion, multiline: Bool, at position: Int) -> Bool {
        let count = subject.count
        switch assertion {
        case .start:
            return position == 0 || (multiline && BuiltinSet.lineTerminator.contains(subject[position - 1]))
        case .end:
            return position == count || (multiline && BuiltinSet.lineTerminator.contains(subject[position]))
        case .wordBoundary, .notWordBoundary:
            let before = position > 0 && BuiltinSet.word.contains(subject[position - 1])
            let after = position < count && BuiltinSet.word.contains(subject[position])
            return (before != after) == (assertion == .wordBoundary)
        }
    }
}
