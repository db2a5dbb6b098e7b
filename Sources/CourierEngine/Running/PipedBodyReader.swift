import CourierDiagnostics
import CourierHTTP
import CourierWorkflow
import Foundation
import Synchronization

/// Turns request bodies that libcurl must not stream — a pipe (FIFO, `<(…)`), or `-` for
/// standard input — into bytes in memory, before the request goes to the transfer thread.
///
/// libcurl reads `body_file` and multipart files on its driver thread, which also runs the
/// engine: a pipe without a writer would block every transfer, and neither the timeout nor
/// Ctrl-C could end it. So a pipe is read on a thread of its own, up to `--max-body-size`,
/// within the step's timeout (what is left of it goes to the transfer), and cancellation
/// stops it. Regular files are left alone (streamed, never loaded whole); directories and
/// devices (`/dev/zero`, `/dev/urandom`) are errors that say what the path is.
enum PipedBodyReader {
    /// The path that means standard input in `body_file:` and multipart `file:`.
    static let standardInputPath = FilePaths.standardInput

    /// Standard input can be read once per process (it is consumed): the second request that
    /// names it fails rather than sending an empty body.
    private static let standardInputTaken = Atomic<Bool>(false)

    /// Whether `body` names a file (a body file or a multipart file part), which may be a
    /// pipe: only such bodies need ``resolve(_:)``.
    static func namesFile(_ body: HTTPRequestBody) -> Bool {
        switch body {
        case .file: true
        case .multipart(let parts): parts.contains { if case .file = $0.content { true } else { false } }
        case .none, .bytes, .stream: false
        }
    }

    /// `request` with pipe and standard-input bodies replaced by their bytes, and its timeout
    /// reduced by the time reading took.
    static func resolve(_ request: HTTPRequest) async throws(HTTPError) -> HTTPRequest {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + .milliseconds(request.options.timeoutMilliseconds)
        let limit = request.options.maxResponseBytes
        var request = request
        var readAny = false
        switch request.body {
        case .file(let path):
            if let bytes = try await readIfPipe(path, what: "'body_file'", limit: limit, deadline: deadline,
                                             timeoutMilliseconds: request.options.timeoutMilliseconds) {
                request.body = .bytes(bytes)
                readAny = true
            }
        case .multipart(var parts):
            for index in parts.indices {
                guard case .file(let path) = parts[index].content else { continue }
                if let bytes = try await readIfPipe(path, what: "multipart part '\(parts[index].name)'", limit: limit, deadline: deadline,
                                             timeoutMilliseconds: request.options.timeoutMilliseconds) {
                    parts[index].content = .data(bytes)
                    if parts[index].filename == nil {
                        parts[index].filename = path == standardInputPath ? "stdin" : (path as NSString).lastPathComponent
                    }
                    readAny = true
                }
            }
            request.body = .multipart(parts)
        case .none, .bytes, .stream:
            break
        }
        if readAny {
            // The step's timeout covers reading the pipe and the transfer together.
            let left = BoundedFileReader.milliseconds(deadline - clock.now)
            request.options.timeoutMilliseconds = max(1, left)
        }
        return request
    }

    /// The bytes of `path` when it is standard input or a pipe; nil for a regular file (or a
    /// missing one, which the transfer reports); an error for directories and devices.
    private static func readIfPipe(_ path: String, what: String, limit: Int, deadline: ContinuousClock.Instant,
                                   timeoutMilliseconds: Int) async throws(HTTPError) -> [UInt8]? {
        let isStandardInput = path == standardInputPath
        if isStandardInput {
            guard !standardInputTaken.exchange(true, ordering: .relaxed) else {
                throw HTTPError(kind: .fileUnreadable,
                                message: "standard input ('-') for \(what) was already read by an earlier request of this run",
                                hint: "standard input can be read once per run (a retry cannot resend it either); write it to a file to send it more than once")
            }
        } else {
            switch BoundedFileReader.type(of: path) {
            case .success(.fifo): break
            case .success(.regular), .failure: return nil
            case .success(let type):
                throw HTTPError(kind: .fileUnreadable, message: "cannot read '\(path)' for \(what): it is \(type.description), not a file",
                                hint: "name a regular file, a pipe, or '-' for standard input")
            }
        }
        let cancelled = CancelFlag()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<[UInt8], FileReadError>, Never>) in
                // A thread of its own: not the transfer thread, not the two-thread cooperative pool.
                let thread = Thread {
                    let isCancelled = { cancelled.value.load(ordering: .relaxed) }
                    do throws(FileReadError) {
                        let bytes = isStandardInput
                            ? try BoundedFileReader.readStandardInput(limit: limit, what: "request bodies", deadline: deadline, isCancelled: isCancelled)
                            : try BoundedFileReader.read(path, limit: limit, what: "request bodies", deadline: deadline, isCancelled: isCancelled)
                        continuation.resume(returning: .success(bytes))
                    } catch {
                        continuation.resume(returning: .failure(error))
                    }
                }
                thread.name = "courier-pipe-reader"
                thread.start()
            }
        } onCancel: {
            cancelled.value.store(true, ordering: .relaxed)
        }
        switch result {
        case .success(let bytes):
            return bytes
        case .failure(let error):
            let source = isStandardInput ? "standard input" : "the pipe '\(path)'"
            switch error.reason {
            case .tooLarge(let limit, _):
                throw HTTPError(kind: .requestBodyTooLarge, message: "\(source) for \(what) gave more than \(ByteCount.format(limit))",
                                hint: "pipes and standard input are read into memory up to --max-body-size; raise it, or write the data to a file (files are streamed)")
            case .timedOut:
                throw HTTPError(kind: .timeout, message: "\(source) for \(what) did not reach its end within \(timeoutMilliseconds) ms",
                                hint: "the step's 'timeout' covers reading the pipe; is anything writing to it?")
            case .cancelled:
                throw HTTPError(kind: .cancelled, message: "reading \(source) for \(what) was interrupted")
            default:
                throw HTTPError(kind: .fileUnreadable, message: "cannot read \(source) for \(what): \(error.reasonText)")
            }
        }
    }
}

/// Set when the step's task is cancelled; read by the pipe-reading thread between polls.
private final class CancelFlag: Sendable {
    let value = Atomic<Bool>(false)
}
