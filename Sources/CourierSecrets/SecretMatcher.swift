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
}
