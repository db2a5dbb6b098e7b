/// Finds every occurrence of a set of byte patterns in one pass (Aho–Corasick), on the
/// text as it is and on its decoded view (see ``EscapeDecoding``).
///
/// Built once per set of secret forms; matching is linear in the text's size whatever the
/// number of patterns, so 10,000 secrets or a 100 MB report stay fast. Works on UTF-8 bytes,
/// never on `Character`s: a secret followed by a combining mark (U+0301) is one grapheme
/// cluster with it, yet its bytes are still there to find.
///
/// `decoded` patterns are searched in the text with every escape decoded as it is read (an
/// escape's bytes step the automaton once per byte it stands for) and each match is mapped
/// back to the text's bytes, escapes included: one pattern covers every mix of percent, JSON
/// and entity escapes of it. `raw` patterns are searched in the text as it is: those whose
/// decoded view would be too short to mask safely (a secret `&amp;` is the byte `&`
/// decoded), and short secrets, masked as written only. The raw pass runs only when there
/// is such a pattern.
///
/// ``coveredRanges(in:)`` returns the union of all matches: overlapping secrets and secrets
/// that are substrings of each other are all covered, each maximal run of covered bytes once.
package struct SecretMatcher: Sendable {
    private let decoded: Automaton?
    private let raw: Automaton?

    /// How many bytes of the text a match spans at most (0 when there is no pattern).
    package let longestPattern: Int
    package var isEmpty: Bool { longestPattern == 0 }

    package init(decoded: [[UInt8]], raw: [[UInt8]] = []) {
        let decoded = decoded.filter { !$0.isEmpty }, raw = raw.filter { !$0.isEmpty }
        self.decoded = decoded.isEmpty ? nil : Automaton(patterns: decoded)
        self.raw = raw.isEmpty ? nil : Automaton(patterns: raw)
        longestPattern = max(self.raw?.longestPattern ?? 0, (self.decoded?.longestPattern ?? 0) * EscapeDecoding.maximumExpansion)
    }

    /// The byte ranges covered by at least one pattern, sorted, merged where they
    /// overlap or touch.
    package func coveredRanges(in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        guard !isEmpty, let base = bytes.baseAddress else { return [] }
        var fromDecoded: [Range<Int>] = [], fromRaw: [Range<Int>] = []
        decoded?.scanDecoded(base, count: bytes.count) { Self.add($0..<$1, to: &fromDecoded) }
        raw?.scan(base, count: bytes.count) { Self.add($0..<$1, to: &fromRaw) }
        return Self.merged(fromDecoded, fromRaw)
    }

    /// Appends `range` to ranges whose ends arrive in increasing order, or end inside the
    /// last one (a match inside an escape), joining it with the ones it overlaps or touches
    /// (a later match may start before earlier ones).
    private static func add(_ range: Range<Int>, to ranges: inout [Range<Int>]) {
        var start = range.lowerBound, end = range.upperBound
        while let last = ranges.last, last.upperBound >= start {
            start = min(start, last.lowerBound)
            end = max(end, last.upperBound)
            ranges.removeLast()
        }
        ranges.append(start..<end)
    }

    /// The length in bytes of the longest suffix of `bytes` that is the beginning of a
    /// pattern (a form cut in the middle, an escape cut inside included); 0 when there is none.
    package func partialMatchLength(atEndOf bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard !isEmpty, let base = bytes.baseAddress else { return 0 }
        return max(decoded?.partialDecodedLength(base, count: bytes.count) ?? 0,
                   raw?.finalDepth(base, count: bytes.count) ?? 0)
    }

    /// Two sorted range lists as one, sorted, overlapping and touching ranges joined.
    package static func merged(_ first: [Range<Int>], _ second: [Range<Int>]) -> [Range<Int>] {
        guard !second.isEmpty else { return first }
        guard !first.isEmpty else { return second }
        var result: [Range<Int>] = []
        for range in (first + second).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }
}

/// The automaton's tables in flat buffers: one allocation each, no bounds checks
/// or copy-on-write checks in the scanning loop.
///
/// Nodes are numbered breadth first and packed in 32-byte records, so a node's
/// children sit side by side and following a link touches one cache line.
/// Shallow nodes (where scanning spends nearly all its time) and busy ones get
/// a complete row of 256 transitions, failure links already followed, so a
/// byte there costs one load; deeper nodes scan their children and follow
/// failure links up to the nearest complete row.
///
/// `@unchecked Sendable`: every buffer is written only in `init` and read-only after.
private final class Automaton: @unchecked Sendable {
    private struct Node {
        /// Index of the first child; the others follow it (breadth-first numbering).
        var firstChild: Int32 = 0
        var childCount: Int32 = 0
        var fail: Int32 = 0
        /// Length of the longest pattern ending here (through failure links); 0 if none.
        var output: Int32 = 0
        /// Row in `rows`, or -1: scan the children.
        var row: Int32 = -1
        var depth: Int32 = 0
        var label: UInt8 = 0
    }

