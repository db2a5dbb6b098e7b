/// One of N slices of the selected workflows (`--shard K/N`): `index` is 1-based, as written.
struct Shard: Equatable, CustomStringConvertible {
    let index: Int
    let total: Int

    /// `2/3`; nil unless both are whole numbers and 1 ≤ index ≤ total.
    init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Shard.number(parts[0]), let total = Shard.number(parts[1]) else { return nil }
        self.init(index: index, total: total)
    }

    init?(index: Int, total: Int) {
        guard total >= 1, (1...total).contains(index) else { return nil }
        self.index = index
        self.total = total
    }

    var description: String { "\(index)/\(total)" }

    /// Digits only (no sign, no spaces), at most 9 of them: a shard count is never that large,
    /// and `Int("+3")` or `Int(" 3")` must not slip through.
    static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    /// How workflows are dealt out (`--shard-by`).
    enum Strategy: String, CaseIterable {
        /// By the hash of each workflow's path: adding or removing a file moves no other file;
        /// sizes are balanced statistically.
        case hash
        /// Sorted by that hash and dealt in turn: sizes within one of each other, but adding
        /// or removing a file moves the files dealt after it.
        case count
    }

    /// The positions of `keys` (each workflow's path relative to the directory given) that fall
    /// in this shard, in their original order.
    func positions(of keys: [String], by strategy: Strategy) -> [Int] {
        let hashes = keys.map(StableHash.of(path:))
        switch strategy {
        case .hash:
            return hashes.indices.filter { Shard.bucket(of: hashes[$0], among: total) == index - 1 }
        case .count:
            // Ties (the same key twice, from two directories given) are broken by position,
            // so the deal is still a function of the keys.
            let dealt = hashes.indices.sorted { (hashes[$0], keys[$0], $0) < (hashes[$1], keys[$1], $1) }
            return dealt.enumerated().filter { $0.offset % total == index - 1 }.map(\.element).sorted()
        }
    }

    /// `hash` scaled to `0..<total` by its high bits (a multiply, not a modulo: every bucket
    /// gets an equal range of hash values).
    static func bucket(of hash: UInt64, among total: Int) -> Int {
        Int(hash.multipliedFullWidth(by: UInt64(total)).high)
    }
}
