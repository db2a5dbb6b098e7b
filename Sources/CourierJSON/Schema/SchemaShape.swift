/// What a valid schema of a draft looks like: the type and shape each keyword's value must
/// have (`type` a type name or a non-empty array of unique type names, `properties` an object
/// of schemas, `required` an array of unique strings, `minLength` a non-negative integer…),
/// written from the specifications of draft 2020-12 and draft-07. Unknown keywords may hold
/// anything.
///
/// One set of rules, two users:
/// - the compiler checks each object schema with ``check(_:)`` before compiling its keywords
///   (it walks the subschemas itself), and reports the first problem as a ``JSONSchemaError``;
/// - the built-in metaschemas (`$ref` or `$schema` to
///   `https://json-schema.org/draft/2020-12/schema` or `http://json-schema.org/draft-07/schema#`)
///   validate an instance with ``problems(inSchema:)``, which follows the subschemas too. The
///   official metaschema documents are not bundled: an instance is valid against a draft's
///   metaschema when it is a valid schema of that draft, by these rules.
///
/// So an instance passes the built-in metaschema exactly when its keyword values would compile.
/// That includes the regular expressions of `pattern` and `patternProperties`, which must be
/// patterns ``ECMARegex`` accepts (the official metaschemas only annotate them as `format:
/// regex`); `format` values themselves are not checked.
struct SchemaShape {
    /// One keyword value of the wrong shape.
    struct Problem {
        /// JSON Pointer tokens from the checked schema to the offending value.
        var pointer: [String]
        /// Where the rule sits in a metaschema built on these rules, e.g.
        /// `["properties", "minLength", "minimum"]`: the violation's keyword location below the
        /// `$ref` to the metaschema.
        var rule: [String]
        /// The rule's last token: `"type"`, `"minimum"`, `"minItems"`, `"uniqueItems"`,
        /// `"enum"`, `"pattern"` or `"format"`.
        var keyword: String
        /// What is wrong, quoting the schema keyword: `'minLength' must be a non-negative
        /// integer, found -1`.
        var message: String
    }

    /// A value in a schema position (`not`, a member of `properties`…), found by ``check(_:)``.
    struct Subschema {
        var pointer: [String]
        var rule: [String]
        var value: JSONValue
    }

    /// The shapes keyword values can have.
    private enum Rule {
        /// A schema.
        case schema
        /// An object whose member values are schemas (`properties`, `$defs`…).
        case schemaMap
        /// A non-empty array of schemas (`allOf`, `prefixItems`…).
        case schemaArray
        /// Draft-07 `items`: a schema or a non-empty array of schemas.
        case schemaOrSchemaArray
        /// `dependencies`: an object whose members are schemas or arrays of unique strings.
        case dependencies
        /// `patternProperties`: an object of schemas keyed by regular expressions.
        case patternSchemaMap
        case string
        case boolean
        case number
        /// `multipleOf`: a number greater than 0.
        case positiveNumber
        /// A non-negative integer (`1.0` counts, as JSON Schema's `integer` does).
        case count
        case array
        case any
        /// `type`: a type name or a non-empty array of unique type names.
        case types
        /// An array of unique strings (`required`).
        case uniqueStrings
        /// An object of arrays of unique strings (`dependentRequired`).
        case uniqueStringsMap
        /// A regular expression (`pattern`).
        case regex
        /// `$anchor`, `$dynamicAnchor`: `[A-Za-z_][-A-Za-z0-9._]*`.
        case anchor
        /// 2020-12 `$id`: a URI reference without a non-empty fragment.
        case idWithoutFragment
        /// `$vocabulary`: an object of booleans.
        case vocabulary
    }

    let dialect: SchemaCompiler.Dialect
    /// Whether ``check(_:)`` compiles regular expressions; the compiler compiles them itself.
    var checksRegexes = true

    init(dialect: SchemaCompiler.Dialect, checksRegexes: Bool = true) {
        self.dialect = dialect
        self.checksRegexes = checksRegexes
    }

    /// The message for a value in a schema position that is neither an object nor a boolean.
    static func notASchema(_ value: JSONValue) -> String {
        "a schema must be an object or a boolean, found \(value.typeName)"
    }

    /// Whether `keyword` is a keyword of the dialect (one the rules constrain).
    func isKeyword(_ keyword: String) -> Bool {
        rule(for: keyword) != nil
    }

