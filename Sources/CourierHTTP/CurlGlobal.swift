import CCurl
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Process-wide libcurl set-up, done once before the first handle exists.
///
/// libcurl is loaded on first use, not at start-up (see `CCurl.h`): commands
/// that send nothing start without it.
enum CurlGlobal {
    /// Why libcurl cannot be used, or nil when it is loaded and initialised.
    static let unavailable: String? = {
        // A peer closing a connection must not kill the process.
        signal(SIGPIPE, SIG_IGN)
        var buffer = [CChar](repeating: 0, count: 512)
        if courier_curl_load(&buffer, buffer.count) != 0 {
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        guard courier_global_init() == CURLE_OK else { return "curl_global_init failed" }
        return nil
    }()

    /// Loads libcurl on a thread of its own (``HTTPClient/preload()``); whoever asks
    /// for `unavailable` meanwhile waits for that load rather than starting another.
    static func loadInBackground() {
        guard !backgroundLoadStarted.exchange(true, ordering: .relaxed) else { return }
        Thread.detachNewThread {
            _ = unavailable
            backgroundLoadDone.signal()
        }
    }

    /// Returns once a background load has finished (at once when none was started).
    ///
    /// `exit` must not run while that thread is inside dlopen or curl_global_init: the
    /// exit handlers OpenSSL registered while loading free its locks under it (seen:
    /// SIGSEGV in libssh2_init when a run stopped at validation). An atexit handler of
    /// our own cannot help, as it runs after those registered later.
    static func waitForBackgroundLoad() {
        guard backgroundLoadStarted.load(ordering: .relaxed) else { return }
        backgroundLoadDone.wait()
        backgroundLoadDone.signal()
    }

    private static let backgroundLoadStarted = Atomic<Bool>(false)
    private static let backgroundLoadDone = DispatchSemaphore(value: 0)

    static var version: String? {
        guard unavailable == nil else { return nil }
        return String(cString: courier_version_info().pointee.version)
    }

    static var sslVersion: String? {
        guard unavailable == nil else { return nil }
        return courier_version_info().pointee.ssl_version.map { String(cString: $0) }
    }
}
