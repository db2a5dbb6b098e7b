#if canImport(Glibc)
import Glibc
#endif

/// glibc's allocator, set for a process that builds a large model, runs, and exits.
///
/// glibc grows the arena of every thread but the main one 4 KB at a time, with one
/// `mprotect` call each: loading a 2,000-step workflow on a pool thread made about 1,800
/// of them. Commands therefore load on the main thread (``CLI/main(_:)``), whose arena
/// grows with `brk`, here in 16 MB steps, and is not trimmed while the process lives (the
/// loader's freed YAML tree is reused, not returned and faulted in again). One arena for all
/// threads was tried: the loader and the thread loading libcurl then fought over its lock.
/// The library (`import Courier`) leaves its host's allocator alone: only the command line
/// calls this.
enum MallocTuning {
    static func apply() {
        #if canImport(Glibc)
        // `mallopt` is not in the Glibc module (<malloc.h> is not part of it): looked up by name.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        // <malloc.h>'s parameter numbers: M_TRIM_THRESHOLD -1, M_TOP_PAD -2.
        _ = mallopt(-2, 16 << 20)
        _ = mallopt(-1, 256 << 20)
        #endif
    }
}
