@testable import CourierReports
import CourierSecrets
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// One writer for every report: atomic for regular files and new paths (beside a link's
/// target), direct for FIFOs and devices, standard output for `-`.
@Suite struct ReportWriterTests {
    let directory: String

    init() throws {
        // As `courier` does at start-up: a FIFO whose reader left is EPIPE, not death by SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-rw-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    private func path(_ name: String) -> String { directory + "/" + name }
    private func read(_ name: String) -> String? { try? String(contentsOfFile: path(name), encoding: .utf8) }
    private func entries() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted() }

    @Test("a new path: missing folders are created, no temporary file is left")
    func newPath() throws {
        try ReportWriter.write("<report/>", to: path("a/b/junit.xml"), maskingWith: SecretRegistry())
        #expect(read("a/b/junit.xml") == "<report/>")
        #expect(try FileManager.default.contentsOfDirectory(atPath: path("a/b")) == ["junit.xml"])
    }

    @Test("an existing file is replaced whole and keeps its permissions")
    func existingFile() throws {
        _ = FileManager.default.createFile(atPath: path("junit.xml"), contents: Data("old and longer".utf8))
        try #require(chmod(path("junit.xml"), 0o600) == 0)
        try ReportWriter.write("new", to: path("junit.xml"), maskingWith: SecretRegistry())
        #expect(read("junit.xml") == "new")
        let mode = try FileManager.default.attributesOfItem(atPath: path("junit.xml"))[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(entries() == ["junit.xml"])
    }

    @Test("a symbolic link stays a link; its target gets the report", arguments: [true, false])
    func symbolicLink(targetExists: Bool) throws {
        try FileManager.default.createDirectory(atPath: path("reports"), withIntermediateDirectories: true)
        if targetExists { _ = FileManager.default.createFile(atPath: path("reports/target.xml"), contents: Data("old".utf8)) }
        try FileManager.default.createSymbolicLink(atPath: path("link.xml"), withDestinationPath: "reports/target.xml")
        try ReportWriter.write("<report/>", to: path("link.xml"), maskingWith: SecretRegistry())
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path("link.xml")) == "reports/target.xml")
        #expect(read("reports/target.xml") == "<report/>")
        #expect(try FileManager.default.contentsOfDirectory(atPath: path("reports")) == ["target.xml"])
    }

    @Test("a character device is written directly and stays a device")
    func characterDevice() throws {
        #expect(try ReportWriter.destination(for: "/dev/null") == .direct(path: "/dev/null"))
        try ReportWriter.write("<report/>", to: "/dev/null", maskingWith: SecretRegistry())
        let type = try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType
        #expect(type == .typeCharacterSpecial)
    }

    @Test("a FIFO is written directly: its reader gets the report")
    func fifo() throws {
        let fifo = path("report.fifo")
        try #require(mkfifo(fifo, 0o644) == 0)
        let box = TextBox()
        Thread {
            // Plain read(2) to EOF: Foundation's readers stop at the size fstat reports (0 for a FIFO).
            let descriptor = open(fifo, O_RDONLY)
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while descriptor >= 0 {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                bytes += buffer[0..<count]
            }
            if descriptor >= 0 { close(descriptor) }
            box.text = String(decoding: bytes, as: UTF8.self)
            box.done.signal()
        }.start()
        try ReportWriter.write("<report/>", to: fifo, maskingWith: SecretRegistry())
        try #require(box.done.wait(timeout: .now() + 10) == .success)
        #expect(box.text == "<report/>")
        let type = try FileManager.default.attributesOfItem(atPath: fifo)[.type] as? FileAttributeType
        #expect(type != .typeRegular)
    }

    @Test("'-' is standard output")
    func dash() throws {
        #expect(try ReportWriter.destination(for: "-") == .descriptor(STDOUT_FILENO))
    }

    @Test("what cannot be written fails with the path and the system's reason")
    func failures() throws {
        _ = FileManager.default.createFile(atPath: path("plain"), contents: Data())
        #expect(throws: ReportWriter.Failure(path: path("plain/junit.xml"), reason: "Not a directory")) {
            try ReportWriter.write("x", to: path("plain/junit.xml"), maskingWith: SecretRegistry())
        }
        #expect(throws: ReportWriter.Failure(path: directory, reason: "is a directory")) {
            try ReportWriter.write("x", to: directory, maskingWith: SecretRegistry())
        }
        #expect(throws: ReportWriter.Failure(path: "", reason: "no file name given")) {
            try ReportWriter.write("x", to: "", maskingWith: SecretRegistry())
        }
        #expect(ReportWriter.Failure(path: "r.xml", reason: "Permission denied").description == "cannot write 'r.xml': Permission denied")
    }
}

private final class TextBox: @unchecked Sendable {
    // @unchecked: `text` is set by the reader thread before `done` is signalled, read after.
    var text = ""
    let done = DispatchSemaphore(value: 0)
}
