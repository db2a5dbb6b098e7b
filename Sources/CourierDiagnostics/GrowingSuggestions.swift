/// Did-you-mean over a set of names that changes during a walk, such as the
/// variables defined at each point of a workflow.
///
/// Asking ``suggestion(for:among:)`` at every use of an unknown name compares it with
/// every name defined so far, so a generated workflow that uses one undefined name in
/// each of its steps, and captures a value in each, took time growing with the square
/// of its length. Here each word asked about is compared with each name offered at
/// most once, however often it is asked: the close names found are kept with the word,
/// and a later question only compares the names offered since.
package struct GrowingSuggestions {
    /// Every name offered, in the order first offered.
    private var names: [String] = []
    private var offered: Set<String> = []
    private var words: [String: Word] = [:]

    private struct Word {
        /// How many of `names` have been compared with the word.
        var compared = 0
        /// The names within the word's allowance, in offer order, with their distances.
        var close: [(name: String, distance: Int)] = []
    }

    package init() {}

    /// Makes `name` a possible suggestion from now on (offering it again changes nothing).
    package mutating func offer(_ name: String) {
        if offered.insert(name).inserted { names.append(name) }
    }

    /// The offered name closest to `word` among those `isCandidate` accepts now, with
    /// ``suggestion(for:among:)``'s allowance; of equally close names, the first offered.
    package mutating func closest(to word: String, where isCandidate: (String) -> Bool) -> String? {
        var entry = words.removeValue(forKey: word) ?? Word()
        if entry.compared < names.count, let target = TypoTarget(word) {
            for name in names[entry.compared...] {
                if let distance = target.distance(to: name) { entry.close.append((name, distance)) }
            }
        }
        entry.compared = names.count
        var best: (name: String, distance: Int)?
        for close in entry.close where close.distance < (best?.distance ?? .max) && isCandidate(close.name) {
            best = close
        }
        words[word] = entry
        return best?.name
    }
}
