/// The candidate closest to `word`, if it is close enough to be a likely typo.
///
/// Uses the optimal-string-alignment (Damerau–Levenshtein) distance, so a
/// swapped pair of letters (`hedaers`) costs one edit. The allowed distance
/// grows with the word: none up to 2 characters, 1 up to 4, 2 up to 8, then 3 — short
/// words would otherwise "match" nearly anything. Comparison ignores case.
/// Of several equally close candidates, the first wins.
package func suggestion(for word: String, among candidates: some Sequence<String>) -> String? {
    guard let target = TypoTarget(word) else { return nil }
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
        guard let distance = target.distance(to: candidate) else { continue }
        if distance == 0 { return candidate }
        if distance < (best?.distance ?? .max) { best = (candidate, distance) }
    }
    return best?.candidate
}

/// A word that may be a typo, ready to be compared with candidates (see ``suggestion(for:among:)``).
package struct TypoTarget {
    private let scalars: [Unicode.Scalar]
    private let threshold: Int

    /// Nil for the empty word, which resembles nothing.
    package init?(_ word: String) {
        scalars = Array(word.lowercased().unicodeScalars)
        guard !scalars.isEmpty else { return nil }
        threshold = scalars.count <= 2 ? 0 : (scalars.count <= 4 ? 1 : (scalars.count <= 8 ? 2 : 3))
    }

    /// The distance to `candidate` when it is within the word's allowance, else nil.
    /// 0 means the same word up to case.
    package func distance(to candidate: String) -> Int? {
        distance(toFolded: Array(candidate.lowercased().unicodeScalars))
    }

    /// ``distance(to:)`` of a candidate already lower-cased into scalars.
    package func distance(toFolded other: [Unicode.Scalar]) -> Int? {
        if other == scalars { return 0 }
        if abs(other.count - scalars.count) > threshold { return nil }
        let distance = editDistance(scalars, other, limit: threshold)
        return distance <= threshold ? distance : nil
    }
}

/// Optimal string alignment distance (insertions, deletions, substitutions, transpositions).
/// With a `limit`, any distance above it may be returned as `limit + 1`: the rows stop once
/// all of one exceeds it (a row's least value is at most one more than the one before's,
/// so no later cell, transpositions included, can come back under it).
package func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int = .max) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                value = min(value, previous2[j - 2] + 1)
            }
            current[j] = value
        }
        if limit < .max, current.min()! > limit { return limit + 1 }
        (previous2, previous, current) = (previous, current, previous2)
    }
    return previous[b.count]
}

/// `; did you mean 'x'?` when there is a close candidate, else an empty string.
package func didYouMean(_ word: String, among candidates: some Sequence<String>) -> String {
    guard let match = suggestion(for: word, among: candidates) else { return "" }
    return "; did you mean '\(match)'?"
}
