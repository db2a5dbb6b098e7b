import CourierHTTP

/// The transport the command line hands the engine: reads pipes and standard input
/// named as bodies into memory first, off the transfer thread (libcurl would block
/// its thread on them); regular files stay streamed.
package struct PipedBodyTransport: HTTPTransport {
    package let base: any HTTPTransport

    package init(_ base: any HTTPTransport) {
        self.base = base
    }

    package func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        // Most requests name no file: sent as they are, not copied and timed on the way.
        guard PipedBodyReader.namesFile(request.body) else { return try await base.send(request) }
        return try await base.send(try await PipedBodyReader.resolve(request))
    }
}
