import Foundation
import Synchronization

/// What a user-named path is on disk, for errors that say so.
package enum FileType: Sendable, Equatable {
    case regular, directory, fifo, characterDevice, blockDevice, socket, other

    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        default: self = .other
        }
    }

    /// `a directory`, `a character device`, … for "'x' is a directory".
    package var description: String {
        switch self {
        case .regular: "a file"
        case .directory: "a directory"
        case .fifo: "a pipe (FIFO)"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .socket: "a socket"
        case .other: "not a regular file"
        }
    }

    /// Regular files are read (or streamed); pipes are read up to a limit within a deadline.
    /// Everything else either never ends (`/dev/zero`), blocks, or cannot be read at all.
    package var isReadable: Bool { self == .regular || self == .fifo }
}

/// Why a user-named file could not be read.
package struct FileReadError: Error, Sendable, LocalizedError {
    package enum Reason: Sendable, Equatable {
        case missing
        case notAFile(FileType)
        /// More bytes than `limit`; `what` names the limit ("workflow files").
        case tooLarge(limit: Int, what: String)
        /// A pipe gave no end of file before the deadline.
        case timedOut(milliseconds: Int)
        case cancelled
        /// `strerror` text, lower-cased.
        case system(String)
    }

    /// The path as the user wrote it (or as resolved), for display.
    package let path: String
    package let reason: Reason

    package init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// The reason without the path: "it is a character device, not a file".
    package var reasonText: String {
        switch reason {
        case .missing: "no such file"
        case .notAFile(.characterDevice): "it is a character device, not a file (devices such as /dev/zero never end or block)"
        case .notAFile(let type): "it is \(type.description), not a file"
        case .tooLarge(let limit, let what): "it holds more than \(Self.format(limit)), the limit for \(what)"
        case .timedOut(let ms): "the pipe did not reach its end within \(ms) ms"
        case .cancelled: "reading was interrupted"
        case .system(let text): text
        }
    }

    package var errorDescription: String? {
        path == Self.standardInputName ? "cannot read standard input: \(reasonText)" : "cannot read '\(path)': \(reasonText)"
    }

    /// The name standard input goes by in messages and source locations.
    package static let standardInputName = "<stdin>"

    package var failureReason: String? { reasonText }

    package static func format(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}

/// The one way Courier reads a file a user names: workflows, includes, schemas, `--vars-file`,
/// `--env-file`, `courier query FILE`, and pipes or standard input given as a request body.
///
/// Regular files and pipes are read up to a size limit; pipes (and standard input) also within
/// a deadline, polled in short slices so a run can be interrupted. Directories, devices and
/// sockets are errors that say what the path is: `/dev/zero` would never end, a directory has
/// no bytes, and opening a FIFO for reading blocks until a writer appears.
///
/// ```swift
/// let bytes = try BoundedFileReader.read("Workflows/login.yaml", limit: BoundedFileReader.sourceLimit, what: "workflow files")
/// ```
package enum BoundedFileReader {
    // MARK: - Paths that are not UTF-8

    /// File names are bytes; Swift strings are UTF-8. A name that is not valid UTF-8 (from
    /// `argv` or `readdir`) is shown with replacement characters, and that display string is
    /// mapped back to its bytes here, so every reader opens the real file.
    private static let rawPaths = Mutex<[String: [UInt8]]>([:])

    /// The display string for a path given as bytes, remembering the bytes when they are not
    /// valid UTF-8. Paths below a registered directory resolve through it too.
    package static func displayPath(forBytes bytes: [UInt8]) -> String {
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        let display = String(decoding: bytes, as: UTF8.self)
        // `./d/x` and `d/x` name one file (include paths are normalised): keep one key.
        let dotSlash: [UInt8] = [UInt8(ascii: "."), UInt8(ascii: "/")]
        let key = bytes.starts(with: dotSlash) ? String(display.dropFirst(2)) : display
        let keyBytes = bytes.starts(with: dotSlash) ? Array(bytes.dropFirst(2)) : bytes
        rawPaths.withLock { $0[key] = keyBytes }
        return display
    }

    /// Calls `body` with the C path to pass to the system for `path`: its registered bytes
    /// (or those of its longest registered parent directory), else its UTF-8.
    package static func withSystemPath<R>(_ path: String, _ body: (UnsafePointer<CChar>) -> R) -> R {
        let key = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
        let bytes: [UInt8]? = rawPaths.withLock { table in
            guard !table.isEmpty else { return nil }
            if let exact = table[key] { return exact }
            var best: (display: String, bytes: [UInt8])?
            for (display, raw) in table where key.hasPrefix(display + "/") && display.count > (best?.display.count ?? -1) {
                best = (display, raw)
            }
            guard let best else { return nil }
            return best.bytes + Array(key.utf8.dropFirst(best.display.utf8.count))
        }
        guard let bytes else { return path.withCString(body) }
        let terminated = bytes.map { CChar(bitPattern: $0) } + [0]
        return terminated.withUnsafeBufferPointer { buffer in
            // Never empty: it holds at least the terminating zero.
            buffer.baseAddress.map(body) ?? path.withCString(body)
        }
    }

    // MARK: - Reading

    /// Workflow, include, schema, `--vars-file` and `--env-file` files: 64 MiB.
    package static let sourceLimit = 64 << 20
    /// How long a pipe named as a source file may take to reach its end: 30 s.
    package static let sourcePipeDeadline: Duration = .seconds(30)

    /// What `path` is (following symbolic links), or an error when it cannot be inspected.
    package static func type(of path: String) -> Result<FileType, FileReadError> {
        var info = stat()
        let status = withSystemPath(path) { stat($0, &info) }
        guard status == 0 else {
            return .failure(FileReadError(path: path, reason: errno == ENOENT || errno == ENOTDIR ? .missing : .system(Self.errnoText())))
        }
        return .success(FileType(mode: info.st_mode))
    }

    /// Nil when `path` can be read by `read` (a readable regular file or pipe), else why not.
    package static func problem(with path: String) -> FileReadError? {
        switch type(of: path) {
        case .failure(let error): return error
        case .success(let type) where !type.isReadable: return FileReadError(path: path, reason: .notAFile(type))
        case .success:
            guard withSystemPath(path, { access($0, R_OK) }) == 0 else { return FileReadError(path: path, reason: .system(Self.errnoText())) }
            return nil
        }
    }

    /// Reads the regular file or pipe at `path`: at most `limit` bytes, a pipe until `deadline`.
    /// `isCancelled` is asked between reads of a pipe.
    package static func read(_ path: String, limit: Int, what: String, deadline: ContinuousClock.Instant? = nil,
                             isCancelled: () -> Bool = { false }) throws(FileReadError) -> [UInt8] {
        // A socket cannot be opened at all (ENXIO): say what it is rather than "no such device".
        if case .success(let type) = type(of: path), !type.isReadable {
            throw FileReadError(path: path, reason: .notAFile(type))
        }
        // O_NONBLOCK: opening a FIFO without a writer must not block; reads are polled below.
        let fd = withSystemPath(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else {
            throw FileReadError(path: path, reason: errno == ENOENT ? .missing : .system(Self.errnoText()))
        }
        defer { close(fd) }
        return try read(descriptor: fd, path: path, limit: limit, what: what, deadline: deadline, isCancelled: isCancelled)
    }

    /// Reads standard input to its end: a pipe, a file redirected with `<`, or a terminal.
    /// `/dev/zero < ` and other devices are refused.
    package static func readStandardInput(limit: Int, what: String, deadline: ContinuousClock.Instant? = nil,
                                          isCancelled: () -> Bool = { false }) throws(FileReadError) -> [UInt8] {
        try read(descriptor: 0, path: FileReadError.standardInputName, limit: limit, what: what, deadline: deadline,
                 isCancelled: isCancelled, allowTerminal: true)
    }

    static func read(descriptor fd: Int32, path: String, limit: Int, what: String, deadline: ContinuousClock.Instant?,
                     isCancelled: () -> Bool, allowTerminal: Bool = false) throws(FileReadError) -> [UInt8] {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileReadError(path: path, reason: .system(Self.errnoText())) }
        let type = FileType(mode: info.st_mode)
        let terminal = allowTerminal && type == .characterDevice && isatty(fd) == 1
        guard type.isReadable || terminal else { throw FileReadError(path: path, reason: .notAFile(type)) }
        if type == .regular && Int(info.st_size) > limit {
            throw FileReadError(path: path, reason: .tooLarge(limit: limit, what: what))
        }

        var bytes: [UInt8] = []
        if type == .regular { bytes.reserveCapacity(Int(info.st_size)) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let clock = ContinuousClock()
        let start = clock.now
        while true {
            if type != .regular {
                // Wait for data in short slices: the deadline and cancellation are checked in between.
                if isCancelled() { throw FileReadError(path: path, reason: .cancelled) }
                var slice: Int32 = 100
                if let deadline {
                    let left = deadline - clock.now
                    if left <= .zero {
                        throw FileReadError(path: path, reason: .timedOut(milliseconds: Self.milliseconds(deadline - start)))
                    }
                    slice = Int32(min(100, max(1, Self.milliseconds(left))))
                }
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&poller, 1, slice)
                if ready < 0 && errno != EINTR { throw FileReadError(path: path, reason: .system(Self.errnoText())) }
                if ready <= 0 { continue }
            }
            let want = min(chunk.count, limit + 1 - bytes.count)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, want) }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                throw FileReadError(path: path, reason: .system(Self.errnoText()))
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > limit { throw FileReadError(path: path, reason: .tooLarge(limit: limit, what: what)) }
        }
    }

    /// Whole milliseconds, rounded (a 30 s deadline reads "30000 ms", not "29999 ms").
    package static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1000 + Int((Double(attoseconds) / 1e15).rounded())
    }

    static func errnoText() -> String { String(cString: strerror(errno)).lowercased() }
}
