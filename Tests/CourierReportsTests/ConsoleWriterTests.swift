@testable import CourierReports
import CourierSecrets
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The console writer never traps: a reader that went away stops output quietly,
/// other errors are kept for exit 3, and every byte is written otherwise.
@Suite struct ConsoleWriterTests {
    init() {
        // As `courier` does at start-up: a closed pipe is EPIPE, not death by SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
    }

    @Test("EPIPE: output stops quietly, no failure to report")
    func readerGone() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        let writer = ConsoleWriter(fileDescriptor: ends[1], name: "test pipe")
        writer.write("first line\n", maskingWith: SecretRegistry())
        #expect(writer.status == .closedByReader)
        #expect(writer.failure == nil)
        writer.write("more\n", maskingWith: SecretRegistry())
        #expect(writer.status == .closedByReader)
    }

    @Test("ENOSPC on /dev/full: output stops, the failure is kept in the system's words")
    func fullDevice() throws {
        let descriptor = open("/dev/full", O_WRONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let writer = ConsoleWriter(fileDescriptor: descriptor, name: "standard output")
        writer.write("PASSED\n", maskingWith: SecretRegistry())
        #expect(writer.status == .failed(errno: ENOSPC))
        #expect(writer.failure == "cannot write to standard output: No space left on device")
    }

    @Test("a text larger than a pipe's buffer arrives whole, also on a non-blocking descriptor", arguments: [false, true])
    func largeText(nonBlocking: Bool) throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        if nonBlocking { _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK) }
        let readEnd = ends[0]
        let received = Received()
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                // Slow reader: the writer fills the pipe and must wait (EAGAIN when non-blocking).
                usleep(100)
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                received.append(buffer[0..<count])
            }
            received.finish()
        }
        reader.start()
        let text = String(repeating: "0123456789abcdef", count: 64 * 1024)  // 1 MiB
        let writer = ConsoleWriter(fileDescriptor: ends[1], name: "test pipe")
        writer.write(text, maskingWith: SecretRegistry())
        close(ends[1])
        let bytes = try #require(received.wait())
        close(readEnd)
        #expect(writer.status == .open)
        #expect(bytes.count == text.utf8.count)
        #expect(bytes == Array(text.utf8))
    }
}

/// Bytes a reader thread collected, handed over once it saw EOF.
private final class Received: @unchecked Sendable {
    // @unchecked: `bytes` is touched by the reader thread until `finish`, by the test after `wait`.
    private var bytes: [UInt8] = []
    private let done = DispatchSemaphore(value: 0)

    func append(_ slice: ArraySlice<UInt8>) { bytes += slice }
    func finish() { done.signal() }

    /// Nil when the reader did not finish within 30 s.
    func wait() -> [UInt8]? {
        done.wait(timeout: .now() + 30) == .success ? bytes : nil
    }
}
