/// The one nesting limit every recursive walk in Courier enforces.
///
/// JSON documents, YAML collections, template expressions, JSONPath queries,
/// JSON Schemas and `$ref` chains may nest at most this many levels; one more
/// is an error that names the limit ("nested too deeply, limit 512"). It is
/// defined here because CourierJSON is the lowest module that recurses over
/// user input, and every module above it reads the same value.
///
/// The value keeps every walk well inside the smallest stack it runs on (the
/// cooperative pool's threads) even in debug builds, whose frames are large.
public enum NestingLimit {
    /// The deepest nesting accepted: 512 levels; 513 is an error.
    public static let maxDepth = 512

    /// The wording every stage uses, so users see one message for one limit.
    package static var message: String { tooDeep(limit: maxDepth) }

    /// The same wording for a walk that needs a lower limit of its own (its frames are larger).
    package static func tooDeep(limit: Int) -> String { "nested too deeply, limit \(limit)" }
}

