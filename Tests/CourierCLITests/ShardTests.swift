@testable import courier
import Testing

/// `--shard K/N`: which workflows a slice holds, and how a slice is asked for.
@Suite struct ShardTests {
    /// A suite of 200 workflows laid out as API suites are: ten areas, twenty actions each.
    static let suite: [String] = {
        let areas = ["users", "orders", "billing", "auth", "search", "catalog", "inventory", "shipping", "reports", "admin"]
        let actions = ["create", "read", "update", "delete", "list", "search", "export", "import", "archive", "restore",
                       "validate", "approve", "reject", "sync", "notify", "retry", "paginate", "filter", "sort", "bulk"]
        return areas.flatMap { area in actions.map { "api/\(area)/\($0).yaml" } }
    }()

    static func sizes(_ keys: [String], _ total: Int, by strategy: Shard.Strategy) -> [Int] {
        (1...total).map { Shard(index: $0, total: total)!.positions(of: keys, by: strategy).count }
    }

    // MARK: - The hash

    @Test("FNV-1a 64 gives the published test vectors, and the finalizer is MurmurHash3's fmix64")
    func hashVectors() {
        #expect(StableHash.fnv1a64("") == 0xcbf2_9ce4_8422_2325)
        #expect(StableHash.fnv1a64("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(StableHash.fnv1a64("foobar") == 0x8594_4171_f739_67e8)
        #expect(StableHash.finalize(0) == 0)
        #expect(StableHash.finalize(1) == 0xb456_bcfc_34c2_cb2c)
    }

    /// Pinned: a change here moves workflows between shards for every user (and between CI jobs
    /// running different Courier versions during an upgrade).
    @Test("a path's shard is pinned across versions", arguments: [
        ("auth-flow.yaml", 0x6ad2_c79b_af45_8188 as UInt64, [1, 2, 2, 4]),
        ("crud.yaml", 0xb5cf_d520_a3e0_d9f4, [2, 3, 3, 6]),
        ("smoke.yaml", 0x7353_374d_bdfb_9b2a, [1, 2, 2, 4]),
        ("api/users/create.yaml", 0xc32d_597f_099a_4f1b, [2, 3, 4, 7]),
    ])
    func pinned(path: String, hash: UInt64, shards: [Int]) {
        #expect(StableHash.of(path: path) == hash)
        let found = [2, 3, 4, 8].map { total in (1...total).first { Shard(index: $0, total: total)!.positions(of: [path], by: .hash) == [0] } }
        #expect(found == shards.map(Optional.some))
    }

    // MARK: - Slices

    @Test("by hash, 200 workflows in 2 to 8 shards: no shard holds more than 1.3× the mean", arguments: 2...8)
    func balanceOf200(total: Int) {
        let sizes = Self.sizes(Self.suite, total, by: .hash)
        let mean = Double(Self.suite.count) / Double(total)
        #expect(Double(sizes.max() ?? 0) <= 1.3 * mean, "\(sizes)")
        #expect(sizes.reduce(0, +) == Self.suite.count)
    }

    /// The statistical property behind the 200-workflow case: on many paths the hash is uniform
    /// (a binomial spread of about 1 % of the mean), whatever the naming scheme.
    @Test("by hash, 10,000 numbered workflows in 2 to 8 shards: every shard within 8 % of the mean", arguments: 2...8)
    func uniformOnManyPaths(total: Int) {
        let keys = (0..<10_000).map { "suite/flow-\($0).yaml" }
        let mean = Double(keys.count) / Double(total)
        let sizes = Self.sizes(keys, total, by: .hash)
        #expect(sizes.allSatisfy { abs(Double($0) - mean) <= 0.08 * mean }, "\(sizes)")
    }

    @Test("every workflow is in exactly one shard, in path order, by hash and by count", arguments: Shard.Strategy.allCases)
    func partition(strategy: Shard.Strategy) {
        for total in 1...8 {
            let slices = (1...total).map { Shard(index: $0, total: total)!.positions(of: Self.suite, by: strategy) }
            #expect(slices.flatMap { $0 }.sorted() == Array(Self.suite.indices), "\(strategy) \(total)")
            #expect(slices.allSatisfy { $0 == $0.sorted() })
        }
    }

    @Test("by hash, adding or removing files moves no other file")
    func stability() {
        let before = Self.suite
        // 30 removed, 40 added (new areas and new actions in old ones), the order shuffled.
        let after = Array(before.dropFirst(30)) + (0..<40).map { "api/new-\($0 % 4)/action-\($0).yaml" }
        for total in 2...8 {
            func shardOf(_ keys: [String]) -> [String: Int] {
                var found: [String: Int] = [:]
                for index in 1...total {
                    for position in Shard(index: index, total: total)!.positions(of: keys, by: .hash) { found[keys[position]] = index }
                }
                return found
            }
            let old = shardOf(before), new = shardOf(after.reversed())
            let moved = before.dropFirst(30).filter { old[$0] != new[$0] }
            #expect(moved.isEmpty, "\(total) shards: \(moved)")
        }
    }

    @Test("by count, shard sizes are within one of each other for 0 to 60 workflows and 1 to 8 shards")
    func countWithinOne() {
        for count in 0...60 {
            let keys = Array(Self.suite.prefix(count))
            for total in 1...8 {
                let sizes = Self.sizes(keys, total, by: .count)
                #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1, "\(count) in \(total): \(sizes)")
                #expect(sizes.reduce(0, +) == count)
            }
        }
    }

    @Test("by count, the deal depends on the paths, not on the order they are given in")
    func countIgnoresOrder() {
        let shard = Shard(index: 2, total: 5)!
        let forward = shard.positions(of: Self.suite, by: .count).map { Self.suite[$0] }
        let reversed = Array(Self.suite.reversed())
        #expect(Set(shard.positions(of: reversed, by: .count).map { reversed[$0] }) == Set(forward))
    }

    // MARK: - K/N

    @Test("K/N is 1-based, with 1 ≤ K ≤ N", arguments: [
        ("1/1", Shard(index: 1, total: 1)), ("2/3", Shard(index: 2, total: 3)), ("3/3", Shard(index: 3, total: 3)),
        ("0/3", nil), ("4/3", nil), ("x/y", nil), ("3", nil), ("1/0", nil), ("-1/3", nil), ("+1/3", nil),
        (" 1/3", nil), ("1/3/4", nil), ("", nil), ("/3", nil), ("1/", nil), ("1/9999999999", nil),
    ])
    func parsing(text: String, shard: Shard?) {
        #expect(Shard(text) == shard)
    }
}
