import CourierHTTP
import Foundation
import Synchronization

/// A transport that answers from memory, so app tests need no server.
///
/// It records every request it receives and answers with canned replies by method and
/// path, or with a handler. It measures how many requests were in flight at once.
///
/// ```swift
/// let mock = MockTransport()
/// try mock.on(.get, "/users/42", reply: .json(User(id: 42, fullName: "Ada")))
/// mock.on(.post, "/users", replies: .status(503), .status(201))   // in order, the last repeats
/// let client = APIClient(baseURL: URL(string: "https://api.test")!, transport: mock)
/// _ = try await client.send(GetUser(id: 42))
/// #expect(mock.requests.map(\.path) == ["/users/42"])
/// ```
///
/// Safe to use from many tasks at once: its state sits behind a mutex.
public final class MockTransport: HTTPTransport {
    /// What the mock answers to one request: a response or a transport error, after an optional delay.
    public struct Reply: Sendable {
        /// The response, or the error the transport throws.
        public var outcome: Result<HTTPResponse, HTTPError>
        /// How long to wait before answering (cancellable); default none.
        public var delay: Duration

        /// A reply of `outcome` after `delay`.
        public init(outcome: Result<HTTPResponse, HTTPError>, delay: Duration = .zero) {
            self.outcome = outcome
            self.delay = delay
        }

        /// A response with `status`, `headers` and `body`.
        public static func status(_ status: Int, headers: HTTPHeaders = [:], body: Data = Data(), delay: Duration = .zero) -> Reply {
            Reply(outcome: .success(HTTPResponse(status: status, headers: headers, body: [UInt8](body))), delay: delay)
        }

        /// A response whose body is `text`.
        public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8",
                                headers: HTTPHeaders = [:], delay: Duration = .zero) -> Reply {
            var all = headers
            if !all.contains("Content-Type") { all.add(name: "Content-Type", value: contentType) }
            return .status(status, headers: all, body: Data(text.utf8), delay: delay)
        }

        /// A JSON response of `value` (encoded with default keys and ISO 8601 dates).
        public static func json(_ value: some Encodable, status: Int = 200, headers: HTTPHeaders = [:],
                                delay: Duration = .zero) throws -> Reply {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            encoder.outputFormatting = .sortedKeys
            let data = try encoder.encode(value)
            return .text(String(decoding: data, as: UTF8.self), status: status, contentType: "application/json", headers: headers,
                         delay: delay)
        }

