/// A hash of a workflow's path that is the same on every machine, in every process and in
/// every Courier version: the shard a workflow falls in is a function of this value alone.
///
/// Swift's `Hasher` is seeded per process, so it cannot be used. This is FNV-1a 64 over the
/// path's UTF-8 bytes, followed by MurmurHash3's 64-bit finalizer: FNV-1a alone leaves paths
/// that differ only in their last characters (`flow-001.yaml`, `flow-002.yaml`) close together
/// in the high bits that pick the shard, and the finalizer spreads every input bit over all of
/// them. Changing either step moves workflows between shards for everyone: the values are
/// pinned by tests.
enum StableHash {
    static func fnv1a64(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// MurmurHash3's `fmix64`: every input bit affects every output bit.
    static func finalize(_ value: UInt64) -> UInt64 {
        var x = value
        x ^= x >> 33
        x &*= 0xff51_afd7_ed55_8ccd
        x ^= x >> 33
        x &*= 0xc4ce_b9fe_1a85_ec53
        x ^= x >> 33
        return x
    }

    /// The hash a shard is chosen by.
    static func of(path: String) -> UInt64 {
        finalize(fnv1a64(path))
    }
}
