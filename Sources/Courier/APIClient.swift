import CourierHTTP
import Synchronization
import Foundation

/// Sends ``Endpoint``s and returns their decoded responses.
///
/// ```swift
/// var config = APIClient.Configuration()
/// config.keyDecodingStrategy = .convertFromSnakeCase
/// let client = APIClient(baseURL: URL(string: "https://api.example.com")!, configuration: config)
/// let user = try await client.send(GetUser(id: 42))
/// ```
///
/// One client is meant to be shared: it is `Sendable`, sends from many tasks at once
/// without a lock around requests, and reuses connections, DNS and TLS sessions across
/// them. Requests run on libcurl's driver thread, never blocking a thread of the
/// concurrency pool. ``shutdown()`` ends transfers still in flight; dropping the last
/// reference does the same without waiting.
///
/// Every method throws ``APIError`` only (typed throws).
public final class APIClient: Sendable {
    /// The URL every endpoint's path is appended to, its own path included
    /// (`https://host/api/v2` + `/users` → `https://host/api/v2/users`).
    public let baseURL: URL
    /// The settings the client was created with.
    public let configuration: Configuration
    /// What requests are sent through: the client's own libcurl client, or the transport given.
    public let transport: any HTTPTransport

    /// The libcurl client this client created and must shut down; nil with a given transport.
    private let ownedClient: HTTPClient?
    /// Built once per client, not per request (each costs allocations and option locks).
    let encoder: JSONEncoder
    let decoder: JSONDecoder
    /// `baseURL` without a trailing `/`, nil when it is not http or https.
    private let base: String?
    /// The per-request options every request starts from.
    private let options: HTTPRequestOptions
    /// Where retries wait; tests inject one that records instead of sleeping.
    let sleep: @Sendable (Duration) async throws -> Void

    /// A client with its own libcurl transport (one driver thread and connection pool).
    public convenience init(baseURL: URL, configuration: Configuration = Configuration()) {
        let client = HTTPClient()
        self.init(baseURL: baseURL, configuration: configuration, transport: client, owned: client,
                  sleep: { try await Task.sleep(for: $0) })
    }

    /// A client that sends through `transport`: a ``MockTransport`` in tests, or a shared
    /// transport. The client does not shut a given transport down.
    public convenience init(baseURL: URL, configuration: Configuration = Configuration(), transport: any HTTPTransport) {
        self.init(baseURL: baseURL, configuration: configuration, transport: transport, owned: nil,
                  sleep: { try await Task.sleep(for: $0) })
    }

    init(baseURL: URL, configuration: Configuration, transport: any HTTPTransport, owned: HTTPClient?,
         sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.baseURL = baseURL
        self.configuration = configuration
        self.transport = transport
        self.ownedClient = owned
        self.sleep = sleep
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = configuration.keyEncodingStrategy
        encoder.dateEncodingStrategy = configuration.dateEncodingStrategy
        self.encoder = encoder
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = configuration.keyDecodingStrategy
        decoder.dateDecodingStrategy = configuration.dateDecodingStrategy
        self.decoder = decoder
        self.base = URLBuilder.base(baseURL)
        self.options = Self.options(for: configuration)
    }

    /// Ends transfers still in flight (their callers get ``APIError/Kind/shutDown``) and
    /// returns once the client's libcurl thread has let go. Requests sent afterwards fail
    /// at once. Does nothing for a client created with a given transport.
    public func shutdown() async {
        await ownedClient?.shutdown()
    }

    // MARK: - Sending

    /// Sends `endpoint` and returns its decoded response.
    ///
    /// Retries as ``Configuration/retry`` says, refreshes credentials once after a 401
    /// when an authenticator is set, and throws ``APIError`` for anything but a 2xx
    /// response that decodes. Cancelling the task ends the transfer (or the wait before a
    /// retry) with ``APIError/Kind/cancelled``.
    public func send<E: Endpoint>(_ endpoint: E) async throws(APIError) -> E.Response {
        let prepared = try prepare(endpoint)
        let response = try await perform(prepared)
        return try decode(E.Response.self, from: response, request: prepared)
    }

