import Courier
import Synchronization
import Foundation
import Testing

/// Progress values as a transfer reports them (from another task), for the test to read after.
final class ProgressLog: Sendable {
    private let values = Mutex<[Double]>([])
    func record(_ value: Double) { values.withLock { $0.append(value) } }
    var all: [Double] { values.withLock { $0 } }

    /// Never decreasing, within 0...1, starting at 0 and ending at 1.
    var isMonotonicFromZeroToOne: Bool {
        let all = all
        guard let first = all.first, let last = all.last else { return false }
        return first == 0 && last == 1 && all.allSatisfy { (0...1).contains($0) }
            && zip(all, all.dropFirst()).allSatisfy { $0 <= $1 }
    }
}

/// Large uploads and downloads streamed from and to disk, with progress.
@Suite("Library: uploads and downloads")
struct LibraryTransferTests {
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-lib-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// `sha256sum FILE`'s digest.
    static func sha256(_ path: String) async throws -> String {
        let result = try await ProcessRunner.run("/usr/bin/env", ["sha256sum", path], timeout: .seconds(60))
        guard result.status == 0, let digest = result.stdout.split(separator: " ").first else {
            throw HarnessError("sha256sum failed: \(result.allOutput)")
        }
        return String(digest)
    }

    @Test("a 50 MiB file and a field, streamed as multipart: the server gets every byte, progress goes 0 → 1")
    func multipartUpload() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("big.bin")
        // 50 MiB of random bytes, not zeros, so a truncated or reordered upload changes the
        // digest; written by `head` in a process of its own, not on the tests' cooperative threads.
        let size = 50 * 1024 * 1024
        let made = try await ProcessRunner.run("/bin/bash", ["-c", "head -c \(size) /dev/urandom > \"$0\"", file.path],
                                               timeout: .seconds(120))
        try #require(made.status == 0, "\(made.allOutput)")
        let digest = try await Self.sha256(file.path)

        var form = MultipartForm()
        form.addField(name: "title", value: "a large file")
        form.addFile(name: "file", path: file.path, contentType: "application/octet-stream")
        let client = libraryClient(try await LibraryServers.shared.baseURL(.http))
        let progress = ProgressLog()
        let response = try await client.upload(UploadForm(form: form)) { progress.record($0) }
        #expect(response.count == 2)
        #expect(response.parts.first?.name == "title")
        #expect(response.parts.first?.value == "a large file")
        let part = try #require(response.parts.last)
        #expect(part.name == "file")
        #expect(part.filename == "big.bin")
        #expect(part.size == size)
        #expect(part.sha256 == digest)
        #expect(progress.isMonotonicFromZeroToOne, "\(progress.all.prefix(5)) … \(progress.all.suffix(5))")
        await client.shutdown()
    }

    @Test("download(_:to:progress:) streams 64 MiB to a file, progress goes 0 → 1")
    func downloadToFile() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("download.bin")
        let size = 64 * 1024 * 1024
        let client = libraryClient(try await LibraryServers.shared.baseURL(.http))
        let progress = ProgressLog()
        let response = try await client.download(GetBytes(count: size), to: destination) { progress.record($0) }
        #expect(response.status == 200)
        let attributes = try FileManager.default.attributesOfItem(atPath: destination.path)
        #expect(attributes[.size] as? Int == size)
        // Byte i is i mod 256: the first and the last MiB (both start at a multiple of 256).
        let mebibyte = 1 << 20
        let pattern = Data((0..<mebibyte).map { UInt8(truncatingIfNeeded: $0) })
        let handle = try FileHandle(forReadingFrom: destination)
        let head = try handle.read(upToCount: mebibyte) ?? Data()
        try handle.seek(toOffset: UInt64(size - mebibyte))
        let tail = try handle.read(upToCount: mebibyte) ?? Data()
        try handle.close()
        #expect(head == pattern)
        #expect(tail == pattern)
        #expect(progress.isMonotonicFromZeroToOne, "\(progress.all.prefix(5)) … \(progress.all.suffix(5))")
        await client.shutdown()
    }

    @Test("a download answered 404 leaves no file and carries the body")
    func downloadNotFound() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("missing.bin")
        let client = libraryClient(try await LibraryServers.shared.baseURL(.http))
        do {
            try await client.download(GetLibUser(id: 0), to: destination)
            Issue.record("a 404 download succeeded")
        } catch {
            #expect(error.kind == .notFound)
            #expect(error.bodyExcerpt()?.contains("no such user") == true)
        }
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        await client.shutdown()
    }
}
