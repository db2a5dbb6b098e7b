import CourierHTTP
import CourierWorkflow

extension RequestOptions {
    /// The bottom option layer: spec section 6's built-in values, which are CourierHTTP's
    /// (``HTTPDefaults``), so a request the runner sends and one the library sends start
    /// alike. Every option that has a built-in value is set; `base_url`, `http_version`
    /// (negotiated by libcurl), `proxy` (the environment's) and the `tls:` files have none.
    static let builtIns = RequestOptions(
        timeout: .milliseconds(HTTPDefaults.timeoutMilliseconds),
        connectTimeout: .milliseconds(HTTPDefaults.connectTimeoutMilliseconds),
        followRedirects: HTTPDefaults.followRedirects, trustedRedirects: false, maxRedirects: HTTPDefaults.maxRedirects,
        compressed: HTTPDefaults.compressed, cookies: true, tls: RequestTLSOptions(insecure: false))
}
