import CCurl

/// An asynchronous HTTP client on libcurl.
///
/// Requests from any task are handed to one driver thread that runs a
/// `curl_multi` loop, so no libcurl call ever blocks the concurrency pool and
/// connections, DNS and TLS sessions are reused across requests.
///
/// ```swift
/// let client = HTTPClient()
/// let response = try await client.execute(HTTPRequest(url: "http://127.0.0.1:8080/health"))
/// print(response.status)
/// ```
public final class HTTPClient: Sendable {
    /// Nil when libcurl could not be loaded; every request then fails saying why.
    private let driver: CurlDriver?

    public init() {
        driver = CurlGlobal.unavailable == nil ? CurlDriver() : nil
    }

    deinit { driver?.stop() }

    /// Sends `request` and returns the response, or why there is none.
    ///
    /// A status of 400 or more is a response, not an error. Cancelling the
    /// calling task aborts the transfer with ``HTTPError/Kind/cancelled``.
    public func execute(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        guard let driver else {
            throw HTTPError(kind: .transport, message: CurlGlobal.unavailable ?? "libcurl is not available")
        }
        let transfer = CurlTransfer(request: request)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfer.continuation = continuation
                driver.submit(transfer)
            }
        } onCancel: {
            driver.cancel(transfer)
        }
        return try result.get()
    }

    /// An executor that runs tasks on the client's driver thread.
    ///
    /// Sequential request code that prefers it never changes threads between a
    /// request and its response:
    ///
    /// ```swift
    /// await withTaskExecutorPreference(client.taskExecutor) {
    ///     for url in urls { _ = try? await client.execute(HTTPRequest(url: url)) }
    /// }
    /// ```
    public var taskExecutor: any TaskExecutor { driver ?? globalConcurrentExecutor }

    /// libcurl's version, e.g. `8.5.0`; nil when libcurl cannot be loaded.
    public static var libcurlVersion: String? { CurlGlobal.version }
    /// Why libcurl could not be loaded, or nil.
    public static var libcurlUnavailableReason: String? { CurlGlobal.unavailable }

    /// The TLS library libcurl uses, e.g. `OpenSSL/3.0.13`.
    public static var tlsLibraryVersion: String? { CurlGlobal.sslVersion }
}