        /// The transport fails with `kind` (``HTTPError/Kind/timeout``, ``HTTPError/Kind/connectionRefused``, …).
        public static func failure(_ kind: HTTPError.Kind, message: String? = nil, curlCode: Int = 0, delay: Duration = .zero) -> Reply {
            Reply(outcome: .failure(HTTPError(kind: kind, curlCode: curlCode, message: message ?? "mock \(kind)")), delay: delay)
        }
    }

    /// Answers a request; runs on the sending task.
    public typealias Handler = @Sendable (RecordedRequest) async -> Reply

    private struct Route {
        var replies: [Reply]
        var next = 0
    }

    private struct State {
        var routes: [String: Route] = [:]
        var requests: [RecordedRequest] = []
        var inFlight = 0
        var maxInFlight = 0
    }

    private let state = Mutex(State())
    private let handler: Handler?
    /// The reply to requests no route matches; default 404 with an empty body.
    public let fallback: Reply

    /// A mock that answers from routes set with ``on(_:_:replies:)``, and `fallback` otherwise.
    public init(fallback: Reply = .status(404)) {
        self.handler = nil
        self.fallback = fallback
    }

    /// A mock that answers every request with `handler` (routes are not used).
    public init(handler: @escaping Handler) {
        self.handler = handler
        self.fallback = .status(404)
    }

    /// Answers `method` requests to `path` (without query) with `replies` in order; the
    /// last one repeats. Replaces an earlier route for the same method and path.
    public func on(_ method: HTTPMethod, _ path: String, replies: Reply...) {
        on(method, path, replies: replies)
    }

    /// Answers `method` requests to `path` with `reply` every time.
    public func on(_ method: HTTPMethod, _ path: String, reply: Reply) {
        on(method, path, replies: [reply])
    }

    /// Answers `method` requests to `path` (without query) with `replies` in order; the last one repeats.
    public func on(_ method: HTTPMethod, _ path: String, replies: [Reply]) {
        state.withLock { $0.routes[Self.key(method.rawValue, path)] = Route(replies: replies) }
    }

    /// Every request received, oldest first.
    public var requests: [RecordedRequest] { state.withLock { $0.requests } }

    /// The most requests that were in flight at the same time.
    public var maxConcurrentRequests: Int { state.withLock { $0.maxInFlight } }

    /// Forgets recorded requests and the in-flight maximum (routes stay).
    public func reset() {
        state.withLock {
            $0.requests = []
            $0.maxInFlight = $0.inFlight
        }
    }

    /// Records `request` and answers it as the routes or the handler say.
    public func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        // As libcurl's transport does: a header with a line break is never sent (nor recorded).
        for field in request.headers {
            if let problem = HTTPHeaders.lineBreakProblem(field) { throw problem }
        }
        let recorded = Self.record(request, sensitive: SendContext.sensitiveBody)
        let reply: Reply = state.withLock { state in
            state.requests.append(recorded)
            state.inFlight += 1
            state.maxInFlight = max(state.maxInFlight, state.inFlight)
            guard handler == nil else { return fallback }
            let key = Self.key(request.method, recorded.path)
            guard var route = state.routes[key], !route.replies.isEmpty else { return fallback }
            let reply = route.replies[min(route.next, route.replies.count - 1)]
            route.next += 1
            state.routes[key] = route
            return reply
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        let answer = if let handler { await handler(recorded) } else { reply }
        if Task.isCancelled { throw HTTPError(kind: .cancelled, message: "the request was cancelled") }
        if answer.delay > .zero {
            do {
                try await Task.sleep(for: answer.delay)
            } catch {
                throw HTTPError(kind: .cancelled, message: "the request was cancelled")
            }
        }
        let response = try answer.outcome.get()
        return try deliver(response, for: request, uploaded: Int64(recorded.body.count))
    }

    /// Writes the body where the request asked and reports progress, as a real transport would.
    private func deliver(_ response: HTTPResponse, for request: HTTPRequest, uploaded: Int64) throws(HTTPError) -> HTTPResponse {
        var response = response
        if response.effectiveURL.isEmpty { response.effectiveURL = request.url }
        let size = Int64(response.body.count)
        if let progress = request.onProgress {
            progress(HTTPProgress(uploaded: 0, uploadTotal: uploaded, downloaded: 0, downloadTotal: size))
            progress(HTTPProgress(uploaded: uploaded, uploadTotal: uploaded, downloaded: size, downloadTotal: size))
        }
        switch request.responseBody {
        case .memory:
            break
        case .file(let path):
            guard FileManager.default.createFile(atPath: path, contents: Data(response.body)) else {
                throw HTTPError(kind: .fileUnwritable, message: "cannot write '\(path)'", path: path)
            }
            response.body = []
        case .stream:
            response.body = []  // a stream destination is not simulated
        }
        return response
    }

    private static func key(_ method: String, _ path: String) -> String { "\(method) \(path)" }

    static func record(_ request: HTTPRequest, sensitive: Bool) -> RecordedRequest {
        let components = URLComponents(string: request.url)
        var body = Data()
        var parts: [MultipartPart]?
        switch request.body {
        case .bytes(let bytes): body = Data(bytes)
        case .multipart(let list): parts = list
        case .none, .file, .stream: break
        }
        return RecordedRequest(method: HTTPMethod(rawValue: request.method), url: request.url,
                               path: components?.percentEncodedPath ?? "", query: components?.queryItems ?? [],
                               headers: request.headers, body: body, multipartParts: parts, isBodySensitive: sensitive)
    }
}
