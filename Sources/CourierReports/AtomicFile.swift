import Foundation

/// Writes files so that readers see the old content or the new, never a part.
package enum AtomicFile {
    package struct WriteError: Error, CustomStringConvertible {
        package var path: String
        package var reason: String
        package var description: String { "cannot write '\(path)': \(reason)" }
    }

    /// Writes `text` to a temporary file beside `path`, then renames it over `path`.
    /// Missing parent folders are created.
    package static func write(_ text: String, to path: String) throws(WriteError) {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            // Errors surface below with the system's own words (e.g. "Not a directory").
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let name = (path as NSString).lastPathComponent
        let temporary = (directory.isEmpty ? "" : directory + "/") + ".\(name).\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written)
            }
            if count < 0 {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                unlink(temporary)
                throw WriteError(path: path, reason: reason)
            }
            written += count
        }
        close(descriptor)
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw WriteError(path: path, reason: reason)
        }
    }
}
