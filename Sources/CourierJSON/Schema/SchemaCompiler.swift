/// Turns schema documents into a ``SchemaProgram``: walks every subschema under the keywords
/// that hold subschemas, registers `$id`s and anchors, compiles keyword values (regular
/// expressions included) and finally resolves every `$ref`, retrieving other documents on the
/// way. Identifiers inside non-schema keywords (`enum`, `const`, unknown keywords) are not
/// registered, as the specification requires.
///
/// A class: it lives only while ``JSONSchema/init(_:baseURI:defaultDraft:retrieve:)`` runs,
/// and the keyword builders of nested subschemas all add to the same program.
final class SchemaCompiler {
    /// Which keywords a resource understands: its draft, and for 2020-12 the vocabularies its
    /// metaschema enables.
    struct Dialect {
        var draft: JSONSchema.Draft
        var applicator = true
        var validation = true
        var unevaluated = true
    }

    private let retrieve: @Sendable (String) -> JSONValue?
    private let defaultDialect: Dialect
    fileprivate(set) var program = SchemaProgram()

    /// `"uri#/pointer"` (one per enclosing resource) and `"uri#anchor"` to node.
    private var locations: [String: Int] = [:]
    /// Resource URIs to their raw root value, resource index and dialect, for pointers into
    /// places the walk did not compile (e.g. `#/$defs/a/enum/0` or unknown keywords).
    private var rawResources: [String: (value: JSONValue, resource: Int, dialect: Dialect)] = [:]
    private var retrieved: Set<String> = []
    private var pendingRefs: [PendingRef] = []

    private struct PendingRef {
        var node: Int
        var keyword: Int
        var target: SchemaURI
        var written: String
        var location: String
        var dynamic: Bool
    }

    /// Where the walk is: base URI, resource, dialect, and the pointer of the current
    /// subschema from the root of every enclosing resource.
    private struct Context {
        var base: String
        var resource: Int?
        var dialect: Dialect
        var scopes: [(uri: String, pointer: String)]
        /// The pointer from the document root, for error messages.
        var path: String

        func appending(_ tokens: String...) -> Context {
            var copy = self
            let suffix = tokens.map { "/" + JSONPointer.escape($0) }.joined()
            copy.scopes = scopes.map { ($0.uri, $0.pointer + suffix) }
            copy.path += suffix
            return copy
        }
    }

    init(defaultDraft: JSONSchema.Draft, retrieve: @escaping @Sendable (String) -> JSONValue?) {
        self.retrieve = retrieve
        self.defaultDialect = Dialect(draft: defaultDraft)
    }

    // MARK: - Documents

    /// Compiles a whole document retrieved from (or given with) `uri`; returns its root node.
    func compileDocument(_ document: JSONValue, uri: String, dialect inherited: Dialect? = nil) throws(JSONSchemaError) -> Int {
        let base = SchemaURI(uri).withoutFragment
        var dialect = inherited ?? defaultDialect
        if let declared = document["$schema"] {
            guard let text = declared.stringValue else { throw JSONSchemaError("'$schema' must be a string (at '')") }
            dialect = try self.dialect(for: text)
        }
        let context = Context(base: base, resource: nil, dialect: dialect, scopes: [(base, "")], path: "")
        return try compile(document, context)
    }

