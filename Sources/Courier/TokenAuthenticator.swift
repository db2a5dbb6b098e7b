import CourierHTTP
/// Sends `Authorization: Bearer <token>` and fetches a new token when the server answers 401.
///
/// Refreshes are single-flight: when many requests get 401 at once they all wait for
/// the same call of `refresh`, and a request that was sent with a token that has been
/// replaced since is simply resent with the new one. A token is fetched before the first
/// request when none is given.
///
/// ```swift
/// let auth = TokenAuthenticator(token: cachedToken) {
///     try await login(clientID: id, secret: secret)   // returns the new access token
/// }
/// config.authenticator = auth
/// ```
///
/// `refresh` may send its login request through a client that uses this very
/// authenticator; should that request get 401 too, it fails with
/// ``APIError/Kind/unauthorized`` rather than wait for its own refresh.
public actor TokenAuthenticator: Authenticator {
    /// Set while `refresh` runs, so a 401 inside it is recognised instead of awaiting itself.
    @TaskLocal private static var refreshing: ObjectIdentifier?

    private let fetch: @Sendable () async throws -> String
    private var token: String?
    private var inFlight: Task<String, any Error>?
    /// How many times `refresh` was called (for tests and metrics).
    public private(set) var refreshCount = 0

    /// - Parameters:
    ///   - token: The token to start with; nil fetches one before the first request.
    ///   - refresh: Returns a new token; called once per expiry however many requests hit it.
    public init(token: String? = nil, refresh: @escaping @Sendable () async throws -> String) {
        self.token = token
        self.fetch = refresh
    }

    /// The current token, nil before the first fetch.
    public var currentToken: String? { token }

    /// The request with `Authorization: Bearer <token>`.
    public func authenticate(_ request: HTTPRequest) async throws -> HTTPRequest {
        let current: String
        if let token {
            current = token
        } else {
            current = try await renew()
        }
        var request = request
        request.headers.set(name: "Authorization", value: "Bearer \(current)")
        return request
    }

    /// Fetches a new token unless the rejected request's token was already replaced.
    public func refresh(after request: HTTPRequest, response: HTTPResponse) async throws -> Bool {
        if let token, request.headers["Authorization"] != "Bearer \(token)" {
            return true  // refreshed by another request since this one was sent
        }
        _ = try await renew()
        return true
    }

    /// The one refresh in flight, started if none is: every caller awaits the same task.
    ///
    /// Every caller stores the new token, not just the one that started the refresh: the
    /// waiters may resume before it does, and would otherwise resend the old token.
    private func renew() async throws -> String {
        if Self.refreshing == ObjectIdentifier(self) {
            throw APIError(kind: .unauthorized, message: "the token refresh's own request was rejected (401)")
        }
        let task: Task<String, any Error>
        if let inFlight {
            task = inFlight
        } else {
            refreshCount += 1
            let id = ObjectIdentifier(self)
            task = Task { [fetch] in try await Self.$refreshing.withValue(id) { try await fetch() } }
            inFlight = task
        }
        let generation = refreshCount
        do {
            let fresh = try await task.value
            // A later refresh may have finished first; its token is the newer one.
            if generation == refreshCount {
                token = fresh
                inFlight = nil
            }
            return fresh
        } catch {
            if generation == refreshCount { inFlight = nil }
            throw error
        }
    }
}
