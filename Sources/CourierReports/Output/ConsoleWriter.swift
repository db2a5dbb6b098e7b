import CourierDiagnostics
import CourierSecrets
#if canImport(Glibc)
import Glibc
#endif
import CourierSync

/// Standard output or standard error: the one door console text leaves through.
///
/// Foundation's `FileHandle.write(_:)` traps on any error, so `courier run | head -1`
/// or `> /dev/full` used to kill a run before its teardown and reports. This writer
/// never traps and never stops the run:
/// - `EPIPE` (the reader has gone: `| head -1`, a `tee` killed by Ctrl-C) stops the
///   output quietly; SIGPIPE is ignored at start-up, so the write just fails.
/// - any other error (`ENOSPC` on `/dev/full`, `EIO`) stops the output too and is
///   kept, for the command line to report once and exit 3.
///
/// Each `write` is atomic with respect to the others on the same writer.
///
/// There is no unmasked write: every text is masked with a ``SecretRegistry``'s
/// current policy on its way to the descriptor, and then its control characters
/// are shown as escapes (`\u001b`): text from outside (bodies, headers, names a
/// server filled in, merged reports) cannot drive the terminal. Only Courier's own
/// controls (``TerminalControl``: colour, erasing the status line) are written as
/// they are. Reporters and the command line hold a ``MaskedOutput`` (this writer
/// and the run's registry), never a way around it.
///
///     let output = MaskedOutput(ConsoleWriter.standardOutput, secrets: registry)
///     output.write("PASSED\n")
///     if let problem = ConsoleWriter.standardOutput.failure { … }
package final class ConsoleWriter: Sendable {
    package enum Status: Sendable, Equatable {
        case open
        /// The reader closed the stream (`EPIPE`): output stops, nothing is wrong with the run.
        case closedByReader
        /// A write failed for another reason (`errno`); output stops.
        case failed(errno: Int32)
    }

    package let fileDescriptor: Int32
    /// `standard output`, for messages.
    package let name: String
    private let state = PthreadLock(Status.open)

    package static let standardOutput = ConsoleWriter(fileDescriptor: STDOUT_FILENO, name: "standard output")
    package static let standardError = ConsoleWriter(fileDescriptor: STDERR_FILENO, name: "standard error")

    package init(fileDescriptor: Int32, name: String) {
        self.fileDescriptor = fileDescriptor
        self.name = name
    }

    /// Writes all of `text` masked with `secrets`' current policy, then with its
    /// control characters escaped, unless the stream has failed or closed before.
    ///
    /// Masked as a whole: a caller writes whole blocks (a step line, a failure's
    /// transcript), so no secret straddles two writes. Masked before it is escaped,
    /// so a secret holding ESC is still found and `***` is never split.
    package func write(_ text: TerminalText, maskingWith secrets: SecretRegistry) {
        guard !text.isEmpty else { return }
        let policy = secrets.policy
        var text = text.written { policy.mask($0) }
        state.withLock { status in
            guard status == .open else { return }
            let error = text.withUTF8 { writeAll(UnsafeRawBufferPointer($0), to: fileDescriptor) }
            switch error {
            case nil: break
            case EPIPE?: status = .closedByReader
            case let other?: status = .failed(errno: other)
            }
        }
    }

    /// Writes `text`, all of it text: every control character in it is escaped.
    package func write(_ text: String, maskingWith secrets: SecretRegistry) {
        write(TerminalText(text), maskingWith: secrets)
    }

    package var status: Status { state.withLock { $0 } }

    /// `cannot write to standard output: No space left on device`, when a write
    /// failed for another reason than a reader that went away.
    package var failure: String? {
        guard case .failed(let error) = status else { return nil }
        return "cannot write to \(name): \(systemReason(error))"
    }
}
