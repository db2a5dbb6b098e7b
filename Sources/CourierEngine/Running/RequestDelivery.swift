import CourierHTTP

/// What became of a request handed to a ``RequestDelivery``.
enum Delivered {
    case response(HTTPResponse)
    case failure(HTTPError)
    /// A dry run: nothing was sent and nothing will come back.
    case notSent
}

/// How an attempt's request reaches the server: the run plan picks one per run.
protocol RequestDelivery: Sendable {
    /// Sends `request`. A `shielded` one (teardown's, and the logins teardown needs) runs
    /// in a task of its own that cancelling the run does not cancel.
    func deliver(_ request: HTTPRequest, shielded: Bool) async -> Delivered
}

/// A real run: through the engine's transport.
struct TransportDelivery: RequestDelivery {
    let transport: any HTTPTransport
    let control: RunControl

    func deliver(_ request: HTTPRequest, shielded: Bool) async -> Delivered {
        let result = shielded ? await sendShielded(request) : await send(request)
        switch result {
        case .success(let response): return .response(response)
        case .failure(let error): return .failure(error)
        }
    }

    private func send(_ request: HTTPRequest) async -> Result<HTTPResponse, HTTPError> {
        do throws(HTTPError) { return .success(try await transport.send(request)) } catch { return .failure(error) }
    }

    /// Cleaning up must still happen after an interruption, but only until the control's
    /// deadline (then the task is cancelled, so a hanging teardown cannot outlive `docker stop`).
    private func sendShielded(_ request: HTTPRequest) async -> Result<HTTPResponse, HTTPError> {
        let task = Task { await send(request) }
        let token = control.onTeardownDeadline { task.cancel() }
        if token == nil { task.cancel() }
        let result = await task.value
        if let token { control.removeDeadlineHandler(token) }
        return result
    }
}

/// `--dry-run`: every request is built and recorded, and none is sent.
struct NeverDelivered: RequestDelivery {
    func deliver(_ request: HTTPRequest, shielded: Bool) async -> Delivered { .notSent }
}