    private func rule(for keyword: String) -> Rule? {
        if dialect.draft == .draft7 { return Self.draft7Rule(keyword) }
        switch keyword {
        // Core
        case "$id": return .idWithoutFragment
        case "$schema", "$ref", "$dynamicRef", "$comment": return .string
        case "$anchor", "$dynamicAnchor": return .anchor
        case "$vocabulary": return .vocabulary
        // `definitions` is draft-07's `$defs`, kept by the 2020-12 metaschema.
        case "$defs", "definitions": return .schemaMap
        // Meta-data, format annotation, content
        case "title", "description", "format", "contentEncoding", "contentMediaType": return .string
        case "default": return .any
        case "deprecated", "readOnly", "writeOnly": return .boolean
        case "examples": return .array
        case "contentSchema": return .schema
        default: break
        }
        if dialect.applicator {
            switch keyword {
            case "prefixItems", "allOf", "anyOf", "oneOf": return .schemaArray
            case "items", "contains", "additionalProperties", "propertyNames", "if", "then", "else", "not":
                return .schema
            case "properties", "dependentSchemas": return .schemaMap
            case "patternProperties": return .patternSchemaMap
            // Draft-07's `dependencies`, kept by the 2020-12 metaschema.
            case "dependencies": return .dependencies
            default: break
            }
        }
        if dialect.unevaluated, keyword == "unevaluatedItems" || keyword == "unevaluatedProperties" {
            return .schema
        }
        if dialect.validation {
            switch keyword {
            case "type": return .types
            case "const": return .any
            case "enum": return .array
            case "multipleOf": return .positiveNumber
            case "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum": return .number
            case "maxLength", "minLength", "maxItems", "minItems", "maxContains", "minContains",
                "maxProperties", "minProperties":
                return .count
            case "pattern": return .regex
            case "uniqueItems": return .boolean
            case "required": return .uniqueStrings
            case "dependentRequired": return .uniqueStringsMap
            default: break
            }
        }
        return nil
    }

    private static func draft7Rule(_ keyword: String) -> Rule? {
        switch keyword {
        case "$id", "$schema", "$ref", "$comment", "title", "description", "format", "contentEncoding",
            "contentMediaType":
            return .string
        case "definitions", "properties": return .schemaMap
        case "default", "const": return .any
        case "readOnly", "writeOnly", "uniqueItems": return .boolean
        case "examples", "enum": return .array
        case "type": return .types
        case "multipleOf": return .positiveNumber
        case "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum": return .number
        case "maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties": return .count
        case "pattern": return .regex
        case "items": return .schemaOrSchemaArray
        case "additionalItems", "contains", "additionalProperties", "propertyNames", "if", "then", "else", "not":
            return .schema
        case "allOf", "anyOf", "oneOf": return .schemaArray
        case "patternProperties": return .patternSchemaMap
        case "dependencies": return .dependencies
        case "required": return .uniqueStrings
        default: return nil
        }
    }

    // MARK: - Checking

    /// Checks the keyword values of one object schema, not the subschemas inside them, which
    /// it returns (in document order) for the caller to check or compile.
    func check(_ object: JSONObject) -> (problems: [Problem], subschemas: [Subschema]) {
        var result = Checker(checksRegexes: checksRegexes)
        for (keyword, value) in object {
            guard let rule = rule(for: keyword) else { continue }
            result.check(keyword, value, rule)
        }
        return (result.problems, result.subschemas)
    }

    /// Checks `value` as a whole schema, following its subschemas: the built-in metaschema.
    /// Problems come in document order.
    func problems(inSchema value: JSONValue) -> [Problem] {
        var problems: [Problem] = []
        collect(Subschema(pointer: [], rule: [], value: value), into: &problems)
        return problems
    }

    private func collect(_ schema: Subschema, into problems: inout [Problem]) {
        switch schema.value {
        case .bool:
            return
        case .object(let object):
            for (keyword, value) in object {
                guard let rule = rule(for: keyword) else { continue }
                var checker = Checker(checksRegexes: checksRegexes)
                checker.check(keyword, value, rule)
                for problem in checker.problems {
                    problems.append(Problem(pointer: schema.pointer + problem.pointer, rule: schema.rule + problem.rule,
                                            keyword: problem.keyword, message: problem.message))
                }
                for subschema in checker.subschemas {
                    collect(Subschema(pointer: schema.pointer + subschema.pointer, rule: schema.rule + subschema.rule,
                                      value: subschema.value), into: &problems)
                }
            }
        default:
            problems.append(Problem(pointer: schema.pointer, rule: schema.rule + ["type"], keyword: "type",
                                    message: Self.notASchema(schema.value)))
        }
    }

    /// The problems and subschemas of one object's keywords, as they are found.
    private struct Checker {
        let checksRegexes: Bool
        var problems: [Problem] = []
        var subschemas: [Subschema] = []

        init(checksRegexes: Bool) {
            self.checksRegexes = checksRegexes
        }

