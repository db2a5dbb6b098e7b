import CourierSync

/// A request body written while the request is sent, with back-pressure.
///
/// Send it as ``HTTPRequestBody/stream(_:)`` and write to it from another task:
/// `write(_:)` waits while `bufferLimit` bytes are still unsent, and the transfer
/// pauses while nothing is buffered. Call `finish()` after the last chunk. Without
/// a `length` the body goes out with `Transfer-Encoding: chunked` (HTTP/1.1).
/// One stream serves one request.
///
/// ```swift
/// let upload = HTTPRequestBodyStream(length: size)
/// async let response = client.send(HTTPRequest(method: "PUT", url: url, body: .stream(upload)))
/// for try await chunk in source { try await upload.write(chunk) }
/// upload.finish()
/// _ = try await response
/// ```
public final class HTTPRequestBodyStream: Sendable {
    private struct State {
        var chunks: [[UInt8]] = []
        var head = 0
        /// Bytes of `chunks[head]` already sent.
        var offset = 0
        var buffered = 0
        var finished = false
        var paused = false
        var attached = false
        /// Set when the transfer ended (successfully or not): writes then fail.
        var ended: HTTPError?
        var writer: CheckedContinuation<Result<Void, HTTPError>, Never>?
        var resume: (@Sendable () -> Void)?
    }

    /// The body's size in bytes, when known in advance (sent as `Content-Length`).
    public let length: Int64?
    private let limit: Int
    private let state = PthreadLock(State())

    /// - Parameters:
    ///   - length: The exact number of bytes that will be written, or nil for a chunked upload.
    ///   - bufferLimit: Bytes `write(_:)` may buffer ahead of the transfer (default 1 MiB).
    public init(length: Int64? = nil, bufferLimit: Int = 1 << 20) {
        self.length = length
        limit = Swift.max(1, bufferLimit)
    }

    /// Queues `bytes` for sending; waits while the buffer is full. Throws the
    /// request's end (an ``HTTPError``) when the transfer is over, and
    /// ``HTTPError/Kind/cancelled`` when the writing task is cancelled.
    public func write(_ bytes: [UInt8]) async throws(HTTPError) {
        guard !bytes.isEmpty else { return }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, HTTPError>, Never>) in
                var resume: (@Sendable () -> Void)?
                let ready: Result<Void, HTTPError>? = state.withLock { state in
                    if let ended = state.ended { return .failure(ended) }
                    if state.finished { return .failure(HTTPError(kind: .transport, message: "write after finish() on a request body stream")) }
                    state.chunks.append(bytes)
                    state.buffered += bytes.count
                    if state.paused {
                        state.paused = false
                        resume = state.resume
                    }
                    if state.buffered < limit { return .success(()) }
                    if Task.isCancelled { return .failure(HTTPError(kind: .cancelled, message: "writing the request body was cancelled")) }
                    state.writer = continuation
                    return nil
                }
                resume?()
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let writer = state.withLock { state in
                defer { state.writer = nil }
                return state.writer
            }
            writer?.resume(returning: .failure(HTTPError(kind: .cancelled, message: "writing the request body was cancelled")))
        }
        try result.get()
    }

    /// Marks the end of the body: the transfer sends what is buffered and ends it.
    public func finish() {
        let resume = state.withLock { state -> (@Sendable () -> Void)? in
            state.finished = true
            guard state.paused else { return nil }
            state.paused = false
            return state.resume
        }
        resume?()
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

    /// Copies buffered bytes into `buffer`: their count, 0 at the end of the body,
    /// or nil when nothing is buffered yet (the transfer then pauses).
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        var copied = 0
        let (result, writer) = state.withLock { state -> (Int?, CheckedContinuation<Result<Void, HTTPError>, Never>?) in
            while copied < buffer.count && state.head < state.chunks.count {
                let chunk = state.chunks[state.head]
                let count = min(chunk.count - state.offset, buffer.count - copied)
                chunk.withUnsafeBytes { source in
                    UnsafeMutableRawBufferPointer(rebasing: buffer[copied..<copied + count])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[state.offset..<state.offset + count]))
                }
                copied += count
                state.offset += count
                state.buffered -= count
                if state.offset == chunk.count {
                    state.head += 1
                    state.offset = 0
                }
            }
            if state.head == state.chunks.count {
                state.chunks.removeAll(keepingCapacity: true)
                state.head = 0
            }
            var writer: CheckedContinuation<Result<Void, HTTPError>, Never>?
            if state.buffered < limit, let waiting = state.writer {
                state.writer = nil
                writer = waiting
            }
            if copied > 0 { return (copied, writer) }
            if state.finished { return (0, writer) }
            state.paused = true
            return (nil, writer)
        }
        writer?.resume(returning: .success(()))
        return result
    }

    /// The transfer ended: a waiting or later `write` fails with `error`
    /// (or says the request is over when it succeeded).
    func end(_ error: HTTPError?) {
        let writer = state.withLock { state in
            if state.ended == nil {
                state.ended = error ?? HTTPError(kind: .transport, message: "the request this body stream belonged to is over")
            }
            state.resume = nil
            defer { state.writer = nil }
            return state.writer
        }
        if let writer, let ended = state.withLock({ $0.ended }) { writer.resume(returning: .failure(ended)) }
    }
}