    /// Sends every endpoint, at most `maxConcurrency` at once, and returns their results
    /// in the order of `endpoints`. One failure does not stop the others; a
    /// `maxConcurrency` below 1 counts as 1. Cancelling the calling task cancels them all.
    ///
    /// ```swift
    /// let users = await client.send(all: ids.map { GetUser(id: $0) }, maxConcurrency: 8)
    /// for case .success(let user) in users { print(user.fullName) }
    /// ```
    public func send<E: Endpoint>(all endpoints: [E], maxConcurrency: Int = 8) async -> [Result<E.Response, APIError>] {
        var results = [Result<E.Response, APIError>?](repeating: nil, count: endpoints.count)
        await withTaskGroup(of: (Int, Result<E.Response, APIError>).self) { group in
            var next = 0
            func start() {
                let index = next, endpoint = endpoints[index]
                next += 1
                group.addTask { [self] in
                    do throws(APIError) {
                        return (index, .success(try await send(endpoint)))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            while next < min(max(1, maxConcurrency), endpoints.count) { start() }
            while let (index, result) = await group.next() {
                results[index] = result
                if next < endpoints.count { start() }
            }
        }
        // Every slot is filled: each started task reports once and every index is started.
        return results.map { $0 ?? .failure(APIError(kind: .cancelled, message: "the request was not sent")) }
    }

    /// Sends `endpoint` (typically with a ``RequestBody/multipart(_:)`` body streamed from
    /// disk) and reports the upload's progress from 0 to 1.
    ///
    /// `progress` is called from a task of its own, in order, with values that never
    /// decrease; the first call is 0 and, on success, the last is 1.
    public func upload<E: Endpoint>(_ endpoint: E, progress: @escaping @Sendable (Double) -> Void) async throws(APIError) -> E.Response {
        var prepared = try prepare(endpoint)
        let tracker = ProgressTracker(report: progress)
        tracker.update(0)
        prepared.request.onProgress = { update in
            if let fraction = update.uploadFraction { tracker.update(fraction) }
        }
        let response = try await perform(prepared)
        tracker.update(1)
        return try decode(E.Response.self, from: response, request: prepared)
    }

    /// Sends `endpoint` and streams the response body into the file at `destination`
    /// (created or replaced), so memory stays small whatever the size; reports the
    /// download's progress from 0 to 1.
    ///
    /// Returns the response, whose `body` is empty. On a non-2xx status the file is
    /// removed and the error carries the body's first 64 KiB; when the transfer fails
    /// (a timeout mid-body) a partial file is removed unless a file was there before.
    /// The endpoint's `Response` type is not used.
    @discardableResult
    public func download<E: Endpoint>(_ endpoint: E, to destination: URL,
                                      progress: (@Sendable (Double) -> Void)? = nil) async throws(APIError) -> HTTPResponse {
        var prepared = try prepare(endpoint, expectsJSON: false)
        let path = destination.path
        prepared.request.responseBody = .file(path: path)
        let tracker = progress.map { ProgressTracker(report: $0) }
        if let tracker {
            tracker.update(0)
            prepared.request.onProgress = { update in
                if let fraction = update.downloadFraction { tracker.update(fraction) }
            }
        }
        let existed = FileManager.default.fileExists(atPath: path)
        do throws(APIError) {
            let response = try await perform(prepared)
            tracker?.update(1)
            return response
        } catch {
            var error = error
            if error.statusCode != nil {
                error.body = Self.readPrefix(of: path, limit: 64 * 1024)
                try? FileManager.default.removeItem(atPath: path)
            } else if !existed {
                try? FileManager.default.removeItem(atPath: path)
            }
            throw error
        }
    }

    // MARK: - Building requests

    /// A request ready to send, and what its description must hide.
    struct Prepared: Sendable {
        var request: HTTPRequest
        var method: HTTPMethod
        var sensitiveBody: Bool
    }

    /// The request for `endpoint`: URL, headers, encoded body, options.
    ///
    /// `Accept: application/json` is added (unless the endpoint sets `Accept`) when the
    /// response will be decoded from JSON: not for `String`, `Data`, ``EmptyResponse`` or a download.
    func prepare<E: Endpoint>(_ endpoint: E, expectsJSON: Bool = true) throws(APIError) -> Prepared {
        let method = endpoint.method
        guard let url = URLBuilder.url(base: base, path: endpoint.path, query: endpoint.query) else {
            throw APIError(kind: .invalidURL, message: "'\(baseURL.absoluteString)' and '\(endpoint.path)' do not make an http or https URL",
                           hint: "check the client's baseURL and the endpoint's path", method: method)
        }
        var headers = configuration.defaultHeaders
        for field in endpoint.headers { headers.set(name: field.name, value: field.value) }
        var body = HTTPRequestBody.none
        var sensitive = false
        if let requestBody = endpoint.body {
            let encoded = try BodyEncoder.encode(requestBody, with: encoder, method: method, url: url)
            body = encoded.body
            sensitive = encoded.sensitive
            if let type = encoded.contentType, !headers.contains("Content-Type") {
                headers.add(name: "Content-Type", value: type)
            }
        }
        if expectsJSON, !ResponseReader.isRaw(E.Response.self), !headers.contains("Accept") {
            headers.add(name: "Accept", value: "application/json")
        }
        let request = HTTPRequest(method: method.rawValue, url: url, headers: headers, body: body, options: options)
        return Prepared(request: request, method: method, sensitiveBody: sensitive)
    }

    private static func options(for configuration: Configuration) -> HTTPRequestOptions {
        var options = HTTPRequestOptions()
        options.timeoutMilliseconds = milliseconds(configuration.timeout)
        options.connectTimeoutMilliseconds = milliseconds(configuration.connectTimeout)
        options.followRedirects = configuration.followRedirects
        options.maxResponseBytes = configuration.maxResponseBytes
        options.cookieJar = nil
        let tls = configuration.tls
        options.tls.caPath = tls.caCertificate
        options.tls.insecure = tls.insecure
        options.tls.pinnedPublicKey = tls.pinnedPublicKey
        switch tls.clientCertificate {
        case .pem(let certificate, let key, let password):
            options.tls.certificatePath = certificate
            options.tls.keyPath = key
            options.tls.password = password
        case .pkcs12(let path, let password):
            options.tls.certificatePath = path
            options.tls.password = password
        case nil:
            break
        }
        return options
    }

    /// At least 1 ms: libcurl reads 0 as "no timeout".
    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let total = seconds.multipliedReportingOverflow(by: 1000)
        guard !total.overflow else { return Int.max }
        return max(1, Int(clamping: total.partialValue + attoseconds / 1_000_000_000_000_000))
    }

    private static func readPrefix(of path: String, limit: Int) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return try? handle.read(upToCount: limit)
    }
}

/// Reports fractions that never decrease, whatever order transfers and retries produce them in.
private final class ProgressTracker: Sendable {
    private let report: @Sendable (Double) -> Void
    private let last = Mutex<Double>(-1)

    init(report: @escaping @Sendable (Double) -> Void) { self.report = report }

    func update(_ fraction: Double) {
        let value = min(1, max(0, fraction))
        let isNew = last.withLock { last in
            guard value > last else { return false }
            last = value
            return true
        }
        if isNew { report(value) }
    }
}
