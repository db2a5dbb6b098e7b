import CCurl
#if canImport(Glibc)
import Glibc
#endif

/// Process-wide libcurl set-up, done once before the first handle exists.
enum CurlGlobal {
    static let initialized: Bool = {
        // A peer closing a connection must not kill the process.
        signal(SIGPIPE, SIG_IGN)
        return courier_global_init() == CURLE_OK
    }()

    static var version: String {
        String(cString: courier_version_info().pointee.version)
    }

    static var sslVersion: String? {
        courier_version_info().pointee.ssl_version.map { String(cString: $0) }
    }
}