    let longestPattern: Int
    private let nodes: UnsafeMutablePointer<Node>
    private let rows: UnsafeMutablePointer<Int32>
    /// Bytes that may begin an escape or are folded (1), others (0), for the decoded scan:
    /// one load per byte.
    private let special: UnsafeMutablePointer<UInt8>

    /// Nodes this shallow, or with this many children, get a complete row.
    private static let rowDepth: Int32 = 2
    private static let rowChildren: Int32 = 8
    /// At most this many rows (1 KiB each): 10,000 secrets need a few thousand.
    private static let maximumRows = 65_536

    init(patterns: [[UInt8]]) {
        // 1. The trie, with sibling lists, in insertion order.
        var firstChild: [Int32] = [-1], nextSibling: [Int32] = [-1], label: [UInt8] = [0]
        var terminal: [Int32] = [0]
        var longest = 0
        for pattern in patterns {
            longest = max(longest, pattern.count)
            var node: Int32 = 0
            for byte in pattern {
                var child = firstChild[Int(node)]
                while child >= 0 && label[Int(child)] != byte { child = nextSibling[Int(child)] }
                if child < 0 {
                    child = Int32(label.count)
                    label.append(byte)
                    firstChild.append(-1)
                    nextSibling.append(firstChild[Int(node)])
                    terminal.append(0)
                    firstChild[Int(node)] = child
                }
                node = child
            }
            terminal[Int(node)] = max(terminal[Int(node)], Int32(pattern.count))
        }
        longestPattern = longest
        special = .allocate(capacity: 256)
        for byte in 0..<256 { special[byte] = EscapeDecoding.isSpecial(UInt8(byte)) ? 1 : 0 }

        // 2. Renumbered breadth first: children of a node get consecutive numbers.
        let count = label.count
        var order: [Int32] = [0]
        order.reserveCapacity(count)
        var head = 0
        nodes = .allocate(capacity: count)
        nodes.initialize(repeating: Node(), count: count)
        while head < order.count {
            let old = Int(order[head])
            let new = head
            nodes[new].label = label[old]
            nodes[new].output = terminal[old]
            nodes[new].firstChild = Int32(order.count)
            var child = firstChild[old]
            while child >= 0 {
                order.append(child)
                nodes[new].childCount += 1
                child = nextSibling[Int(child)]
            }
            for index in Int(nodes[new].firstChild)..<order.count { nodes[index].depth = nodes[new].depth + 1 }
            head += 1
        }

        // 3. Rows for shallow and busy nodes (the root always has row 0).
        var rowCount = 0
        for node in 0..<count where rowCount < Self.maximumRows
            && (node == 0 || nodes[node].depth <= Self.rowDepth || nodes[node].childCount >= Self.rowChildren) {
            nodes[node].row = Int32(rowCount)
            rowCount += 1
        }
        rows = .allocate(capacity: rowCount * 256)
        rows.initialize(repeating: -1, count: rowCount * 256)

        // 4. Breadth first: a node's failure link is shallower, so the link's row
        // (or its own links) are complete before the node needs them.
        for node in 0..<count {
            let first = Int(nodes[node].firstChild), end = first + Int(nodes[node].childCount)
            if nodes[node].row >= 0 {
                let base = rows + Int(nodes[node].row) * 256
                for child in first..<end { base[Int(nodes[child].label)] = Int32(child) }
                for byte in 0..<256 where base[byte] < 0 {
                    base[byte] = node == 0 ? 0 : step(nodes[node].fail, UInt8(byte))
                }
            }
            for child in first..<end {
                let link = node == 0 ? 0 : step(nodes[node].fail, nodes[child].label)
                nodes[child].fail = link
                nodes[child].output = max(nodes[child].output, nodes[Int(link)].output)
            }
        }
    }

    deinit {
        nodes.deallocate()
        rows.deallocate()
        special.deallocate()
    }