        mutating func check(_ keyword: String, _ value: JSONValue, _ rule: Rule) {
            let at = [keyword]
            let ruleAt = ["properties", keyword]
            switch rule {
            case .any:
                break
            case .schema:
                subschemas.append(Subschema(pointer: at, rule: ruleAt, value: value))
            case .schemaMap, .patternSchemaMap:
                guard let members = value.objectValue else {
                    return fail(keyword, "type", "must be an object, found \(SchemaEvaluator.quote(value))")
                }
                for (name, schema) in members {
                    if rule == .patternSchemaMap && checksRegexes {
                        regex(name, keyword, at: at + [name], rule: ruleAt + ["propertyNames", "format"])
                    }
                    subschemas.append(Subschema(pointer: at + [name], rule: ruleAt + ["additionalProperties"], value: schema))
                }
            case .schemaArray:
                schemaArray(keyword, value, rule: ruleAt)
            case .schemaOrSchemaArray:
                if case .array = value {
                    schemaArray(keyword, value, rule: ruleAt + ["anyOf", "1"])
                } else {
                    subschemas.append(Subschema(pointer: at, rule: ruleAt + ["anyOf", "0"], value: value))
                }
            case .dependencies:
                dependencies(keyword, value)
            case .string:
                if value.stringValue == nil { fail(keyword, "type", "must be a string, found \(SchemaEvaluator.quote(value))") }
            case .boolean:
                if value.boolValue == nil { fail(keyword, "type", "must be a boolean, found \(SchemaEvaluator.quote(value))") }
            case .array:
                if value.arrayValue == nil { fail(keyword, "type", "must be an array, found \(SchemaEvaluator.quote(value))") }
            case .number:
                if value.numberValue == nil { fail(keyword, "type", "must be a number, found \(SchemaEvaluator.quote(value))") }
            case .positiveNumber, .count:
                number(keyword, value, positive: rule == .positiveNumber)
            case .types:
                types(keyword, value)
            case .uniqueStrings:
                uniqueStrings(keyword, value, at: at, rule: ruleAt)
            case .uniqueStringsMap:
                guard let members = value.objectValue else {
                    return fail(keyword, "type", "must be an object, found \(SchemaEvaluator.quote(value))")
                }
                for (property, names) in members {
                    uniqueStrings(keyword, names, at: at + [property], rule: ruleAt + ["additionalProperties"])
                }
            case .regex:
                guard let pattern = value.stringValue else {
                    return fail(keyword, "type", "must be a string, found \(SchemaEvaluator.quote(value))")
                }
                if checksRegexes { regex(pattern, keyword, at: at, rule: ruleAt + ["format"]) }
            case .anchor:
                guard let name = value.stringValue, Self.isAnchorName(name) else {
                    return fail(keyword, "pattern", "must be a plain name, found \(SchemaEvaluator.quote(value))")
                }
            case .idWithoutFragment:
                guard let id = value.stringValue else {
                    return fail(keyword, "type", "must be a string, found \(SchemaEvaluator.quote(value))")
                }
                if let fragment = SchemaURI(id).fragment, !fragment.isEmpty {
                    fail(keyword, "pattern", "'\(id)' must not have a fragment; use '$anchor'")
                }
            case .vocabulary:
                vocabulary(keyword, value)
            }
        }

        /// Draft 7's `dependencies`: each member a schema or an array of property names.
        private mutating func dependencies(_ keyword: String, _ value: JSONValue) {
            let at = [keyword]
            let ruleAt = ["properties", keyword]
            guard let members = value.objectValue else {
                return fail(keyword, "type", "must be an object, found \(SchemaEvaluator.quote(value))")
            }
            for (property, dependency) in members {
                switch dependency {
                case .array:
                    uniqueStrings(keyword, dependency, at: at + [property], rule: ruleAt + ["additionalProperties", "anyOf", "1"])
                case .object, .bool:
                    subschemas.append(Subschema(pointer: at + [property], rule: ruleAt + ["additionalProperties", "anyOf", "0"],
                                                value: dependency))
                default:
                    fail(keyword, at: at + [property], rule: ruleAt + ["additionalProperties", "anyOf"], "anyOf",
                         "members must be schemas or arrays of strings, found \(SchemaEvaluator.quote(dependency))")
                }
            }
        }

        /// A number above 0 (`multipleOf`), or a count: a non-negative integer (`minLength`).
        private mutating func number(_ keyword: String, _ value: JSONValue, positive: Bool) {
            if positive {
                guard let number = value.numberValue else {
                    return fail(keyword, "type", "must be a number, found \(SchemaEvaluator.quote(value))")
                }
                let decimal = ExactDecimal(number.text)
                if decimal.negative || decimal.digits.isEmpty {
                    fail(keyword, "exclusiveMinimum", "must be greater than 0, found \(number)")
                }
                return
            }
            guard let number = value.numberValue, number.isInteger else {
                return fail(keyword, "type", "must be a non-negative integer, found \(SchemaEvaluator.quote(value))")
            }
            if ExactDecimal(number.text).negative {
                fail(keyword, "minimum", "must be a non-negative integer, found \(number)")
            }
        }

