/// Why a schema could not be compiled: it is not a valid schema, it uses an unsupported
/// `$schema`, or a `$ref` cannot be resolved.
///
/// ```swift
/// do {
///     _ = try JSONSchema(["$ref": "#/$defs/missing"])
/// } catch {
///     print(error)
///     // cannot resolve '$ref' '#/$defs/missing': 'courier:///schema.json' has nothing at
///     // '/$defs/missing' (at '/$ref')
/// }
/// ```
public struct JSONSchemaError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, lower-case, quoting the culprit.
    public var message: String

    init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
