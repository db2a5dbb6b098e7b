/// One way in which an instance fails a schema.
///
/// Locations are JSON Pointers (RFC 6901): `instanceLocation` into the validated value,
/// `keywordLocation` along the schema keywords that were followed to reach the failing one,
/// `$ref` included (the "evaluation path" of JSON Schema's output formats).
///
/// ```swift
/// let schema = try JSONSchema(["properties": ["price": ["minimum": 1]]])
/// let violation = schema.validate(["price": 0])[0]
/// violation.instanceLocation   // "/price"
/// violation.keywordLocation    // "/properties/price/minimum"
/// violation.description        // /price: 0 is less than the minimum 1
/// ```
public struct JSONSchemaViolation: Sendable, Equatable, CustomStringConvertible {
    /// JSON Pointer to the failing value; `""` is the instance itself.
    public var instanceLocation: String
    /// JSON Pointer to the failing keyword through the schema, e.g.
    /// `"/properties/items/items/properties/price/minimum"`.
    public var keywordLocation: String
    /// The failing keyword, e.g. `"minimum"` (`"false"` for the schema `false`).
    public var keyword: String
    /// What is wrong, lower-case, quoting the culprit: `0 is less than the minimum 1`.
    public var message: String

    public init(instanceLocation: String, keywordLocation: String, keyword: String, message: String) {
        self.instanceLocation = instanceLocation
        self.keywordLocation = keywordLocation
        self.keyword = keyword
        self.message = message
    }

    /// `instanceLocation: message`, with `/` for the root.
    public var description: String {
        "\(instanceLocation.isEmpty ? "/" : instanceLocation): \(message)"
    }
}
