import Foundation

// MARK: - Files named by the request, opened on the driver thread without waiting

extension CurlTransfer {
    /// Opens a response body's destination for writing, created or truncated.
    ///
    /// Never waits: this runs on the driver thread, where a FIFO that nobody reads would
    /// have blocked every transfer (`open` of a FIFO for writing waits for a reader). With
    /// `O_NONBLOCK` that case fails at once (ENXIO) and is said plainly; a FIFO that has a
    /// reader, and any other file, is then written with ordinary blocking writes.
    static func openDestination(_ path: String) throws(HTTPError) -> UnsafeMutablePointer<FILE> {
        func failure(_ reason: String) -> HTTPError {
            HTTPError(kind: .fileUnwritable, message: "cannot write the response body to '\(path)': \(reason)", path: path)
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            if errno == ENXIO { throw failure("it is a pipe (FIFO) that no process is reading") }
            throw failure(String(cString: strerror(errno)).lowercased())
        }
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) == 0, let file = fdopen(descriptor, "wb") else {
            let reason = String(cString: strerror(errno)).lowercased()
            close(descriptor)
            throw failure(reason)
        }
        return file
    }


    /// Why `path` cannot be read as a regular file, or nil when it can.
    ///
    /// Only regular files are streamed: libcurl reads them on the transfer thread, where a
    /// pipe without a writer would block every transfer and `/dev/zero` would never end.
    static func unreadable(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return String(cString: strerror(errno)).lowercased() }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return "it is a directory"
        case S_IFIFO: return "it is a pipe (FIFO), which cannot be streamed: read it into memory and send the bytes"
        case S_IFCHR, S_IFBLK: return "it is a device, not a file"
        case S_IFSOCK: return "it is a socket, not a file"
        default: return "it is not a regular file"
        }
        guard access(path, R_OK) == 0 else { return String(cString: strerror(errno)).lowercased() }
        return nil
    }
}
