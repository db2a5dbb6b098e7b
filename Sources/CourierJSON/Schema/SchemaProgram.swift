/// A compiled schema: its subschemas as a flat array of nodes that refer to each other by index,
/// `$ref` targets included, so a program is a plain `Sendable` value.
struct SchemaProgram: Sendable {
    var nodes: [SchemaNode] = []
    var resources: [SchemaResource] = []
    /// Whether some node uses `unevaluatedProperties` or `unevaluatedItems`; annotations are
    /// collected only then.
    var needsAnnotations = false
}

/// A schema resource (a document or a subschema with `$id`): the unit of `$dynamicRef`'s
/// dynamic scope.
struct SchemaResource: Sendable {
    var uri: String
    /// `$dynamicAnchor` names declared in this resource, and their nodes.
    var dynamicAnchors: [String: Int] = [:]
}

/// One subschema.
struct SchemaNode: Sendable {
    enum Body: Sendable {
        /// The schema `true` or `false`.
        case always(Bool)
        /// An object schema's keywords, in evaluation order (`unevaluated*` last).
        case keywords([SchemaKeyword])
        /// A draft's official metaschema, built in: the instance must be a valid schema of
        /// that draft (see ``SchemaShape``).
        case metaschema(JSONSchema.Draft)
    }

    var body: Body
    /// Index of the enclosing resource in ``SchemaProgram/resources``.
    var resource: Int
}

/// One keyword of a node, ready to evaluate.
struct SchemaKeyword: Sendable {
    /// The keyword as written (`"items"`, `"dependencies"`…), the last token of its location.
    var name: String
    var check: Check

    enum Check: Sendable {
        case type([SchemaType])
        case enumeration([JSONValue])
        case const(JSONValue)
        case multipleOf(JSONNumber)
        case maximum(JSONNumber)
        case exclusiveMaximum(JSONNumber)
        case minimum(JSONNumber)
        case exclusiveMinimum(JSONNumber)
        case maxLength(Int)
        case minLength(Int)
        case pattern(ECMARegex)
        case maxItems(Int)
        case minItems(Int)
        case uniqueItems
        /// `contains` with 2020-12's `minContains` (default 1) and `maxContains`.
        case contains(Int, min: Int, max: Int?)
        case maxProperties(Int)
        case minProperties(Int)
        case required([String])
        case dependentRequired([(property: String, required: [String])])
        case dependentSchemas([(property: String, schema: Int)])
        case properties([(name: String, schema: Int)])
        case patternProperties([(regex: ECMARegex, schema: Int)])
        /// `additionalProperties`, with the sibling `properties` names and `patternProperties`.
        case additionalProperties(Int, known: Set<ExactKey>, patterns: [ECMARegex])
        case propertyNames(Int)
        /// 2020-12 `prefixItems`, or draft 7's array form of `items`.
        case prefixItems([Int])
        /// 2020-12 `items` or draft 7's `additionalItems` (from the end of the prefix), or
        /// draft 7's schema form of `items` (from 0).
        case items(Int, from: Int)
        case allOf([Int])
        case anyOf([Int])
        case oneOf([Int])
        case not(Int)
        case conditional(if: Int, then: Int?, else: Int?)
        /// `$ref`; the target is patched in once every document is compiled.
        case ref(Int)
        /// `$dynamicRef`: the statically resolved target, and the anchor name to look up in
        /// the dynamic scope when that target declares the same `$dynamicAnchor`.
        case dynamicRef(Int, anchor: String?)
        case unevaluatedProperties(Int)
        case unevaluatedItems(Int)
    }
}

/// A name of the `type` keyword.
enum SchemaType: String, Sendable {
    case null, boolean, object, array, number, integer, string

    func matches(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case (.null, .null), (.boolean, .bool), (.object, .object), (.array, .array), (.number, .number),
            (.string, .string):
            true
        case (.integer, .number(let n)):
            n.isInteger
        default:
            false
        }
    }
}