    /// The draft and vocabularies `$schema` selects.
    private func dialect(for metaschema: String, depth: Int = 0) throws(JSONSchemaError) -> Dialect {
        var key = metaschema
        if key.hasSuffix("#") { key.removeLast() }
        if key.hasPrefix("http://") { key.removeFirst("http://".count) }
        if key.hasPrefix("https://") { key.removeFirst("https://".count) }
        switch key {
        case "json-schema.org/draft/2020-12/schema": return Dialect(draft: .draft2020_12)
        case "json-schema.org/draft-07/schema": return Dialect(draft: .draft7)
        default: break
        }
        let uri = SchemaURI(metaschema).withoutFragment
        guard depth < 8, let document = retrieve(uri), case .object(let object) = document else {
            throw JSONSchemaError(
                "unsupported '$schema' '\(metaschema)': use 'https://json-schema.org/draft/2020-12/schema' or 'http://json-schema.org/draft-07/schema#'"
            )
        }
        var dialect = Dialect(draft: .draft2020_12)
        if let parent = object["$schema"]?.stringValue, parent != metaschema {
            dialect = try self.dialect(for: parent, depth: depth + 1)
        }
        guard let vocabularies = object["$vocabulary"]?.objectValue, dialect.draft == .draft2020_12 else {
            return dialect
        }
        dialect.applicator = false
        dialect.validation = false
        dialect.unevaluated = false
        for (vocabulary, required) in vocabularies {
            switch vocabulary {
            case "https://json-schema.org/draft/2020-12/vocab/applicator": dialect.applicator = true
            case "https://json-schema.org/draft/2020-12/vocab/validation": dialect.validation = true
            case "https://json-schema.org/draft/2020-12/vocab/unevaluated": dialect.unevaluated = true
            case "https://json-schema.org/draft/2020-12/vocab/core",
                "https://json-schema.org/draft/2020-12/vocab/meta-data",
                "https://json-schema.org/draft/2020-12/vocab/format-annotation",
                "https://json-schema.org/draft/2020-12/vocab/format-assertion",
                "https://json-schema.org/draft/2020-12/vocab/content":
                break
            default:
                if required.boolValue == true {
                    throw JSONSchemaError("metaschema '\(metaschema)' requires the unsupported vocabulary '\(vocabulary)'")
                }
            }
        }
        return dialect
    }

    // MARK: - References

    /// Resolves every `$ref` and `$dynamicRef`, retrieving and compiling the documents they
    /// name, until none is left.
    func resolveReferences() throws(JSONSchemaError) {
        while let pending = pendingRefs.popLast() {
            let target = try node(for: pending.target, written: pending.written, location: pending.location)
            guard case .keywords(var keywords) = program.nodes[pending.node].body else { continue }
            if pending.dynamic {
                var anchor: String?
                let name = pending.target.fragment ?? ""
                if !name.isEmpty, !name.hasPrefix("/"),
                    program.resources[program.nodes[target].resource].dynamicAnchors[name] == target
                {
                    anchor = name
                }
                keywords[pending.keyword].check = .dynamicRef(target, anchor: anchor)
            } else {
                keywords[pending.keyword].check = .ref(target)
            }
            program.nodes[pending.node].body = .keywords(keywords)
        }
    }

    private func node(for uri: SchemaURI, written: String, location: String) throws(JSONSchemaError) -> Int {
        let base = uri.withoutFragment
        let fragment = uri.fragment ?? ""
        let key = base + "#" + (JSONPointer.percentDecoded(fragment) ?? fragment)
        if let found = locations[key] { return found }
        if rawResources[base] == nil, !retrieved.contains(base) {
            retrieved.insert(base)
            if let document = retrieve(base) {
                _ = try compileDocument(document, uri: base, dialect: Dialect(draft: defaultDialect.draft))
                try resolveReferences()
                if let found = locations[key] { return found }
            }
        }
        // A pointer to a place the walk did not compile: compile it now.
        if let tokens = JSONPointer.tokens(fromFragment: fragment), let raw = rawResources[base] {
            var value = raw.value
            for token in tokens {
                switch value {
                case .object(let object) where object[token] != nil:
                    value = object[token]!
                case .array(let array) where Int(token).map(array.indices.contains) == true:
                    value = array[Int(token)!]
                default:
                    throw JSONSchemaError("cannot resolve '$ref' '\(written)': '\(base)' has nothing at '\(fragment)' (at '\(location)')")
                }
            }
            let context = Context(base: base, resource: raw.resource, dialect: raw.dialect,
                                  scopes: [(base, JSONPointer.percentDecoded(fragment) ?? fragment)], path: location)
            return try compile(value, context)
        }
        throw JSONSchemaError("cannot resolve '$ref' '\(written)' (at '\(location)')")
    }

