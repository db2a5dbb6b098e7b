import CCurl

/// An asynchronous HTTP client on libcurl.
///
/// Requests from any task are handed to one driver thread that runs a
/// `curl_multi` loop, so no libcurl call ever blocks the concurrency pool and
/// connections, DNS and TLS sessions are reused across requests.
///
/// ```swift
/// let client = HTTPClient()
/// let response = try await client.send(HTTPRequest(url: "http://127.0.0.1:8080/health"))
/// print(response.status)
/// await client.shutdown()
/// ```
///
/// Lifecycle: ``shutdown()`` cancels transfers still in flight (their callers get
/// ``HTTPError/Kind/clientShutDown``) and returns once the driver thread has let go of
/// libcurl; requests sent afterwards fail at once with the same kind. Dropping the
/// last reference does the same without waiting.
public final class HTTPClient: HTTPTransport {
    /// Nil when libcurl could not be loaded; every request then fails saying why.
    private let driver: CurlDriver?
    private let unavailable: String?

    /// A client with its own driver thread and connection pool.
    public init() {
        var driver: CurlDriver?
        if let reason = CurlGlobal.unavailable {
            unavailable = reason
        } else {
            do throws(HTTPError) {
                driver = try CurlDriver()
                unavailable = nil
            } catch {
                unavailable = error.message
            }
        }
        self.driver = driver
    }

    // Never waits: the driver thread ends on its own once it has aborted what is in flight.
    deinit { driver?.stop() }

    /// Sends `request` and returns the response (see ``execute(_:)``).
    public func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        try await execute(request)
    }

    /// Sends `request` and returns the response, or why there is none.
    ///
    /// A status of 400 or more is a response, not an error. Cancelling the
    /// calling task aborts the transfer with ``HTTPError/Kind/cancelled``, at any
    /// moment: before it starts, while it waits for a connection or mid-body.
    /// After ``shutdown()`` it throws ``HTTPError/Kind/clientShutDown`` at once.
    public func execute(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        guard let driver else {
            throw HTTPError(kind: .transport, message: unavailable ?? "libcurl is not available")
        }
        let transfer = CurlTransfer(request: request)
        // Progress goes through a stream that keeps only the newest value, read by a
        // task of its own: the driver thread never waits for the handler.
        var progressTask: Task<Void, Never>?
        if let handler = request.onProgress {
            let (updates, continuation) = AsyncStream.makeStream(of: HTTPProgress.self, bufferingPolicy: .bufferingNewest(1))
            transfer.progress = continuation
            progressTask = Task { for await update in updates { handler(update) } }
        }
        let result = await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                transfer.continuation = continuation
                if !driver.submit(transfer) {
                    transfer.continuation = nil
                    transfer.ended(with: .failure(.shutDown))
                    continuation.resume(returning: .failure(.shutDown))
                }
            }
        } onCancel: {
            driver.cancel(transfer)
        }
        // The last progress call happens before the caller sees the response.
        await progressTask?.value
        if case .failure(let error) = result, error.unreadFiles != nil {
            // Reading files is I/O the driver thread must not do, and this task may be running
            // on it (see `taskExecutor`): a detached task runs on the global executor.
            let explained = Task.detached { () -> HTTPError in error.explainingFiles() }
            throw await explained.value
        }
        let response = try result.get()
        if request.options.keepsEncodedBody, request.options.compressed, case .memory = request.responseBody,
           response.headers["Content-Encoding"] != nil {
            // Decoding is work the driver thread must not do (see above).
            let limit = request.options.maxResponseBytes
            let decoded = Task.detached { () -> Result<HTTPResponse, HTTPError> in
                do throws(HTTPError) { return .success(try ContentDecoding.decoded(response, limit: limit)) } catch {
                    var failure = error
                    failure.sentRequests = response.sentRequests
                    return .failure(failure)
                }
            }
            return try await decoded.value.get()
        }
        return response
    }

    /// Cancels transfers still in flight (their callers get ``HTTPError/Kind/clientShutDown``),
    /// stops the driver thread and returns once it has released libcurl's handles.
    ///
    /// Never blocks a thread while waiting. Requests sent afterwards fail at once;
    /// calling it again returns at once.
    public func shutdown() async {
        await driver?.shutdown()
    }

    /// An executor that runs tasks on the client's driver thread.
    ///
    /// Sequential request code that prefers it never changes threads between a
    /// request and its response, at the price of running on the thread that drives
    /// every transfer: keep such code cheap (no parsing of large bodies, no blocking I/O).
    ///
    /// ```swift
    /// await withTaskExecutorPreference(client.taskExecutor) {
    ///     for url in urls { _ = try? await client.execute(HTTPRequest(url: url)) }
    /// }
    /// ```
    public var taskExecutor: any TaskExecutor { driver ?? globalConcurrentExecutor }

    /// libcurl's version, e.g. `8.5.0`; nil when libcurl cannot be loaded.
    public static var libcurlVersion: String? { CurlGlobal.version }

    /// Starts loading libcurl on a thread of its own and returns at once, so that a
    /// program about to send can overlap loading it (a tenth of the instructions of a
    /// 500-request run) with other start-up work; the first client waits for it.
    /// The process must call ``waitForPreload()`` before `exit`.
    package static func preload() {
        CurlGlobal.loadInBackground()
    }

    /// Returns once a ``preload()`` has finished: `exit` during the load crashes in
    /// OpenSSL's exit handlers.
    package static func waitForPreload() {
        CurlGlobal.waitForBackgroundLoad()
    }
    /// Why libcurl could not be loaded, or nil.
    public static var libcurlUnavailableReason: String? { CurlGlobal.unavailable }

    /// The TLS library libcurl uses, e.g. `OpenSSL/3.0.13`.
    public static var tlsLibraryVersion: String? { CurlGlobal.sslVersion }
}
