import CourierDiagnostics
import CourierJSON
import CourierWorkflow
import Foundation

/// Validates values against JSON Schemas (draft 2020-12 or draft-07) written
/// inline in a workflow or kept in files beside it.
///
/// Relative paths, and `$ref`s to other local files, resolve against the
/// directory of the file that names them (an included file's own folder).
struct SchemaChecker {
    let renderer: TemplateRenderer

    func check(_ source: SchemaSource, instance: JSONValue, subject: String) -> [AssertionFailure] {
        let schema: JSONSchema
        let location: SourceRange
        do {
            (schema, location) = try load(source)
        } catch {
            return [error]
        }
        return schema.validate(instance).map { violation in
            let at = violation.instanceLocation.isEmpty ? "the value" : "'\(violation.instanceLocation)'"
            return AssertionFailure(location: location, subject: subject,
                                    message: "\(subject): \(at) does not match the schema: \(violation.message) (keyword '\(violation.keyword)' at '\(violation.keywordLocation)')",
                                    expected: "valid against the schema", actual: violation.message)
        }
    }

    private func load(_ source: SchemaSource) throws(AssertionFailure) -> (JSONSchema, SourceRange) {
        let document: JSONValue
        let baseURI: String
        let range: SourceRange
        switch source {
        case .inline(let value):
            range = value.range
            do { document = try renderer.value(value) } catch {
                throw AssertionFailure(location: error.range, subject: "schema", message: "schema: \(error.message)")
            }
            baseURI = Self.fileURI(value.range.file)
        case .file(let template):
            range = template.range
            let path: String
            do { path = try renderer.string(template) } catch {
                throw AssertionFailure(location: error.range, subject: "schema", message: "schema: \(error.message)")
            }
            let resolved = Self.resolve(path, relativeTo: template.range.file)
            switch Self.readJSON(resolved) {
            case .success(let value): document = value
            case .failure(let reason):
                throw AssertionFailure(location: range, subject: "schema", message: "schema: \(reason.description)")
            }
            baseURI = Self.fileURI(resolved)
        }
        do {
            let schema = try JSONSchema(document, baseURI: baseURI, retrieve: { uri in
                guard uri.hasPrefix("file://") else { return nil }
                return try? Self.readJSON(String(uri.dropFirst("file://".count)).removingPercentEncoding ?? "").get()
            })
            return (schema, range)
        } catch {
            throw AssertionFailure(location: range, subject: "schema", message: "schema: invalid JSON Schema: \(error.message)")
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

    static func resolve(_ path: String, relativeTo file: String) -> String {
        if path.hasPrefix("/") { return path }
        let directory = (file as NSString).deletingLastPathComponent
        return directory.isEmpty ? path : directory + "/" + path
    }

    /// An absolute `file://` URI, so `$ref: other.json` resolves beside the file.
    static func fileURI(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let encoded = absolute.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? absolute
        return "file://" + encoded
    }
}

/// A reason as text, usable as a `Result` failure.
struct AssertionFailureReason: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
