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
    /// Subschemas being compiled, one inside the other.
    private var depth = 0
    /// The deepest subschema nesting compiled: a quarter of ``NestingLimit/maxDepth``.
    ///
    /// Compiling one subschema level takes several large frames in a debug build; a chain of
    /// 511 `not`s (a 512-deep JSON document) overflowed the 8 MB stack, 128 levels fit in
    /// about a fifth of it (measured with `ulimit -s`).
    static let maxDepth = NestingLimit.maxDepth / 4

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
        if let draft = Self.builtInMetaschema(metaschema) { return Dialect(draft: draft) }
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

    /// The draft whose official metaschema `uri` names, with or without the empty fragment,
    /// over `http` or `https`: those two are built in.
    static func builtInMetaschema(_ uri: String) -> JSONSchema.Draft? {
        var key = uri
        if key.hasSuffix("#") { key.removeLast() }
        if key.hasPrefix("http://") { key.removeFirst("http://".count) }
        if key.hasPrefix("https://") { key.removeFirst("https://".count) }
        switch key {
        case "json-schema.org/draft/2020-12/schema": return .draft2020_12
        case "json-schema.org/draft-07/schema": return .draft7
        default: return nil
        }
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
        // The official metaschemas are built in (see `SchemaShape`); their inner locations
        // (`…/schema#/$defs/…`) are not, and are left to `retrieve`.
        if fragment.isEmpty, let draft = Self.builtInMetaschema(base) {
            program.resources.append(SchemaResource(uri: base))
            program.nodes.append(SchemaNode(body: .metaschema(draft), resource: program.resources.count - 1))
            locations[key] = program.nodes.count - 1
            return program.nodes.count - 1
        }
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
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maxDepth {
            throw JSONSchemaError("subschemas \(NestingLimit.tooDeep(limit: Self.maxDepth)) (at '\(outer.path)')")
        }
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
            throw JSONSchemaError("\(SchemaShape.notASchema(value)) (at '\(outer.path)')")
        }
        // Draft 7 ignores every keyword next to `$ref`, `$id` included.
        let refOnly = context.dialect.draft == .draft7 && object["$ref"] != nil
        let id = refOnly ? nil : object["$id"]?.stringValue
        // An embedded resource (not a draft-07 `#anchor` id) may declare its own dialect.
        if let id, !context.path.isEmpty, !(context.dialect.draft == .draft7 && id.hasPrefix("#")),
            let declared = object["$schema"]?.stringValue
        {
            context.dialect = try dialect(for: declared)
        }
        // Every keyword value has the shape its draft requires (the subschemas are checked as
        // they are compiled), so the code below and the keyword builder can rely on it.
        let shape = SchemaShape(dialect: context.dialect, checksRegexes: false)
        if let problem = shape.check(object).problems.first {
            let pointer = problem.pointer.map { "/" + JSONPointer.escape($0) }.joined()
            throw JSONSchemaError("\(problem.message) (at '\(context.path)\(pointer)')")
        }
        let draft7 = context.dialect.draft == .draft7
        var anchors: [String] = []
        if let id {
            if draft7 && id.hasPrefix("#") {
                anchors.append(String(id.dropFirst()))
            } else {
                let resolved = SchemaURI(context.base).resolving(id)
                // Only draft 7 allows a fragment here (2020-12's shape rules reject one).
                if let fragment = resolved.fragment, !fragment.isEmpty { anchors.append(fragment) }
                let uri = resolved.withoutFragment
                context.base = uri
                context.resource = nil
                context.scopes.append((uri, ""))
            }
        }
        let index = try reserveNode(&context, raw: value)
        let resource = program.nodes[index].resource
        if !refOnly && !draft7 {
            for keyword in ["$anchor", "$dynamicAnchor"] {
                guard let text = object[keyword]?.stringValue else { continue }
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
            // Definitions (2020-12 keeps draft-07's `definitions` too) and `contentSchema` are
            // compiled so their identifiers are known, not evaluated.
            for container in draft7 ? ["definitions"] : ["$defs", "definitions"] {
                for (name, schema) in object[container]?.objectValue ?? [:] { _ = try subschema(schema, container, name) }
            }
            if !draft7, let schema = object["contentSchema"] { _ = try subschema(schema, "contentSchema") }
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
            guard let written = object[name]?.stringValue else { return }
            let target = SchemaURI(context.base).resolving(written)
            compiler.pendingRefs.append(PendingRef(node: node, keyword: keywords.count, target: target,
                                                   written: written, location: context.path + "/" + name, dynamic: dynamic))
            keywords.append(.init(name: name, check: dynamic ? .dynamicRef(-1, anchor: nil) : .ref(-1)))
        }

        // MARK: Validation vocabulary

        private mutating func validation() throws(JSONSchemaError) {
            if let value = object["type"] {
                add("type", .type((value.arrayValue ?? [value]).compactMap { $0.stringValue.flatMap(SchemaType.init) }))
            }
            if let values = object["enum"]?.arrayValue { add("enum", .enumeration(values)) }
            if let value = object["const"] { add("const", .const(value)) }
            if let divisor = number("multipleOf") { add("multipleOf", .multipleOf(divisor)) }
            if let limit = number("maximum") { add("maximum", .maximum(limit)) }
            if let limit = number("exclusiveMaximum") { add("exclusiveMaximum", .exclusiveMaximum(limit)) }
            if let limit = number("minimum") { add("minimum", .minimum(limit)) }
            if let limit = number("exclusiveMinimum") { add("exclusiveMinimum", .exclusiveMinimum(limit)) }
            if let limit = count("maxLength") { add("maxLength", .maxLength(limit)) }
            if let limit = count("minLength") { add("minLength", .minLength(limit)) }
            if let text = object["pattern"]?.stringValue { add("pattern", .pattern(try regex(text, "pattern"))) }
            if let limit = count("maxItems") { add("maxItems", .maxItems(limit)) }
            if let limit = count("minItems") { add("minItems", .minItems(limit)) }
            if object["uniqueItems"]?.boolValue == true { add("uniqueItems", .uniqueItems) }
            if let limit = count("maxProperties") { add("maxProperties", .maxProperties(limit)) }
            if let limit = count("minProperties") { add("minProperties", .minProperties(limit)) }
            if let value = object["required"] { add("required", .required(strings(value))) }
            if !draft7, let members = object["dependentRequired"]?.objectValue {
                add("dependentRequired", .dependentRequired(members.map { ($0.key, strings($0.value)) }))
            }
        }

        // MARK: Applicator vocabulary

        /// In the order they are evaluated: arrays, objects, then the logic over subschemas.
        private mutating func applicators() throws(JSONSchemaError) {
            try arrayApplicators()
            try objectApplicators()
            try logicApplicators()
        }

        private mutating func arrayApplicators() throws(JSONSchemaError) {
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
                // Without an array `items`, `additionalItems` does nothing, but its identifiers count.
                if object["items"]?.arrayValue == nil, let additional = object["additionalItems"] {
                    _ = try subschema(additional, "additionalItems")
                }
            } else {
                if let schemas = object["prefixItems"]?.arrayValue {
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
                    minimum = count("minContains") ?? 1
                    maximum = count("maxContains")
                }
                add("contains", .contains(child, min: minimum, max: maximum))
            }
        }

        private mutating func objectApplicators() throws(JSONSchemaError) {
            var propertyNames: [(name: String, schema: Int)] = []
            if let members = object["properties"]?.objectValue {
                for (name, schema) in members { propertyNames.append((name, try subschema(schema, "properties", name))) }
                add("properties", .properties(propertyNames))
            }
            var patterns: [(regex: ECMARegex, schema: Int)] = []
            if let members = object["patternProperties"]?.objectValue {
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
            if !draft7, let members = object["dependentSchemas"]?.objectValue {
                var pairs: [(property: String, schema: Int)] = []
                for (property, schema) in members { pairs.append((property, try subschema(schema, "dependentSchemas", property))) }
                add("dependentSchemas", .dependentSchemas(pairs))
            }
            // Draft 7's `dependencies`; 2020-12 split it in two but schemas written for both
            // drafts still use it, so it is understood there too.
            if let members = object["dependencies"]?.objectValue {
                var names: [(property: String, required: [String])] = []
                var schemas: [(property: String, schema: Int)] = []
                for (property, dependency) in members {
                    if case .array = dependency {
                        names.append((property, strings(dependency)))
                    } else {
                        schemas.append((property, try subschema(dependency, "dependencies", property)))
                    }
                }
                if !names.isEmpty { add("dependencies", .dependentRequired(names)) }
                if !schemas.isEmpty { add("dependencies", .dependentSchemas(schemas)) }
            }
        }

        private mutating func logicApplicators() throws(JSONSchemaError) {
            for name in ["allOf", "anyOf", "oneOf"] {
                guard let schemas = object[name]?.arrayValue else { continue }
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

        // Values the shape check has accepted (see `SchemaShape`).

        private func number(_ keyword: String) -> JSONNumber? {
            object[keyword]?.numberValue
        }

        private func count(_ keyword: String) -> Int? {
            object[keyword]?.numberValue.map { $0.intValue ?? Int.max }
        }

        private func strings(_ value: JSONValue) -> [String] {
            (value.arrayValue ?? []).compactMap(\.stringValue)
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
