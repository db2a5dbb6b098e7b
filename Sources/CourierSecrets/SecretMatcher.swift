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
/// `@unchecked Sendable`: every buffer is written only in `init` and read-only after.
private final class Automaton: @unchecked Sendable {
    let longestPattern: Int
    private let nodeCount: Int
    /// Children of the root, by byte (-1: none).
    private let root: UnsafeMutablePointer<Int32>
    /// Other nodes' children: a sibling list, or a 256-entry row in `dense` for busy nodes.
    private let firstChild: UnsafeMutablePointer<Int32>
    private let nextSibling: UnsafeMutablePointer<Int32>
    private let label: UnsafeMutablePointer<UInt8>
    private let denseRow: UnsafeMutablePointer<Int32>
    private let dense: UnsafeMutablePointer<Int32>
    private let fail: UnsafeMutablePointer<Int32>
    /// Length of the longest pattern ending at this node (through failure links); 0 if none.
    private let output: UnsafeMutablePointer<Int32>
    private let depth: UnsafeMutablePointer<Int32>

    /// Nodes with at least this many children get a dense row: the root's
    /// neighbours branch widely with 10,000 secrets, deeper nodes rarely do.
    private static let denseThreshold = 6

    init(patterns: [[UInt8]]) {
        // Build the trie with growable arrays, then freeze into buffers.
        var firstChild: [Int32] = [-1], nextSibling: [Int32] = [-1], label: [UInt8] = [0]
        var depth: [Int32] = [0], terminal: [Int32] = [0], childCount: [Int32] = [0]
        var root = [Int32](repeating: -1, count: 256)
        var longest = 0
        for pattern in patterns {
            longest = max(longest, pattern.count)
            var node: Int32 = 0
            for byte in pattern {
                var child: Int32 = -1
                if node == 0 {
                    child = root[Int(byte)]
                } else {
                    var candidate = firstChild[Int(node)]
                    while candidate >= 0 {
                        if label[Int(candidate)] == byte { child = candidate; break }
                        candidate = nextSibling[Int(candidate)]
                    }
                }
                if child < 0 {
                    child = Int32(label.count)
                    label.append(byte)
                    firstChild.append(-1)
                    depth.append(depth[Int(node)] + 1)
                    terminal.append(0)
                    childCount.append(0)
                    nextSibling.append(node == 0 ? -1 : firstChild[Int(node)])
                    if node == 0 { root[Int(byte)] = child } else { firstChild[Int(node)] = child }
                    childCount[Int(node)] += 1
                }
                node = child
            }
            terminal[Int(node)] = Int32(pattern.count)
        }
        let count = label.count
        nodeCount = count
        longestPattern = longest
        self.root = .allocate(capacity: 256)
        self.root.initialize(from: root, count: 256)
        self.firstChild = .allocate(capacity: count)
        self.firstChild.initialize(from: firstChild, count: count)
        self.nextSibling = .allocate(capacity: count)
        self.nextSibling.initialize(from: nextSibling, count: count)
        self.label = .allocate(capacity: count)
        self.label.initialize(from: label, count: count)
        self.depth = .allocate(capacity: count)
        self.depth.initialize(from: depth, count: count)

        var rows: [Int32] = []
        var denseRow = [Int32](repeating: -1, count: count)
        for node in 1..<max(1, count) where childCount[node] >= Self.denseThreshold {
            denseRow[node] = Int32(rows.count / 256)
            let offset = rows.count
            rows += [Int32](repeating: -1, count: 256)
            var child = firstChild[node]
            while child >= 0 {
                rows[offset + Int(label[Int(child)])] = child
                child = nextSibling[Int(child)]
            }
        }
        self.denseRow = .allocate(capacity: count)
        self.denseRow.initialize(from: denseRow, count: count)
        self.dense = .allocate(capacity: max(1, rows.count))
        self.dense.initialize(from: rows + (rows.isEmpty ? [-1] : []), count: max(1, rows.count))

        // Failure links and outputs, breadth first (a node's link is shallower).
        fail = .allocate(capacity: count)
        fail.initialize(repeating: 0, count: count)
        output = .allocate(capacity: count)
        output.initialize(from: terminal, count: count)
        var queue: [Int32] = root.filter { $0 >= 0 }
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            var child = node == 0 ? -1 : firstChild[Int(node)]
            while child >= 0 {
                let byte = label[Int(child)]
                var link = fail[Int(node)]
                var target = self.child(of: link, byte)
                while target < 0 && link != 0 {
                    link = fail[Int(link)]
                    target = self.child(of: link, byte)
                }
                let failure = target >= 0 && target != child ? target : 0
                fail[Int(child)] = failure
                output[Int(child)] = max(output[Int(child)], output[Int(failure)])
                queue.append(child)
                child = nextSibling[Int(child)]
            }
        }
    }

    deinit {
        for pointer in [root, firstChild, nextSibling, denseRow, dense, fail, output, depth] { pointer.deallocate() }
        label.deallocate()
    }

    @inline(__always)
    private func child(of node: Int32, _ byte: UInt8) -> Int32 {
        if node == 0 { return root[Int(byte)] }
        let row = denseRow[Int(node)]
        if row >= 0 { return dense[Int(row) &* 256 &+ Int(byte)] }
        var candidate = firstChild[Int(node)]
        while candidate >= 0 {
            if label[Int(candidate)] == byte { return candidate }
            candidate = nextSibling[Int(candidate)]
        }
        return -1
    }

    @inline(__always)
    private func step(_ state: Int32, _ byte: UInt8) -> Int32 {
        var state = state
        while true {
            let next = child(of: state, byte)
            if next >= 0 { return next }
            if state == 0 { return 0 }
            state = fail[Int(state)]
        }
    }

    /// Calls `found(start, end)` for the longest match ending at each position that has one.
    func scan(_ bytes: UnsafePointer<UInt8>, count: Int, found: (Int, Int) -> Void) {
        var state: Int32 = 0
        var index = 0
        while index < count {
            let byte = bytes[index]
            index += 1
            // The common case with few secrets: at the root, a byte no pattern starts with.
            if state == 0 {
                let next = root[Int(byte)]
                if next < 0 { continue }
                state = next
            } else {
                state = step(state, byte)
            }
            let length = Int(output[Int(state)])
            if length > 0 { found(index - length, index) }
        }
    }

    func finalDepth(_ bytes: UnsafePointer<UInt8>, count: Int) -> Int {
        var state: Int32 = 0
        for index in 0..<count { state = step(state, bytes[index]) }
        return Int(depth[Int(state)])
    }
}
