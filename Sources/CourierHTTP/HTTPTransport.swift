/// Something that sends HTTP requests: ``HTTPClient`` (libcurl), or a test double.
///
/// This is the one seam the workflow engine and libraries send through, so code
/// written against it runs unchanged on a mock. A conforming type must be safe to
/// call from many tasks at once.
///
/// Conformers should honour the whole ``HTTPRequest``: write the body where
/// ``HTTPRequest/responseBody`` says, read a ``HTTPRequestBody/stream(_:)`` body to
/// its end, report ``HTTPRequest/onProgress``, and throw ``HTTPError`` of kind
/// ``HTTPError/Kind/cancelled`` when the calling task is cancelled.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response, or throws why there is none.
    ///
    /// A status of 400 or more is a response, not an error.
    func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse
}
