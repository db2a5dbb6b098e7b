#if canImport(Glibc)
import Glibc
#endif

/// write(2) until every byte is out: continues partial writes, retries `EINTR`,
/// and waits with poll(2) on `EAGAIN` (a stream inherited in non-blocking mode).
///
/// Returns nil when everything was written, else the `errno` that stopped it.
/// Never traps, unlike Foundation's `FileHandle.write(_:)`.
func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
    guard var next = bytes.baseAddress else { return nil }
    var remaining = bytes.count
    while remaining > 0 {
        let count = write(descriptor, next, remaining)
        if count > 0 {
            next += count
            remaining -= count
            continue
        }
        let error = count < 0 ? errno : EIO
        switch error {
        case EINTR:
            continue
        case EAGAIN, EWOULDBLOCK:
            var wanted = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&wanted, 1, -1)
        default:
            return error
        }
    }
    return nil
}

/// `strerror` as a Swift string: the system's own words ("No space left on device").
func systemReason(_ error: Int32) -> String {
    String(cString: strerror(error))
}
