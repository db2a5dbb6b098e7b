import CourierDiagnostics
import CourierJSON
import Foundation
import Synchronization

/// Reads the documents a schema's `$ref`s name while it compiles: local files only,
/// through the same bounded source store as workflows. Why a file could not be used
/// is kept, so the "cannot resolve '$ref'" error can say it.
package final class SchemaRetrieval: Sendable {
    private let sources: SourceStore?
    private let problems = Mutex<[String]>([])

    package init(sources: SourceStore?) {
        self.sources = sources
    }

    /// For ``JSONSchema/init(_:baseURI:defaultDraft:retrieve:)``: a `file://` URI's document, or nil.
    package var retrieve: @Sendable (String) -> JSONValue? {
        { [self] uri in document(at: uri) }
    }

    private func document(at uri: String) -> JSONValue? {
        guard uri.hasPrefix("file://") else { return nil }
        let encoded = String(uri.dropFirst("file://".count))
        let absolute = encoded.removingPercentEncoding ?? encoded
        let path = Self.relativeToWorkingDirectory(absolute)
        let text: String
        do {
            if let sources {
                text = try sources.file(path).text
            } else {
                text = String(decoding: try BoundedFileReader.read(path, limit: BoundedFileReader.sourceLimit, what: "schema files"), as: UTF8.self)
            }
        } catch {
            problems.withLock { $0.append("cannot read '\(path)': \(error.reasonText)") }
            return nil
        }
        do {
            return try JSONValue.parse(Array(text.utf8))
        } catch {
            problems.withLock { $0.append("'\(path)' is not JSON: \(error.message) at line \(error.line), column \(error.column)") }
            return nil
        }
    }

    /// Why referenced files could not be used, as a suffix for an error message.
    package var problemsText: String {
        let list = problems.withLock { $0 }
        return list.isEmpty ? "" : " (" + list.joined(separator: "; ") + ")"
    }

    /// An absolute `file://` URI for a path, so `$ref: other.json` resolves beside the file.
    package static func fileURI(_ path: String) -> String {
        let absolute = FilePaths.resolve(path, against: FileManager.default.currentDirectoryPath)
        let encoded = absolute.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? absolute
        return "file://" + encoded
    }

    /// A compiler message with the `file://` URIs of files under the working directory
    /// shown as the relative paths they were named with.
    package static func readable(_ message: String) -> String {
        message.replacingOccurrences(of: fileURI(FileManager.default.currentDirectoryPath) + "/", with: "")
    }

    /// Paths under the working directory go back to the relative form they were named
    /// with, so a file registered in the source store under that name is found there.
    private static func relativeToWorkingDirectory(_ absolute: String) -> String {
        let prefix = FileManager.default.currentDirectoryPath + "/"
        return absolute.hasPrefix(prefix) ? FilePaths.normalize(String(absolute.dropFirst(prefix.count))) : absolute
    }

    /// The JSON Pointer of a compile error's trailing `(at '/properties/x/type')`.
    static func pointer(in message: String) -> [String]? {
        guard message.hasSuffix("')"), let start = message.range(of: "(at '", options: .backwards) else { return nil }
        let pointer = message[start.upperBound..<message.index(message.endIndex, offsetBy: -2)]
        guard pointer.hasPrefix("/") else { return nil }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }
}
