import CourierHTTP

/// How the engine reaches HTTP: libcurl in production, a fake in unit tests.
package protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse
}

extension HTTPClient: HTTPTransport {
    package func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        // Pipes and standard input are read here, off the transfer thread; files stay streamed.
        try await execute(try await PipedBodyReader.resolve(request))
    }
}
