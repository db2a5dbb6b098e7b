/// A compiled JSON Schema (draft 2020-12 or draft-07) that validates ``JSONValue``s.
///
/// Compiling resolves every `$ref` up front, so a schema that compiles never fails later for a
/// missing reference. Every keyword of the validation and applicator vocabularies is asserted,
/// `unevaluatedProperties` / `unevaluatedItems` included; `format`, `content*` and the
/// meta-data keywords are annotations only. `pattern` follows ECMA-262 (see ``ECMARegex``).
///
/// The official metaschemas are built in, without their documents: a `$ref` to
/// `https://json-schema.org/draft/2020-12/schema` or `http://json-schema.org/draft-07/schema#`
/// (either scheme, with or without the `#`) accepts exactly the valid schemas of that draft,
/// by the rules the compiler applies to keyword values; parts of them (`…/schema#/$defs/x`)
/// are left to `retrieve`.
///
/// ```swift
/// let schema = try JSONSchema([
///     "type": "object",
///     "required": ["id"],
///     "properties": ["price": ["type": "number", "minimum": 1]],
/// ])
/// for violation in schema.validate(["price": 0]) {
///     print(violation)   // /: required property 'id' is missing
/// }                      // /price: 0 is less than the minimum 1
/// ```
public struct JSONSchema: Sendable {
    /// The JSON Schema drafts understood.
    public enum Draft: Sendable {
        /// `https://json-schema.org/draft/2020-12/schema`.
        case draft2020_12
        /// `http://json-schema.org/draft-07/schema#`.
        case draft7
    }

    private let program: SchemaProgram
    private let root: Int

    /// The base URI used when none is given; relative references resolve against it.
    static let defaultBaseURI = "courier:///schema.json"

    /// Compiles `schema`, the root schema.
    ///
    /// `$schema` selects the draft; without it, `defaultDraft`. A `$schema` naming another
    /// metaschema is fetched with `retrieve`, and its `$vocabulary` decides which keywords count.
    ///
    /// - Parameters:
    ///   - baseURI: the URI `schema` was loaded from (e.g. `file:///path/schema.json`); relative
    ///     `$id`s and `$ref`s resolve against it.
    ///   - retrieve: resolves an absolute URI (without fragment) to a schema document, for
    ///     `$ref`s to other documents; returns `nil` when there is none. Called during `init`
    ///     only, at most once per URI.
    /// - Throws: ``JSONSchemaError`` when `schema` is not a valid schema (a keyword of the wrong
    ///   type, an invalid regular expression…), its `$schema` is unsupported, or a `$ref`
    ///   cannot be resolved.
    public init(_ schema: JSONValue, baseURI: String? = nil, defaultDraft: Draft = .draft2020_12,
                retrieve: @escaping @Sendable (String) -> JSONValue? = { _ in nil }) throws(JSONSchemaError) {
        let compiler = SchemaCompiler(defaultDraft: defaultDraft, retrieve: retrieve)
        let base = baseURI.map { SchemaURI(Self.defaultBaseURI).resolving($0).withoutFragment } ?? Self.defaultBaseURI
        root = try compiler.compileDocument(schema, uri: base)
        try compiler.resolveReferences()
        program = compiler.program
    }

    /// Validates `instance`; returns the violations found, none when it is valid.
    ///
    /// Inside `anyOf`, `oneOf`, `not`, `if` and `contains` the failures of individual branches
    /// are not listed: the keyword itself is reported.
    public func validate(_ instance: JSONValue) -> [JSONSchemaViolation] {
        let evaluator = SchemaEvaluator(program: program)
        evaluator.evaluate(root, instance)
        return evaluator.violations
    }

    /// Whether `instance` is valid.
    public func isValid(_ instance: JSONValue) -> Bool {
        validate(instance).isEmpty
    }
}
