/// Finds every occurrence of a set of byte patterns in one pass (Aho–Corasick).
///
/// Built once per set of secret forms; matching is linear in the text's size
/// whatever the number of patterns, so 10,000 secrets or a 100 MB report stay
/// fast. Works on UTF-8 bytes, never on `Character`s: a secret followed by a
/// combining mark (U+0301) is one grapheme cluster with it, yet its bytes are
/// still there to find.
///
/// ``coveredRanges(in:)`` returns the union of all matches: overlapping secrets
/// and secrets that are substrings of each other are all covered, each maximal
/// run of covered bytes once.
package struct SecretMatcher: Sendable {
    private let automaton: Automaton

    /// The length in bytes of the longest pattern (0 when there is none).
    package var longestPattern: Int { automaton.longestPattern }
    package var isEmpty: Bool { automaton.longestPattern == 0 }

    package init(patterns: [[UInt8]]) {
        automaton = Automaton(patterns: patterns.filter { !$0.isEmpty })
    }

    /// The byte ranges covered by at least one pattern, sorted, merged where they
    /// overlap or touch.
    package func coveredRanges(in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        guard !isEmpty, let base = bytes.baseAddress else { return [] }
        var ranges: [Range<Int>] = []
        automaton.scan(base, count: bytes.count) { start, end in
            var start = start
            // Ends arrive in increasing order; a later match may start before earlier ones.
            while let last = ranges.last, last.upperBound >= start {
                start = min(start, last.lowerBound)
                ranges.removeLast()
            }
            ranges.append(start..<end)
        }
        return ranges
    }

    /// The length of the longest suffix of `bytes` that is the beginning of a
    /// pattern (a form cut in the middle); 0 when there is none.
    package func partialMatchLength(atEndOf bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard !isEmpty, let base = bytes.baseAddress else { return 0 }
        return automaton.finalDepth(base, count: bytes.count)
    }
}

/// The automaton's tables in flat buffers: one allocation each, no bounds checks
/// or copy-on-write checks in the scanning loop.
///
/// Shallow nodes (where scanning spends nearly all its time) and busy ones get
/// a complete row of 256 transitions, failure links already followed, so a
/// byte there costs one load; deeper nodes keep a sibling list and follow
/// failure links up to the nearest complete row.
///
/// `@unchecked Sendable`: every buffer is written only in `init` and read-only after.
private final class Automaton: @unchecked Sendable {
    let longestPattern: Int
    private let firstChild: UnsafeMutablePointer<Int32>
    private let nextSibling: UnsafeMutablePointer<Int32>
    private let label: UnsafeMutablePointer<UInt8>
    /// The node's row in `rows` (-1: none, use the sibling list). The root has row 0.
    private let rowOf: UnsafeMutablePointer<Int32>
    private let rows: UnsafeMutablePointer<Int32>
    private let fail: UnsafeMutablePointer<Int32>
    /// Length of the longest pattern ending at this node (through failure links); 0 if none.
    private let output: UnsafeMutablePointer<Int32>
    private let depth: UnsafeMutablePointer<Int32>

    /// Nodes this shallow, or with this many children, get a complete row.
    private static let rowDepth: Int32 = 2
    private static let rowChildren: Int32 = 8
    /// At most this many rows (1 KiB each): 10,000 secrets need a few thousand.
    private static let maximumRows = 65_536

    init(patterns: [[UInt8]]) {
        // The trie, with sibling lists.
        var firstChild: [Int32] = [-1], nextSibling: [Int32] = [-1], label: [UInt8] = [0]
        var depth: [Int32] = [0], terminal: [Int32] = [0], childCount: [Int32] = [0]
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
                    depth.append(depth[Int(node)] + 1)
                    terminal.append(0)
                    childCount.append(0)
                    firstChild[Int(node)] = child
                    childCount[Int(node)] += 1
                }
                node = child
            }
            terminal[Int(node)] = max(terminal[Int(node)], Int32(pattern.count))
        }
        let count = label.count
        longestPattern = longest
        self.firstChild = Self.buffer(firstChild)
        self.nextSibling = Self.buffer(nextSibling)
        self.label = .allocate(capacity: count)
        self.label.initialize(from: label, count: count)
        self.depth = Self.buffer(depth)

        // Which nodes get a row, breadth first so shallow ones come first.
        var order: [Int32] = [0]
        var head = 0
        while head < order.count {
            var child = firstChild[Int(order[head])]
            while child >= 0 { order.append(child); child = nextSibling[Int(child)] }
            head += 1
        }
        var rowOf = [Int32](repeating: -1, count: count)
        var rowCount = 0
        for node in order where rowCount < Self.maximumRows
            && (depth[Int(node)] <= Self.rowDepth || childCount[Int(node)] >= Self.rowChildren) {
            rowOf[Int(node)] = Int32(rowCount)
            rowCount += 1
        }
        self.rowOf = Self.buffer(rowOf)
        rows = .allocate(capacity: rowCount * 256)
        rows.initialize(repeating: -1, count: rowCount * 256)
        fail = .allocate(capacity: count)
        fail.initialize(repeating: 0, count: count)
        output = Self.buffer(terminal)

        // Breadth first: a node's failure link is shallower, so its row (or its
        // own links) are complete before the node needs them.
        for node in order {
            let row = rowOf[Int(node)]
            if row >= 0 {
                let base = rows + Int(row) * 256
                var child = firstChild[Int(node)]
                while child >= 0 { base[Int(label[Int(child)])] = child; child = nextSibling[Int(child)] }
                for byte in 0..<256 where base[byte] < 0 {
                    base[byte] = node == 0 ? 0 : step(fail[Int(node)], UInt8(byte))
                }
            }
            var child = firstChild[Int(node)]
            while child >= 0 {
                let link = node == 0 ? 0 : step(fail[Int(node)], label[Int(child)])
                fail[Int(child)] = link
                output[Int(child)] = max(output[Int(child)], output[Int(link)])
                child = nextSibling[Int(child)]
            }
        }
    }

    private static func buffer(_ values: [Int32]) -> UnsafeMutablePointer<Int32> {
        let pointer = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, values.count))
        pointer.initialize(from: values, count: values.count)
        return pointer
    }

    deinit {
        for pointer in [firstChild, nextSibling, rowOf, rows, fail, output, depth] { pointer.deallocate() }
        label.deallocate()
    }

    /// The state after `byte` in `state`: a row's entry, else a child from the
    /// sibling list, else the same from the failure link.
    @inline(__always)
    private func step(_ state: Int32, _ byte: UInt8) -> Int32 {
        var state = state
        while true {
            let row = rowOf[Int(state)]
            if row >= 0 { return rows[Int(row) &* 256 &+ Int(byte)] }
            var child = firstChild[Int(state)]
            while child >= 0 {
                if label[Int(child)] == byte { return child }
                child = nextSibling[Int(child)]
            }
            state = fail[Int(state)]
        }
    }

    /// Calls `found(start, end)` for the longest match ending at each position that has one.
    func scan(_ bytes: UnsafePointer<UInt8>, count: Int, found: (Int, Int) -> Void) {
        var state: Int32 = 0
        for index in 0..<count {
            state = step(state, bytes[index])
            let length = Int(output[Int(state)])
            if length > 0 { found(index + 1 - length, index + 1) }
        }
    }

    func finalDepth(_ bytes: UnsafePointer<UInt8>, count: Int) -> Int {
        var state: Int32 = 0
        for index in 0..<count { state = step(state, bytes[index]) }
        return Int(depth[Int(state)])
    }
}
