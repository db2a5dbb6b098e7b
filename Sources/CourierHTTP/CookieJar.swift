import CCurl
import Synchronization

/// Cookies shared by the requests of one workflow run.
///
/// Backed by a libcurl share handle, so cookies follow RFC 6265 as libcurl
/// implements it (domains, paths, expiry, `Secure`).
public final class CookieJar: @unchecked Sendable {
    // @unchecked: the share handle is only touched by the driver thread while a
    // transfer that holds this jar runs, and by deinit, which cannot run before
    // every such transfer has released the jar and detached the share.
    let share: UnsafeMutableRawPointer?
    /// Set once a response through this jar carried `Set-Cookie`: libcurl may then add
    /// `Cookie` to later requests, which transfers record (see `HTTPSentRequest`).
    let mayHoldCookies = Atomic<Bool>(false)

    public init() {
        share = CurlGlobal.unavailable == nil ? courier_share_init() : nil
        if let share {
            _ = courier_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_COOKIE.rawValue))
        }
    }

    deinit {
        if let share { courier_share_cleanup(share) }
    }
}
