import CourierDiagnostics
import CourierJSON
import Foundation
import Synchronization

extension WorkflowDecoder {
    /// `schema:` under `expect` or as a predicate: a path (string) or an inline schema
    /// (mapping or boolean).
    ///
    /// Without templates the schema is read and compiled now, `$ref`s to local files
    /// included, so an invalid one stops the run before anything is sent. A templated one
    /// is kept for the engine, which renders it and compiles the result.
    func schemaSource(_ node: YAMLNode) -> SchemaSource? {
        switch node.kind {
        case .mapping:
            return inlineSchema(templateValue(node))
        case .scalar(let scalar):
            switch scalar.value {
            case .string:
                guard let path = template(node, for: "schema") else { return nil }
                return fileSchema(checkFile(path, for: "schema"))
            case .bool:
                return inlineSchema(templateValue(node))
            default: break
            }
        case .sequence: break
        }
        error("expected a schema file path or an inline schema mapping for 'schema', found \(node.kindDescription)", at: node.range)
        return nil
    }

    private func inlineSchema(_ value: TemplateValue) -> SchemaSource? {
        guard let document = value.literalJSON else { return .inline(value) }
        let retrieval = SchemaRetrieval(sources: loading?.sources)
        do {
            let schema = try JSONSchema(document, baseURI: SchemaRetrieval.fileURI(value.range.file), retrieve: retrieval.retrieve)
            return .compiled(schema, range: value.range)
        } catch {
            // Point at the keyword inside the mapping when the compiler says where it is.
            let at = SchemaRetrieval.pointer(in: error.message).flatMap { value.range(at: $0) } ?? value.range
            self.error("invalid JSON Schema: \(SchemaRetrieval.readable(error.message))\(retrieval.problemsText)", at: at)
            return nil
        }
    }

    private func fileSchema(_ path: Template) -> SchemaSource? {
        // A templated path, or one checked only at run time (decoded without files).
        guard let loading, let text = path.literalText, !text.isEmpty else { return .file(path) }
        let resolved = FilePaths.resolve(text, against: directory)
        // `checkFile` has reported a missing or unusable file already.
        guard loading.sources.problem(with: resolved) == nil else { return nil }
        let file: SourceFile
        do {
            file = try loading.sources.file(resolved)
        } catch {
            self.error("cannot read the schema file '\(text)': \(error.reasonText)", at: path.range)
            return nil
        }
        let document: JSONValue
        do {
            document = try JSONValue.parse(Array(file.text.utf8))
        } catch {
            // The parser knows the line and column inside the schema file: point there,
            // with a note at the `schema:` that names it.
            let location = SourceLocation(file: resolved, line: error.line, column: error.column)
            self.error("the schema file '\(text)' is not JSON: \(error.message)", at: SourceRange(at: location),
                       notes: [.note("the schema file is named here", at: path.range)])
            return nil
        }
        let retrieval = SchemaRetrieval(sources: loading.sources)
        do {
            let schema = try JSONSchema(document, baseURI: SchemaRetrieval.fileURI(resolved), retrieve: retrieval.retrieve)
            return .compiled(schema, range: path.range)
        } catch {
            self.error("'\(text)' is not a valid JSON Schema: \(SchemaRetrieval.readable(error.message))\(retrieval.problemsText)",
                       at: path.range)
            return nil
        }
    }
}

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
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
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

extension TemplateValue {
    /// The value as JSON when no string in it holds a template.
    package var literalJSON: JSONValue? {
        switch kind {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let text, _): return JSONNumber(text: text).map(JSONValue.number)
        case .string(let template): return template.literalText.map(JSONValue.string)
        case .array(let items):
            var result: [JSONValue] = []
            result.reserveCapacity(items.count)
            for item in items {
                guard let value = item.literalJSON else { return nil }
                result.append(value)
            }
            return .array(result)
        case .object(let pairs):
            var result: [(key: String, value: JSONValue)] = []
            result.reserveCapacity(pairs.count)
            for pair in pairs {
                guard let value = pair.value.literalJSON else { return nil }
                result.append((pair.key, value))
            }
            return .object(JSONObject(result))
        }
    }

    /// The range of the value a JSON Pointer's tokens lead to, if it is there.
    func range(at tokens: [String]) -> SourceRange? {
        var value = self
        for token in tokens {
            switch value.kind {
            case .object(let pairs):
                guard let member = pairs.first(where: { $0.key == token }) else { return nil }
                value = member.value
            case .array(let items):
                guard let index = Int(token), items.indices.contains(index) else { return nil }
                value = items[index]
            default:
                return nil
            }
        }
        return value.range
    }
}
