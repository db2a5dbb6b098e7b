import Foundation
import Synchronization

/// The text of one source, with its line starts indexed for the renderer.
package final class SourceFile: Sendable {
    package let path: String
    package let text: String
    /// UTF-8 offsets at which each line starts (line 1 at index 0).
    private let lineStarts: [Int]
    /// For a file read from bytes that were not valid UTF-8: the offset of the first bad byte.
    /// `text` then holds U+FFFD in its place; the bytes before it are the file's own.
    package let firstInvalidByte: Int?

    package init(path: String, text: String, firstInvalidByte: Int? = nil) {
        self.path = path
        // A UTF-8 byte order mark (Windows editors write one) is not part of the text:
        // without it the YAML parser accepts the file and line 1's columns stay right.
        if text.unicodeScalars.first == "\u{FEFF}" {
            var scalars = text.unicodeScalars
            scalars.removeFirst()
            self.text = String(scalars)
        } else {
            self.text = text
        }
        var text = self.text
        self.firstInvalidByte = firstInvalidByte
        self.lineStarts = text.withUTF8(Self.lineStarts)
    }

    /// Where each line starts, found with memchr: walking a large file's bytes one by one
    /// was a twentieth of its load.
    private static func lineStarts(_ bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        var starts = [0]
        guard let base = bytes.baseAddress else { return starts }
        var offset = 0
        while offset < bytes.count, let found = memchr(base + offset, Int32(UInt8(ascii: "\n")), bytes.count - offset) {
            offset = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
            starts.append(offset)
        }
        return starts
    }

    package var lineCount: Int { lineStarts.count }

    /// The text of a 1-based line without its line break, or nil past the end.
    package func line(_ number: Int) -> Substring? {
        guard number >= 1, number <= lineStarts.count else { return nil }
        let utf8 = text.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: lineStarts[number - 1])
        var end = number < lineStarts.count
            ? utf8.index(utf8.startIndex, offsetBy: lineStarts[number] - 1)
            : utf8.endIndex
        // Windows line endings: drop the carriage return too.
        if end > start, utf8[utf8.index(before: end)] == UInt8(ascii: "\r") {
            end = utf8.index(before: end)
        }
        return text[start..<end]
    }
}

/// Source texts by path, shared by the loader (which parses them) and the
/// renderer (which quotes them), so a file is read once.
///
/// In-memory sources (a `--var` value, a query string named `<query>`) are
/// registered up front; files are read lazily on first use.
package final class SourceStore: Sendable {
    private let files = Mutex<[String: SourceFile]>([:])

    package init() {}

    /// Registers text under a name, replacing what was there.
    @discardableResult
    package func register(path: String, text: String) -> SourceFile {
        let file = SourceFile(path: path, text: text)
        files.withLock { $0[path] = file }
        return file
    }

    /// The source at `path`, reading the file on first use (through the bounded reader:
    /// a regular file or a pipe up to ``BoundedFileReader/sourceLimit``; a directory or a
    /// device is a ``FileReadError`` that says what it is).
    package func file(_ path: String) throws(FileReadError) -> SourceFile {
        if let cached = files.withLock({ $0[path] }) { return cached }
        // Read outside the lock: two threads may read the same file once each,
        // which is cheaper than serialising every reader behind one slow disk.
        var data = Data(try BoundedFileReader.read(path, limit: BoundedFileReader.sourceLimit, what: "workflow and other source files",
                                                   deadline: .now + BoundedFileReader.sourcePipeDeadline))
        // Byte offsets (of a first invalid byte) count from after a byte order mark, as the text does.
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data = Data(data.dropFirst(3)) }
        // Validated once: a valid file (nearly all) is its text as it is.
        let file = if let text = String(validating: data, as: UTF8.self) {
            SourceFile(path: path, text: text)
        } else {
            SourceFile(path: path, text: String(decoding: data, as: UTF8.self), firstInvalidByte: Self.firstInvalidByte(in: data))
        }
        return files.withLock { files in
            if let existing = files[path] { return existing }
            files[path] = file
            return file
        }
    }

    /// The offset of the first byte that is not valid UTF-8, or nil when all are.
    private static func firstInvalidByte(in data: Data) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = data.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .error: return offset
            case .emptyInput: return nil
            }
        }
    }

    /// Whether `path` names a registered source or a regular file on disk
    /// (a directory does not count: nothing can be streamed from it).
    package func exists(_ path: String) -> Bool {
        if files.withLock({ $0[path] }) != nil { return true }
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// Nil when `path` names a registered source or a readable regular file or pipe; else why
    /// it cannot be read (missing, a directory, a device, …).
    package func problem(with path: String) -> FileReadError? {
        if files.withLock({ $0[path] }) != nil { return nil }
        return BoundedFileReader.problem(with: path)
    }

    /// The source at `path` if it is registered or readable.
    package func fileIfAvailable(_ path: String) -> SourceFile? {
        try? file(path)
    }
}
