import CourierHTTP

/// Whether the body of the request being sent is marked sensitive: a ``MockTransport``
/// reads it to redact what it records. Set only for sensitive bodies, so ordinary
/// requests pay nothing.
enum SendContext {
    @TaskLocal static var sensitiveBody = false
}

extension APIClient {
    /// Sends `prepared` until it succeeds or may not be sent again: attempts as the retry
    /// policy says, and one resend after a credential refresh. Returns a 2xx response.
    func perform(_ prepared: Prepared) async throws(APIError) -> HTTPResponse {
        let policy = configuration.retry
        let authenticator = configuration.authenticator
        let clock = ContinuousClock()
        let start = clock.now
        var random = SystemRandomNumberGenerator()
        var attempt = 1
        var sends = 0
        var refreshed = false
        while true {
            var request = prepared.request
            if let authenticator {
                do {
                    request = try await authenticator.authenticate(request)
                } catch {
                    throw authenticationFailure(error, prepared: prepared, sends: sends)
                }
            }
            var sent = prepared
            sent.request = request
            sends += 1
            let result = await send(request, sensitive: prepared.sensitiveBody)

            var error: APIError
            let failure: RetryPolicy.Failure
            var retryAfter: String?
            switch result {
            case .success(let response):
                if (200..<300).contains(response.status) { return response }
                if response.status == 401, let authenticator, !refreshed {
                    refreshed = true
                    let again: Bool
                    do {
                        again = try await authenticator.refresh(after: request, response: response)
                    } catch {
                        throw authenticationFailure(error, prepared: sent, sends: sends)
                    }
                    if again { continue }
                }
                error = APIError(response: response, request: sent)
                failure = .status(response.status)
                retryAfter = response.headers["Retry-After"]
            case .failure(let transportError):
                error = APIError(transport: transportError, request: sent)
                guard let retriable = RetryPolicy.Failure(transportError.kind) else {
                    error.attempts = sends
                    throw error  // cancelled, TLS, invalid URL…: another try changes nothing
                }
                failure = retriable
            }
            error.attempts = sends

            // A request the server may have acted on is sent again only when that is safe.
            let safe = prepared.method.isIdempotent || failure == .network(requestSent: false)
            guard safe, policy.retries(failure) else { throw error }
            switch policy.wait(after: failure, attempt: attempt, elapsed: clock.now - start, retryAfter: retryAfter, using: &random) {
            case .stop:
                throw error
            case .retry(let wait):
                do {
                    try await sleep(wait.duration)
                } catch {
                    var cancelled = APIError(kind: .cancelled, message: "cancelled while waiting to retry", method: prepared.method,
                                             url: Redaction.url(prepared.request.url))
                    cancelled.attempts = sends
                    throw cancelled
                }
            }
            attempt += 1
        }
    }

    private func send(_ request: HTTPRequest, sensitive: Bool) async -> Result<HTTPResponse, HTTPError> {
        let transport = transport
        guard sensitive else {
            do throws(HTTPError) { return .success(try await transport.send(request)) } catch { return .failure(error) }
        }
        return await SendContext.$sensitiveBody.withValue(true) {
            do throws(HTTPError) { return .success(try await transport.send(request)) } catch { return .failure(error) }
        }
    }

    private func authenticationFailure(_ error: any Error, prepared: Prepared, sends: Int) -> APIError {
        if let error = error as? APIError { return error }
        let cancelled = error is CancellationError
        var failure = APIError(kind: cancelled ? .cancelled : .unauthorized,
                               message: cancelled ? "cancelled while authenticating" : "the authenticator failed: \(error)",
                               method: prepared.method, url: Redaction.url(prepared.request.url))
        failure.underlyingError = error
        failure.attempts = max(1, sends)
        failure.secrets = Redaction.secrets(in: prepared.request.headers)
        return failure
    }
}