    // MARK: - Subschemas

    private func compile(_ value: JSONValue, _ outer: Context) throws(JSONSchemaError) -> Int {
        var context = outer
        let object: JSONObject
        switch value {
        case .bool(let flag):
            let index = try reserveNode(&context, raw: value)
            program.nodes[index].body = .always(flag)
            return index
        case .object(let o):
            object = o
        default:
            throw JSONSchemaError("a schema must be an object or a boolean, found \(value.typeName) (at '\(outer.path)')")
        }
        let draft7 = context.dialect.draft == .draft7
        // Draft 7 ignores every keyword next to `$ref`, `$id` included.
        let refOnly = draft7 && object["$ref"] != nil
        var anchors: [String] = []
        if !refOnly, let idValue = object["$id"] {
            guard let id = idValue.stringValue else { throw JSONSchemaError("'$id' must be a string (at '\(context.path)')") }
            if draft7 && id.hasPrefix("#") {
                anchors.append(String(id.dropFirst()))
            } else {
                let resolved = SchemaURI(context.base).resolving(id)
                if let fragment = resolved.fragment, !fragment.isEmpty {
                    guard draft7 else {
                        throw JSONSchemaError("'$id' '\(id)' must not have a fragment; use '$anchor' (at '\(context.path)')")
                    }
                    anchors.append(fragment)
                }
                let uri = resolved.withoutFragment
                if let declared = object["$schema"]?.stringValue, !context.path.isEmpty {
                    context.dialect = try dialect(for: declared)
                }
                context.base = uri
                context.resource = nil
                context.scopes.append((uri, ""))
            }
        }
        let index = try reserveNode(&context, raw: value)
        let resource = program.nodes[index].resource
        if !refOnly && !draft7 {
            for keyword in ["$anchor", "$dynamicAnchor"] {
                guard let name = object[keyword] else { continue }
                guard let text = name.stringValue, Self.isAnchorName(text) else {
                    throw JSONSchemaError("'\(keyword)' must be a plain name, found \(name) (at '\(context.path)')")
                }
                anchors.append(text)
                if keyword == "$dynamicAnchor" { program.resources[resource].dynamicAnchors[text] = index }
            }
        }
        for anchor in anchors {
            let key = context.base + "#" + anchor
            if locations[key] == nil { locations[key] = index }
        }

        var builder = KeywordBuilder(object: object, context: context, compiler: self, node: index)
        if refOnly {
            try builder.reference("$ref", dynamic: false)
        } else {
            try builder.build()
        }
        program.nodes[index].body = .keywords(builder.keywords)
        return index
    }

    /// Appends a placeholder node for the subschema at `context`, creating its resource when
    /// it starts one, and registers its locations.
    private func reserveNode(_ context: inout Context, raw: JSONValue) throws(JSONSchemaError) -> Int {
        if context.resource == nil {
            let uri = context.base
            program.resources.append(SchemaResource(uri: uri))
            let resource = program.resources.count - 1
            context.resource = resource
            if context.scopes.isEmpty { context.scopes = [(uri, "")] }
            for scope in context.scopes where scope.pointer.isEmpty && rawResources[scope.uri] == nil {
                rawResources[scope.uri] = (raw, resource, context.dialect)
            }
        }
        program.nodes.append(SchemaNode(body: .always(true), resource: context.resource!))
        let index = program.nodes.count - 1
        for scope in context.scopes {
            let key = scope.uri + "#" + scope.pointer
            if locations[key] == nil { locations[key] = index }
        }
        return index
    }

