import Foundation

/// A temporary directory for one test's workflow files and reports; removed when released.
final class Workspace {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("courier-it-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `contents` to `relativePath` (parent folders created) and returns its URL.
    @discardableResult
    func write(_ relativePath: String, _ contents: String) throws -> URL {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try contents.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    func path(_ relativePath: String) -> String { url.appendingPathComponent(relativePath).path }

    func exists(_ relativePath: String) -> Bool { FileManager.default.fileExists(atPath: path(relativePath)) }

    func read(_ relativePath: String) throws -> String { try String(contentsOfFile: path(relativePath), encoding: .utf8) }
}