    /// The state after `byte` in `state`: a row's entry, else a matching child,
    /// else the same from the failure link.
    @inline(__always)
    private func step(_ state: Int32, _ byte: UInt8) -> Int32 {
        var state = Int(state)
        while true {
            let node = nodes[state]
            if node.row >= 0 { return rows[Int(node.row) &* 256 &+ Int(byte)] }
            var child = Int(node.firstChild)
            let end = child &+ Int(node.childCount)
            while child < end {
                if nodes[child].label == byte { return Int32(child) }
                child &+= 1
            }
            state = Int(node.fail)
        }
    }

    /// Calls `found(start, end)` for the longest match ending at each position that has one.
    func scan(_ bytes: UnsafePointer<UInt8>, count: Int, found: (Int, Int) -> Void) {
        var state: Int32 = 0
        for index in 0..<count {
            state = step(state, bytes[index])
            let length = Int(nodes[Int(state)].output)
            if length > 0 { found(index + 1 - length, index + 1) }
        }
    }

    func finalDepth(_ bytes: UnsafePointer<UInt8>, count: Int) -> Int {
        var state: Int32 = 0
        for index in 0..<count { state = step(state, bytes[index]) }
        return Int(nodes[Int(state)].depth)
    }

    // MARK: - The decoded view

    /// Like ``scan(_:count:found:)`` on the text with every escape decoded (``EscapeDecoding``),
    /// `found` getting the match's span in the text: from the escape or byte its first decoded
    /// byte came from to the end of the one its last came from.
    func scanDecoded(_ bytes: UnsafePointer<UInt8>, count: Int, found: (Int, Int) -> Void) {
        _ = runDecoded(bytes, count: count, found: found)
    }

    /// The text bytes at the end of `bytes` that begin a decoded pattern, an unfinished escape
    /// after them included (`…p@ss%2` cut inside `%20`); 0 when there is none.
    func partialDecodedLength(_ bytes: UnsafePointer<UInt8>, count: Int) -> Int {
        let finished = count - EscapeDecoding.incompleteEscapeLength(atEndOf: bytes, count: count)
        let start = runDecoded(bytes, count: finished) { _, _ in }
        return start.map { count - $0 } ?? 0
    }

