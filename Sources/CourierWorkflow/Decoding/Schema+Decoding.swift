import CourierDiagnostics
import CourierJSON

extension WorkflowDecoder {
    /// `schema:` under `expect` or as a predicate: a path (string) or an inline schema
    /// (mapping or boolean).
    ///
    /// Without templates the schema is read and compiled now, `$ref`s to local files
    /// included, so an invalid one stops the run before anything is sent. A templated one
    /// is kept for the engine, which renders it and compiles the result.
    func schemaSource(_ node: YAMLNode) -> SchemaSource? {
        guard remembersNodes else { return decodeSchemaSource(node) }
        if let known = schemas[node.identity] { return known.source }
        let source = decodeSchemaSource(node)
        schemas[node.identity] = (node, source)
        return source
    }

    private func decodeSchemaSource(_ node: YAMLNode) -> SchemaSource? {
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