    /// `[A-Za-z_][-A-Za-z0-9._]*`, the 2020-12 anchor grammar.
    private static func isAnchorName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII,
            first.properties.isAlphabetic || first == "_"
        else { return false }
        return text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-._".unicodeScalars.contains($0))
        }
    }

    // MARK: - Keywords

    /// Compiles the keywords of one object schema.
    private struct KeywordBuilder {
        let object: JSONObject
        let context: Context
        let compiler: SchemaCompiler
        let node: Int
        var keywords: [SchemaKeyword] = []
        private var last: [SchemaKeyword] = []

        init(object: JSONObject, context: Context, compiler: SchemaCompiler, node: Int) {
            self.object = object
            self.context = context
            self.compiler = compiler
            self.node = node
        }

        private var draft7: Bool { context.dialect.draft == .draft7 }

        mutating func build() throws(JSONSchemaError) {
            // Definitions are compiled so their identifiers are known, not evaluated.
            for container in [draft7 ? "definitions" : "$defs"] {
                guard let defs = object[container] else { continue }
                guard let members = defs.objectValue else { throw invalid(container, "must be an object") }
                for (name, schema) in members { _ = try subschema(schema, container, name) }
            }
            try reference("$ref", dynamic: false)
            if !draft7 { try reference("$dynamicRef", dynamic: true) }
            if context.dialect.validation { try validation() }
            if context.dialect.applicator { try applicators() }
            if context.dialect.unevaluated && !draft7 {
                if let schema = object["unevaluatedProperties"] {
                    last.append(.init(name: "unevaluatedProperties", check: .unevaluatedProperties(try subschema(schema, "unevaluatedProperties"))))
                }
                if let schema = object["unevaluatedItems"] {
                    last.append(.init(name: "unevaluatedItems", check: .unevaluatedItems(try subschema(schema, "unevaluatedItems"))))
                }
                if !last.isEmpty { compiler.program.needsAnnotations = true }
            }
            keywords += last
        }

        mutating func reference(_ name: String, dynamic: Bool) throws(JSONSchemaError) {
            guard let value = object[name] else { return }
            guard let written = value.stringValue else { throw invalid(name, "must be a string") }
            let target = SchemaURI(context.base).resolving(written)
            compiler.pendingRefs.append(PendingRef(node: node, keyword: keywords.count, target: target,
                                                   written: written, location: context.path + "/" + name, dynamic: dynamic))
            keywords.append(.init(name: name, check: dynamic ? .dynamicRef(-1, anchor: nil) : .ref(-1)))
        }

        // MARK: Validation vocabulary

        private mutating func validation() throws(JSONSchemaError) {
            if let value = object["type"] {
                let names: [JSONValue] = value.arrayValue ?? [value]
                var types: [SchemaType] = []
                for name in names {
                    guard let text = name.stringValue, let type = SchemaType(rawValue: text) else {
                        throw invalid("type", "has an unknown type \(name)")
                    }
                    types.append(type)
                }
                add("type", .type(types))
            }
            if let value = object["enum"] {
                guard let values = value.arrayValue else { throw invalid("enum", "must be an array") }
                add("enum", .enumeration(values))
            }
            if let value = object["const"] { add("const", .const(value)) }
            if let divisor = try number("multipleOf") {
                guard ExactDecimal(divisor.text).negative == false, !ExactDecimal(divisor.text).digits.isEmpty else {
                    throw invalid("multipleOf", "must be greater than 0")
                }
                add("multipleOf", .multipleOf(divisor))
            }
            if let limit = try number("maximum") { add("maximum", .maximum(limit)) }
            if let limit = try number("exclusiveMaximum") { add("exclusiveMaximum", .exclusiveMaximum(limit)) }
            if let limit = try number("minimum") { add("minimum", .minimum(limit)) }
            if let limit = try number("exclusiveMinimum") { add("exclusiveMinimum", .exclusiveMinimum(limit)) }
            if let limit = try count("maxLength") { add("maxLength", .maxLength(limit)) }
            if let limit = try count("minLength") { add("minLength", .minLength(limit)) }
            if let value = object["pattern"] {
                guard let text = value.stringValue else { throw invalid("pattern", "must be a string") }
                add("pattern", .pattern(try regex(text, "pattern")))
            }
            if let limit = try count("maxItems") { add("maxItems", .maxItems(limit)) }
            if let limit = try count("minItems") { add("minItems", .minItems(limit)) }
            if let value = object["uniqueItems"] {
                guard let flag = value.boolValue else { throw invalid("uniqueItems", "must be a boolean") }
                if flag { add("uniqueItems", .uniqueItems) }
            }
            if let limit = try count("maxProperties") { add("maxProperties", .maxProperties(limit)) }
            if let limit = try count("minProperties") { add("minProperties", .minProperties(limit)) }
            if let value = object["required"] {
                add("required", .required(try strings(value, "required")))
            }
            if !draft7, let value = object["dependentRequired"] {
                guard let members = value.objectValue else { throw invalid("dependentRequired", "must be an object") }
                var pairs: [(property: String, required: [String])] = []
                for (property, names) in members {
                    pairs.append((property, try strings(names, "dependentRequired")))
                }
                add("dependentRequired", .dependentRequired(pairs))
            }
        }

        // MARK: Applicator vocabulary

        private mutating func applicators() throws(JSONSchemaError) {
            var prefixCount = 0
            if draft7 {
                if let value = object["items"] {
                    if let schemas = value.arrayValue {
                        var children: [Int] = []
                        for (i, schema) in schemas.enumerated() { children.append(try subschema(schema, "items", String(i))) }
                        add("items", .prefixItems(children))
                        if let additional = object["additionalItems"] {
                            add("additionalItems", .items(try subschema(additional, "additionalItems"), from: children.count))
                        }
                    } else {
                        add("items", .items(try subschema(value, "items"), from: 0))
                    }
                }
            } else {
                if let value = object["prefixItems"] {
                    guard let schemas = value.arrayValue else { throw invalid("prefixItems", "must be an array") }
                    var children: [Int] = []
                    for (i, schema) in schemas.enumerated() { children.append(try subschema(schema, "prefixItems", String(i))) }
                    prefixCount = children.count
                    add("prefixItems", .prefixItems(children))
                }
                if let value = object["items"] {
                    add("items", .items(try subschema(value, "items"), from: prefixCount))
                }
            }
            if let value = object["contains"] {
                let child = try subschema(value, "contains")
                var minimum = 1
                var maximum: Int?
                if !draft7 && context.dialect.validation {
                    minimum = try count("minContains") ?? 1
                    maximum = try count("maxContains")
                }
                add("contains", .contains(child, min: minimum, max: maximum))
            }
            var propertyNames: [(name: String, schema: Int)] = []
            if let value = object["properties"] {
                guard let members = value.objectValue else { throw invalid("properties", "must be an object") }
                for (name, schema) in members { propertyNames.append((name, try subschema(schema, "properties", name))) }
                add("properties", .properties(propertyNames))
            }
            var patterns: [(regex: ECMARegex, schema: Int)] = []
            if let value = object["patternProperties"] {
                guard let members = value.objectValue else { throw invalid("patternProperties", "must be an object") }
                for (pattern, schema) in members {
                    patterns.append((try regex(pattern, "patternProperties"), try subschema(schema, "patternProperties", pattern)))
                }
                add("patternProperties", .patternProperties(patterns))
            }
            if let value = object["additionalProperties"] {
                add("additionalProperties", .additionalProperties(
                    try subschema(value, "additionalProperties"),
                    known: Set(propertyNames.map { ExactKey($0.name) }), patterns: patterns.map(\.regex)))
            }
            if let value = object["propertyNames"] { add("propertyNames", .propertyNames(try subschema(value, "propertyNames"))) }
            if !draft7, let value = object["dependentSchemas"] {
                guard let members = value.objectValue else { throw invalid("dependentSchemas", "must be an object") }
                var pairs: [(property: String, schema: Int)] = []
                for (property, schema) in members { pairs.append((property, try subschema(schema, "dependentSchemas", property))) }
                add("dependentSchemas", .dependentSchemas(pairs))
            }
            // Draft 7's `dependencies`; 2020-12 split it in two but schemas written for both
            // drafts still use it, so it is understood there too.
            if let value = object["dependencies"] {
                guard let members = value.objectValue else { throw invalid("dependencies", "must be an object") }
                var names: [(property: String, required: [String])] = []
                var schemas: [(property: String, schema: Int)] = []
                for (property, dependency) in members {
                    if case .array = dependency {
                        names.append((property, try strings(dependency, "dependencies")))
                    } else {
                        schemas.append((property, try subschema(dependency, "dependencies", property)))
                    }
                }
                if !names.isEmpty { add("dependencies", .dependentRequired(names)) }
                if !schemas.isEmpty { add("dependencies", .dependentSchemas(schemas)) }
            }
            for name in ["allOf", "anyOf", "oneOf"] {
                guard let value = object[name] else { continue }
                guard let schemas = value.arrayValue, !schemas.isEmpty else { throw invalid(name, "must be a non-empty array") }
                var children: [Int] = []
                for (i, schema) in schemas.enumerated() { children.append(try subschema(schema, name, String(i))) }
                add(name, name == "allOf" ? .allOf(children) : name == "anyOf" ? .anyOf(children) : .oneOf(children))
            }
            if let value = object["not"] { add("not", .not(try subschema(value, "not"))) }
            if let condition = object["if"] {
                let ifNode = try subschema(condition, "if")
                let thenNode = try object["then"].map { value throws(JSONSchemaError) in try subschema(value, "then") }
                let elseNode = try object["else"].map { value throws(JSONSchemaError) in try subschema(value, "else") }
                add("if", .conditional(if: ifNode, then: thenNode, else: elseNode))
            } else {
                // Without `if`, `then` and `else` do nothing, but their identifiers still count.
                for name in ["then", "else"] { if let value = object[name] { _ = try subschema(value, name) } }
            }
        }

        // MARK: Helpers

        private mutating func add(_ name: String, _ check: SchemaKeyword.Check) {
            keywords.append(SchemaKeyword(name: name, check: check))
        }

        private func subschema(_ value: JSONValue, _ tokens: String...) throws(JSONSchemaError) -> Int {
            var child = context
            let suffix = tokens.map { "/" + JSONPointer.escape($0) }.joined()
            child.scopes = context.scopes.map { ($0.uri, $0.pointer + suffix) }
            child.path += suffix
            return try compiler.compile(value, child)
        }

        private func invalid(_ keyword: String, _ problem: String) -> JSONSchemaError {
            JSONSchemaError("'\(keyword)' \(problem) (at '\(context.path)/\(JSONPointer.escape(keyword))')")
        }

        private func number(_ keyword: String) throws(JSONSchemaError) -> JSONNumber? {
            guard let value = object[keyword] else { return nil }
            guard let number = value.numberValue else { throw invalid(keyword, "must be a number, found \(value)") }
            return number
        }

        private func count(_ keyword: String) throws(JSONSchemaError) -> Int? {
            guard let value = object[keyword] else { return nil }
            guard let number = value.numberValue, number.isInteger, !ExactDecimal(number.text).negative else {
                throw invalid(keyword, "must be a non-negative integer, found \(value)")
            }
            return number.intValue ?? Int.max
        }

        private func strings(_ value: JSONValue, _ keyword: String) throws(JSONSchemaError) -> [String] {
            guard let array = value.arrayValue else { throw invalid(keyword, "must be an array of strings") }
            var result: [String] = []
            for element in array {
                guard let text = element.stringValue else { throw invalid(keyword, "must be an array of strings, found \(element)") }
                result.append(text)
            }
            return result
        }

        private func regex(_ pattern: String, _ keyword: String) throws(JSONSchemaError) -> ECMARegex {
            do {
                return try ECMARegex(pattern)
            } catch {
                throw JSONSchemaError("\(error.message) (at '\(context.path)/\(keyword)')")
            }
        }
    }
}
