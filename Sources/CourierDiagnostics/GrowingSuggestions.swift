/// Did-you-mean over a set of names that changes during a walk, such as the
/// variables defined at each point of a workflow.
///
/// Asking ``suggestion(for:among:)`` at every use of an unknown name compares it with
/// every name defined so far, so a generated workflow that uses one undefined name in
/// each of its steps, and captures a value in each, took time growing with the square
/// of its length. Here each word asked about is compared with each name offered at
/// most once, however often it is asked: the close names found are kept with the word,
/// and a later question only compares the names offered since.
///
/// Thousands of *distinct* unknown words among thousands of names still make a
/// product, so the comparisons are bounded by `comparisonBudget` (by default a few
/// million, a fraction of a second): past it, words not yet compared get no
/// suggestion. Only a broken generated file gets there, and what it loses is the hint
/// (and, in `validate` without `--var`, the upgrade of a look-alike name's warning to an
/// error), never a diagnostic.
package struct GrowingSuggestions {
    /// Every name offered, in the order first offered, and its case-folded scalars.
    private var names: [String] = []
    private var folded: [[Unicode.Scalar]] = []
    private var offered: Set<String> = []
    private var words: [String: Word] = [:]
    private var comparisonsLeft: Int

    private struct Word {
        /// How many of `names` have been compared with the word.
        var compared = 0
        /// The names within the word's allowance, in offer order, with their distances.
        var close: [(name: String, distance: Int)] = []
    }

    package init(comparisonBudget: Int = 4_000_000) {
        comparisonsLeft = comparisonBudget
    }

    /// Makes `name` a possible suggestion from now on (offering it again changes nothing).
    package mutating func offer(_ name: String) {
        guard offered.insert(name).inserted else { return }
        names.append(name)
        folded.append(Array(name.lowercased().unicodeScalars))
    }

    /// The offered name closest to `word` among those `isCandidate` accepts now, with
    /// ``suggestion(for:among:)``'s allowance; of equally close names, the first offered.
    package mutating func closest(to word: String, where isCandidate: (String) -> Bool) -> String? {
        var entry = words.removeValue(forKey: word) ?? Word()
        let end = min(names.count, entry.compared + max(comparisonsLeft, 0))
        if entry.compared < end, let target = TypoTarget(word) {
            for index in entry.compared..<end {
                if let distance = target.distance(toFolded: folded[index]) { entry.close.append((names[index], distance)) }
            }
            comparisonsLeft -= end - entry.compared
            entry.compared = end
        } else if entry.compared < end {
            entry.compared = end  // the empty word resembles nothing
        }
        var best: (name: String, distance: Int)?
        for close in entry.close where close.distance < (best?.distance ?? .max) && isCandidate(close.name) {
            best = close
        }
        words[word] = entry
        return best?.name
    }
}
