/// Which slice of the selected workflows a run ran (`--shard K/N`): `index` is 1-based.
///
/// A run records it (`run.shard`), and a merged report lists the slices it was merged from
/// (`run.mergedShards`), so a reader can tell a whole run from a partial one.
package struct RunShard: Sendable, Codable, Equatable, Hashable, Comparable {
    package var index: Int
    package var total: Int

    package init(index: Int, total: Int) {
        self.index = index
        self.total = total
    }

    package static func < (lhs: RunShard, rhs: RunShard) -> Bool {
        (lhs.total, lhs.index) < (rhs.total, rhs.index)
    }

    /// `2/3`.
    package var description: String { "\(index)/\(total)" }
}