    /// Scans the decoded view; returns where in the text the final state's partial match
    /// begins, or nil when the final state is the root.
    ///
    /// The decoded view is never built: the text is read once, an escape decoded where one
    /// begins, and a small ring of the last escapes seen (no more than a match can span)
    /// maps a decoded offset back to the text. Between escapes the two offsets differ by a
    /// constant (`shift`), so ordinary bytes cost what they cost in ``scan(_:count:found:)``
    /// plus one table load (is it `%`, `\`, `&` or `+`?).
    private func runDecoded(_ bytes: UnsafePointer<UInt8>, count: Int, found: (Int, Int) -> Void) -> Int? {
        // A match of n decoded bytes overlaps at most n escapes: keep one more than the longest.
        var capacity = 1
        while capacity <= longestPattern { capacity <<= 1 }
        let insideCapacity = longestPattern + 16
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: EscapeLog.storage(capacity) + insideCapacity) { storage in
            guard let base = storage.baseAddress else { return nil }
            // A plain struct over the buffer: nothing the loop touches is boxed.
            var log = EscapeLog(base, capacity: capacity)
            let insideStarts = base + EscapeLog.storage(capacity)
            var state: Int32 = 0
            var index = 0
            var shift = 0
            var insidePartial: Int? = nil
            while index < count {
                // Ordinary bytes: the loop of `scan`.
                while index < count {
                    let byte = bytes[index]
                    if special[Int(byte)] != 0 { break }
                    state = step(state, byte)
                    index &+= 1
                    let length = Int(nodes[Int(state)].output)
                    if length > 0 { found(log.textOffset(index - shift - length, shift: shift), index) }
                }
                guard index < count else { break }
                let byte = bytes[index]
                if byte != EscapeDecoding.plus, let token = EscapeDecoding.token(at: index, in: bytes, count: count) {
                    let decodedStart = index - shift
                    log.append(decodedStart: decodedStart, textStart: index, decodedCount: token.count)
                    let end = index + token.length
                    shift += token.length - token.count
                    for offset in 0..<token.count {
                        state = step(state, EscapeDecoding.folded(token.byte(offset)))
                        let length = Int(nodes[Int(state)].output)
                        if length > 0 { found(log.textOffset(decodedStart + offset + 1 - length, shift: shift), end) }
                    }
                    if let partial = scanInside(bytes, count: count, escape: index..<end, starts: insideStarts,
                                                capacity: insideCapacity, found: found) {
                        insidePartial = min(insidePartial ?? partial, partial)
                    }
                    index = end
                } else {
                    state = step(state, EscapeDecoding.folded(byte))
                    index &+= 1
                    let length = Int(nodes[Int(state)].output)
                    if length > 0 { found(log.textOffset(index - shift - length, shift: shift), index) }
                }
            }
            let depth = Int(nodes[Int(state)].depth)
            let partial = depth == 0 ? nil : log.textOffset(index - shift - depth, shift: shift)
            guard let insidePartial else { return partial }
            return min(partial ?? insidePartial, insidePartial)
        }
    }

    /// Matches that begin inside an escape, its bytes after the first read as they are: a hex
    /// key right after a lone `%` (`50%3fa8…` is `50` `?` `a8…` decoded), an escaped form after
    /// a lone backslash (`\\u0064…` is `\` `u0064…` decoded). The text is scanned from the
    /// escape's second byte with escapes decoded from there on, for as long as the partial
    /// match begins inside the escape: usually a byte or two. Returns where a partial match
    /// cut off by the end of the text begins, or nil.
    ///
    /// `starts` (at least `capacity`): where each decoded byte of this scan came from.
    @inline(never)
    private func scanInside(_ bytes: UnsafePointer<UInt8>, count: Int, escape: Range<Int>, starts: UnsafeMutablePointer<Int>,
                            capacity: Int, found: (Int, Int) -> Void) -> Int? {
        var state: Int32 = 0
        var position = escape.lowerBound + 1
        var decoded = 0
        while position < count {
            let from = position
            if bytes[position] != EscapeDecoding.plus, special[Int(bytes[position])] != 0,
               let token = EscapeDecoding.token(at: position, in: bytes, count: count) {
                position += token.length
                for offset in 0..<token.count {
                    starts[decoded] = from
                    decoded += 1
                    state = step(state, EscapeDecoding.folded(token.byte(offset)))
                    let length = Int(nodes[Int(state)].output)
                    if length > 0 { found(starts[decoded - length], position) }
                }
            } else {
                starts[decoded] = from
                decoded += 1
                position += 1
                state = step(state, EscapeDecoding.folded(bytes[from]))
                let length = Int(nodes[Int(state)].output)
                if length > 0 { found(starts[decoded - length], position) }
            }
            let depth = Int(nodes[Int(state)].depth)
            // Past the escape, a partial match that begins after it is the main scan's.
            if depth == 0 ? position >= escape.upperBound : starts[decoded - depth] >= escape.upperBound { return nil }
            // Cannot happen (a partial match is shorter than the longest pattern); bounds the buffer.
            if decoded + 4 > capacity { return nil }
        }
        let depth = Int(nodes[Int(state)].depth)
        return depth == 0 ? nil : starts[decoded - depth]
    }
}

/// The last escapes of a decoded scan, in a ring: where each began in the decoded view and
/// in the text, and how many decoded bytes it gave.
private struct EscapeLog {
    static func storage(_ capacity: Int) -> Int { 3 * capacity }

    private let decodedStarts: UnsafeMutablePointer<Int>
    private let textStarts: UnsafeMutablePointer<Int>
    private let decodedEnds: UnsafeMutablePointer<Int>
    private let mask: Int
    private var logged = 0

    init(_ base: UnsafeMutablePointer<Int>, capacity: Int) {
        decodedStarts = base
        textStarts = base + capacity
        decodedEnds = base + 2 * capacity
        mask = capacity - 1
    }

    mutating func append(decodedStart: Int, textStart: Int, decodedCount: Int) {
        let slot = logged & mask
        decodedStarts[slot] = decodedStart
        textStarts[slot] = textStart
        decodedEnds[slot] = decodedStart + decodedCount
        logged += 1
    }

    /// Where decoded offset `offset` came from in the text, `shift` being the difference
    /// between text and decoded offsets after the last escape.
    func textOffset(_ offset: Int, shift: Int) -> Int {
        var entry = logged
        var currentShift = shift
        while entry > 0 && logged - entry <= mask {
            let slot = (entry - 1) & mask
            if offset >= decodedEnds[slot] { return offset + currentShift }
            if offset >= decodedStarts[slot] { return textStarts[slot] }
            // Before this escape, text and decoded offsets differed by less.
            currentShift = textStarts[slot] - decodedStarts[slot]
            entry -= 1
        }
        // Past the ring's oldest escape (a match cannot reach so far back): the earliest known.
        return entry == 0 ? offset + currentShift : textStarts[entry & mask]
    }
}
