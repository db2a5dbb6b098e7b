import CourierSync

/// A response body delivered in chunks as it arrives, with back-pressure.
///
/// Pass it as ``HTTPResponseBodyDestination/stream(_:)`` and iterate it while the
/// request runs; the transfer pauses while `bufferLimit` bytes wait unread and
/// resumes once half of them have been read, so memory stays bounded however large
/// the body. Iteration ends when the body does and throws the request's
/// ``HTTPError`` when it fails. One stream serves one request, and it must be read
/// to its end (or its reader cancelled), or the transfer stays paused.
///
/// ```swift
/// let body = HTTPResponseBodyStream()
/// async let response = client.send(HTTPRequest(url: url, responseBody: .stream(body)))
/// for try await chunk in body { hash.update(chunk) }
/// let status = try await response.status
/// ```
public final class HTTPResponseBodyStream: AsyncSequence, Sendable {
    public typealias Element = [UInt8]

    private struct State {
        var chunks: [[UInt8]] = []
        /// Index of the first unread chunk (chunks before it are dropped lazily).
        var head = 0
        var buffered = 0
        /// The transfer returned `CURL_WRITEFUNC_PAUSE` and waits for `resume`.
        var paused = false
        var attached = false
        var end: Result<Void, HTTPError>?
        var reader: CheckedContinuation<Result<[UInt8]?, HTTPError>, Never>?
        var resume: (@Sendable () -> Void)?
    }

    private let limit: Int
    private let state = PthreadLock(State())

    /// - Parameter bufferLimit: Bytes that may wait unread before the transfer pauses (default 1 MiB).
    public init(bufferLimit: Int = 1 << 20) {
        limit = Swift.max(1, bufferLimit)
    }

    public func makeAsyncIterator() -> Iterator { Iterator(stream: self) }

    /// Reads a ``HTTPResponseBodyStream``.
    public struct Iterator: AsyncIteratorProtocol {
        let stream: HTTPResponseBodyStream

        /// The next chunk, nil at the end of the body; throws the request's error.
        public mutating func next() async throws -> [UInt8]? {
            try await stream.nextChunk().get()
        }
    }

    // MARK: - Reader side

    private func nextChunk() async -> Result<[UInt8]?, HTTPError> {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<[UInt8]?, HTTPError>, Never>) in
                var resume: (@Sendable () -> Void)?
                let ready: Result<[UInt8]?, HTTPError>? = state.withLock { state in
                    if state.head < state.chunks.count {
                        let chunk = state.chunks[state.head]
                        state.head += 1
                        state.buffered -= chunk.count
                        if state.head == state.chunks.count {
                            state.chunks.removeAll(keepingCapacity: true)
                            state.head = 0
                        }
                        if state.paused && state.buffered <= limit / 2 {
                            state.paused = false
                            resume = state.resume
                        }
                        return .success(chunk)
                    }
                    if let end = state.end { return end.map { nil } }
                    if Task.isCancelled { return .failure(HTTPError(kind: .cancelled, message: "reading the response body was cancelled")) }
                    state.reader = continuation
                    return nil
                }
                resume?()
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let reader = state.withLock { state in
                defer { state.reader = nil }
                return state.reader
            }
            reader?.resume(returning: .failure(HTTPError(kind: .cancelled, message: "reading the response body was cancelled")))
        }
    }

    // MARK: - Transfer side (driver thread)

    /// Binds the stream to a transfer; false when it already served one.
    func attach(resume: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            guard !state.attached else { return false }
            state.attached = true
            state.resume = resume
            return true
        }
    }

    /// Takes `bytes`, or returns false when the buffer is full: the transfer then
    /// pauses and libcurl hands the same bytes again once resumed.
    func offer(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let chunk = [UInt8](bytes)
        let (accepted, reader) = state.withLock { state -> (Bool, CheckedContinuation<Result<[UInt8]?, HTTPError>, Never>?) in
            if let reader = state.reader {
                state.reader = nil
                return (true, reader)
            }
            guard state.buffered < limit else {
                state.paused = true
                return (false, nil)
            }
            state.chunks.append(chunk)
            state.buffered += chunk.count
            return (true, nil)
        }
        reader?.resume(returning: .success(chunk))
        return accepted
    }

    /// The transfer ended: readers get the end of the body, or its error.
    func end(_ result: Result<Void, HTTPError>) {
        let reader = state.withLock { state in
            if state.end == nil { state.end = result }
            state.resume = nil
            defer { state.reader = nil }
            return state.reader
        }
        reader?.resume(returning: result.map { nil })
    }
}
