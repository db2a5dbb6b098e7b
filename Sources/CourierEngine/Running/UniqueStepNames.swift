import CourierWorkflow

/// The names one workflow's results have had so far, so that every entry's reported
/// name is its own: GitLab keeps one JUnit test case per name, and a second unnamed
/// `GET /health` would hide the first one's failure (or the other way round).
///
/// Unique as reports show them (`for_each` runs numbered): the suffix goes before
/// the item number, `GET /health (2) [1]`.
struct UniqueStepNames {
    private var taken: Set<String> = []
    /// The next number to try per name, so a name used N times costs one look-up, not N.
    private var next: [String: Int] = [:]

    /// `name`, or `name (2)`, `(3)`… when an earlier result of this workflow has it already.
    mutating func claim(_ name: String, iteration: Int?) -> String {
        func shown(_ candidate: String) -> String { iteration.map { "\(candidate) [\($0)]" } ?? candidate }
        let key = shown(name)
        var occurrence = next[key] ?? 1
        var candidate = StepNaming.numbered(name, occurrence: occurrence)
        while !taken.insert(shown(candidate)).inserted {
            occurrence += 1
            candidate = StepNaming.numbered(name, occurrence: occurrence)
        }
        next[key] = occurrence + 1
        return candidate
    }
}
