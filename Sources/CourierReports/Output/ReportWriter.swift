import CourierSecrets
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes a report's bytes where the user asked: the one writer for every report kind.
///
/// - `-`: standard output, directly.
/// - A regular file, or a path that does not exist yet: a temporary file in the
///   same directory, then a rename, so a CI job never picks up half a file.
///   Missing parent folders are created; an existing file keeps its permissions.
/// - A symbolic link: the same, beside the link's final target, so the link stays
///   a link and its target gets the content (also for a link to a missing file).
/// - A FIFO, a character or block device (`/dev/null`, a `/dev/stdout` pipe):
///   opened and written directly. Renaming over them would replace a device node
///   with a plain file (as root in a container, that breaks the container).
/// - The file standard output or standard error is redirected to (`--junit
///   /dev/stdout > out.txt`): written through that descriptor, after what was
///   written there already.
///
/// Every report is masked with the run's ``SecretRegistry``: by its renderer value by
/// value (JUnit, JSON, HTML: ``Masking/byRenderer``), or as a whole on its way to the
/// destination (text with no structure a secret could rewrite).
///
///     try ReportWriter.write(JUnitReport.render(run, policy: registry.policy), to: "reports/junit.xml", maskingWith: registry)
package enum ReportWriter {
    package struct Failure: Error, Equatable, CustomStringConvertible {
        package var path: String
        package var reason: String
        package var description: String {
            path == "-" ? "cannot write to standard output: \(reason)" : "cannot write '\(path)': \(reason)"
        }
    }

    /// How bytes reach a destination.
    enum Destination: Equatable {
        case descriptor(Int32)
        /// Opened and written in place (FIFOs, devices).
        case direct(path: String)
        /// Temporary file beside `path`, then rename; `mode` of the file replaced, if any.
        case atomic(path: String, mode: mode_t?)
    }

    /// Who masks a report's text.
    package enum Masking: Sendable {
        /// The writer, the whole text (a report that is plain text: a merged file's
        /// own text, re-read reports of earlier runs).
        case wholeText
        /// Its renderer, value by value with the same policy, before escaping, because
        /// masking the whole text could change its structure: the JSON report's keys, a
        /// JUnit element or entity (`testcase`, `&amp;`), HTML tags, style and script.
        case byRenderer
    }

    package static func write(_ text: String, to path: String, maskingWith secrets: SecretRegistry,
                              masking: Masking = .wholeText) throws(Failure) {
        var text = masking == .wholeText ? secrets.policy.mask(text) : text
        // `withUTF8` rethrows untyped errors: carry the typed one out in a Result.
        let outcome = text.withUTF8 { bytes in
            Result { () throws(Failure) in try write(UnsafeRawBufferPointer(bytes), to: path) }
        }
        try outcome.get()
    }

    private static func write(_ bytes: UnsafeRawBufferPointer, to path: String) throws(Failure) {
        switch try destination(for: path) {
        case .descriptor(let descriptor):
            if let error = writeAll(bytes, to: descriptor) {
                throw Failure(path: path, reason: systemReason(error))
            }
        case .direct(let target):
            let descriptor = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC)
            guard descriptor >= 0 else { throw Failure(path: path, reason: systemReason(errno)) }
            defer { close(descriptor) }
            if let error = writeAll(bytes, to: descriptor) {
                throw Failure(path: path, reason: systemReason(error))
            }
        case .atomic(let target, let mode):
            try writeAtomically(bytes, to: target, mode: mode, named: path)
        }
    }

    /// Whether writing to `path` again replaces what was written before (a file, a
    /// new path), rather than adding to a stream (`-`, a FIFO, a device).
    package static func replacesWhole(_ path: String) -> Bool {
        if case .atomic? = try? destination(for: path) { return true }
        return false
    }

    /// Where `path` leads, decided before anything is written.
    static func destination(for path: String) throws(Failure) -> Destination {
        if path == "-" { return .descriptor(STDOUT_FILENO) }
        guard !path.isEmpty else { throw Failure(path: path, reason: "no file name given") }
        var info = stat()
        if stat(path, &info) == 0 {
            let type = info.st_mode & S_IFMT
            if type == S_IFDIR { throw Failure(path: path, reason: "is a directory") }
            guard type == S_IFREG else { return .direct(path: path) }
            for descriptor in [STDOUT_FILENO, STDERR_FILENO] {
                var open = stat()
                if fstat(descriptor, &open) == 0, open.st_dev == info.st_dev, open.st_ino == info.st_ino {
                    return .descriptor(descriptor)
                }
            }
            guard let resolved = realPath(path) else { throw Failure(path: path, reason: systemReason(errno)) }
            return .atomic(path: resolved, mode: info.st_mode & 0o7777)
        }
        let statError = errno
        guard statError == ENOENT else { throw Failure(path: path, reason: systemReason(statError)) }
        // Nothing there, or a link to nothing: create the file the link names.
        return .atomic(path: try finalLinkTarget(of: path), mode: nil)
    }

    // MARK: - Pieces

    private static func writeAtomically(_ bytes: UnsafeRawBufferPointer, to target: String, mode: mode_t?, named path: String) throws(Failure) {
        let directory = (target as NSString).deletingLastPathComponent
        if !directory.isEmpty, mode == nil {
            // Errors surface below with the system's own words (e.g. "Not a directory").
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let name = (target as NSString).lastPathComponent
        let temporary = (directory.isEmpty ? "" : directory + "/")
            + ".\(name).\(getpid()).\(String(UInt32.random(in: .min ... .max), radix: 16)).tmp"
        // 0o666 less the umask, as any new file; an existing file's mode is restored below.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw Failure(path: path, reason: systemReason(errno)) }
        var failure: Int32?
        if let mode, fchmod(descriptor, mode) != 0 { failure = errno }
        if failure == nil { failure = writeAll(bytes, to: descriptor) }
        // On disk before the rename: a crash leaves the old report or the new, never an empty one.
        if failure == nil, fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporary, target) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw Failure(path: path, reason: systemReason(failure))
        }
    }

    /// The absolute path with every symbolic link resolved, for an existing file.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Follows a chain of symbolic links whose end does not exist (yet); `path`
    /// itself when it is not a link. At most 40 links, as the kernel allows.
    private static func finalLinkTarget(of path: String) throws(Failure) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { throw Failure(path: path, reason: systemReason(errno)) }
            let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(target)
        }
        throw Failure(path: path, reason: systemReason(ELOOP))
    }
}
