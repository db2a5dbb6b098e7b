import CourierDiagnostics
import CourierJSON
import CourierResults
import CourierWorkflow
import Foundation
import Synchronization

/// Validates values against JSON Schemas (draft 2020-12 or draft-07) written
/// inline in a workflow or kept in files beside it.
///
/// A schema without templates arrives compiled (the loader read and compiled it, so an
/// invalid one never got this far). Only a templated one is rendered here, then read
/// and compiled once per rendered text and kept in ``SchemaCache``: a step in a loop
/// does not compile its schema again. Relative paths, and `$ref`s to other local files,
/// resolve against the directory of the file that names them.
struct SchemaChecker {
    let renderer: TemplateRenderer

    func check(_ source: SchemaSource, instance: JSONValue, subject: String) -> [ExpectationResult] {
        let schema: JSONSchema
        do {
            schema = try compiled(source)
        } catch {
            return [error]
        }
        let location = source.range
        return schema.validate(instance).map { violation in
            let at = violation.instanceLocation.isEmpty ? "the value" : "'\(violation.instanceLocation)'"
            return ExpectationResult.failure(location: location, subject: subject,
                                    message: "\(subject): \(at) does not match the schema: \(violation.message) (keyword '\(violation.keyword)' at '\(violation.keywordLocation)')",
                                    expected: "valid against the schema", actual: violation.message)
        }
    }

    private func compiled(_ source: SchemaSource) throws(ExpectationResult) -> JSONSchema {
        switch source {
        case .compiled(let schema, _):
            return schema
        case .inline(let value):
            let document: JSONValue
            do { document = try renderer.value(value) } catch {
                throw ExpectationResult.failure(location: error.range, subject: "schema", message: "schema: \(error.message)")
            }
            let key = SchemaCache.Key(baseFile: value.range.file, text: document.serialized())
            return try SchemaCache.shared.schema(for: key) { () throws(ExpectationResult) in
                try Self.compile(document, baseURI: SchemaRetrieval.fileURI(value.range.file), range: value.range)
            }
        case .file(let template):
            let path: String
            do { path = try renderer.string(template) } catch {
                throw ExpectationResult.failure(location: error.range, subject: "schema", message: "schema: \(error.message)")
            }
            let resolved = FilePaths.resolve(path, relativeTo: template.range.file)
            let key = SchemaCache.Key(baseFile: resolved, text: nil)
            return try SchemaCache.shared.schema(for: key) { () throws(ExpectationResult) in
                let document: JSONValue
                switch Self.readJSON(resolved) {
                case .success(let value): document = value
                case .failure(let reason):
                    throw ExpectationResult.failure(location: template.range, subject: "schema", message: "schema: \(reason.description)")
                }
                return try Self.compile(document, baseURI: SchemaRetrieval.fileURI(resolved), range: template.range)
            }
        }
    }

    private static func compile(_ document: JSONValue, baseURI: String, range: SourceRange) throws(ExpectationResult) -> JSONSchema {
        let retrieval = SchemaRetrieval(sources: nil)
        do {
            return try JSONSchema(document, baseURI: baseURI, retrieve: retrieval.retrieve)
        } catch {
            throw ExpectationResult.failure(location: range, subject: "schema",
                                   message: "schema: invalid JSON Schema: \(SchemaRetrieval.readable(error.message))\(retrieval.problemsText)")
        }
    }

    private static func readJSON(_ path: String) -> Result<JSONValue, AssertionFailureReason> {
        // Bounded, and never a pipe: this runs on the transfer thread, where a read could block.
        let data: [UInt8]
        do throws(FileReadError) {
            if case .success(.fifo) = BoundedFileReader.type(of: path) { throw FileReadError(path: path, reason: .notAFile(.fifo)) }
            data = try BoundedFileReader.read(path, limit: BoundedFileReader.sourceLimit, what: "schema files")
        } catch {
            return .failure(AssertionFailureReason("cannot read the schema file '\(path)': \(error.reasonText)"))
        }
        do {
            return .success(try JSONValue.parse(data))
        } catch {
            return .failure(AssertionFailureReason("the schema file '\(path)' is not JSON: \(error.message) at line \(error.line), column \(error.column)"))
        }
    }
}

/// Templated schemas compiled so far, by rendered text (or resolved path), for the
/// whole process: compiling is far dearer than rendering. Bounded, so a template
/// that renders a new schema for every item of a long loop cannot grow it without end.
final class SchemaCache: Sendable {
    struct Key: Hashable {
        /// The workflow file (inline) or the schema file (a path): relative `$ref`s resolve there.
        var baseFile: String
        /// The rendered inline schema; nil for a file.
        var text: String?
    }

    static let shared = SchemaCache()
    static let capacity = 256

    /// Only successes: a failure is reported at the template that rendered it.
    private let entries = Mutex<[Key: JSONSchema]>([:])

    func schema(for key: Key, compile: () throws(ExpectationResult) -> JSONSchema) throws(ExpectationResult) -> JSONSchema {
        if let known = entries.withLock({ $0[key] }) { return known }
        let schema = try compile()
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = schema
        }
        return schema
    }
}

/// A reason as text, usable as a `Result` failure.
struct AssertionFailureReason: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