        /// `$vocabulary`: an object of booleans.
        private mutating func vocabulary(_ keyword: String, _ value: JSONValue) {
            guard let members = value.objectValue else {
                return fail(keyword, "type", "must be an object, found \(SchemaEvaluator.quote(value))")
            }
            for (vocabulary, required) in members where required.boolValue == nil {
                fail(keyword, at: [keyword, vocabulary], rule: ["properties", keyword, "additionalProperties", "type"], "type",
                     "members must be booleans, found \(SchemaEvaluator.quote(required))")
            }
        }

        private mutating func schemaArray(_ keyword: String, _ value: JSONValue, rule: [String]) {
            guard let schemas = value.arrayValue, !schemas.isEmpty else {
                let found = value.arrayValue == nil ? SchemaEvaluator.quote(value) : "an empty array"
                return fail(keyword, at: [keyword], rule: rule + [value.arrayValue == nil ? "type" : "minItems"],
                            value.arrayValue == nil ? "type" : "minItems", "must be a non-empty array of schemas, found \(found)")
            }
            for (i, schema) in schemas.enumerated() {
                subschemas.append(Subschema(pointer: [keyword, String(i)], rule: rule + ["items"], value: schema))
            }
        }

        private mutating func types(_ keyword: String, _ value: JSONValue) {
            let shape = "must be a type name or a non-empty array of unique type names"
            switch value {
            case .string(let name):
                if SchemaType(rawValue: name) == nil {
                    fail(keyword, at: [keyword], rule: ["properties", keyword, "anyOf", "0", "enum"], "enum",
                         "has an unknown type \(SchemaEvaluator.quote(value))")
                }
            case .array(let names):
                let rule = ["properties", keyword, "anyOf", "1"]
                if names.isEmpty {
                    return fail(keyword, at: [keyword], rule: rule + ["minItems"], "minItems", "\(shape), found an empty array")
                }
                var seen: Set<String> = []
                for (i, name) in names.enumerated() {
                    guard let text = name.stringValue, SchemaType(rawValue: text) != nil else {
                        fail(keyword, at: [keyword, String(i)], rule: rule + ["items", "enum"], "enum",
                             "has an unknown type \(SchemaEvaluator.quote(name))")
                        continue
                    }
                    if !seen.insert(text).inserted {
                        fail(keyword, at: [keyword], rule: rule + ["uniqueItems"], "uniqueItems",
                             "\(shape), found \(SchemaEvaluator.quote(value)) ('\(text)' twice)")
                    }
                }
            default:
                fail(keyword, at: [keyword], rule: ["properties", keyword, "anyOf"], "anyOf",
                     "\(shape), found \(SchemaEvaluator.quote(value))")
            }
        }

        private mutating func uniqueStrings(_ keyword: String, _ value: JSONValue, at: [String], rule: [String]) {
            guard let names = value.arrayValue else {
                return fail(keyword, at: at, rule: rule + ["type"], "type",
                            "must be an array of unique strings, found \(SchemaEvaluator.quote(value))")
            }
            var seen: Set<ExactKey> = []
            for (i, name) in names.enumerated() {
                guard let text = name.stringValue else {
                    fail(keyword, at: at + [String(i)], rule: rule + ["items", "type"], "type",
                         "must be an array of unique strings, found \(SchemaEvaluator.quote(name))")
                    continue
                }
                if !seen.insert(ExactKey(text)).inserted {
                    fail(keyword, at: at, rule: rule + ["uniqueItems"], "uniqueItems",
                         "must be an array of unique strings, found '\(text)' twice")
                }
            }
        }

        private mutating func regex(_ pattern: String, _ keyword: String, at: [String], rule: [String]) {
            do {
                _ = try ECMARegex(pattern)
            } catch {
                problems.append(Problem(pointer: at, rule: rule, keyword: "format", message: "'\(keyword)' has an \(error.message)"))
            }
        }

        /// A problem with the keyword's value itself, found against the rule `properties/keyword/check`.
        private mutating func fail(_ keyword: String, _ check: String, _ problem: String) {
            fail(keyword, at: [keyword], rule: ["properties", keyword, check], check, problem)
        }

        private mutating func fail(_ keyword: String, at pointer: [String], rule: [String], _ check: String, _ problem: String) {
            problems.append(Problem(pointer: pointer, rule: rule, keyword: check, message: "'\(keyword)' \(problem)"))
        }

        /// `[A-Za-z_][-A-Za-z0-9._]*`, the 2020-12 anchor grammar.
        static func isAnchorName(_ text: String) -> Bool {
            guard let first = text.unicodeScalars.first, first.isASCII,
                first.properties.isAlphabetic || first == "_"
            else { return false }
            return text.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-._".unicodeScalars.contains($0))
            }
        }
    }
}
