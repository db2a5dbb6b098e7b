/// JSON Schema's `pattern` and `patternProperties` regular expressions: ECMA-262 with the `u`
/// flag's reading of the pattern, matched by Courier's bounded engine (``RegexPattern``).
///
/// The ECMA-262 semantics that differ from other engines are the engine's own:
/// - `\d`, `\w` and their negations are ASCII-only (`[0-9]`, `[A-Za-z0-9_]`); `\s` is
///   ECMA-262's whitespace list (including U+FEFF); `\b` uses the ASCII word characters;
/// - `.` matches anything but the four line terminators; `^` and `$` anchor at the start and
///   the very end of the string, never before a trailing newline;
/// - `\uXXXX` (surrogate pairs combined), `\u{…}`, `\xXX`, `\cX` are scalars;
/// - a `{` that does not start a quantifier is a literal, as browsers read it;
/// - `[]` matches nothing and `[^]` anything;
/// - lookahead and lookbehind, backreferences (`\1`, `\k<name>`), named groups and lazy
///   quantifiers are supported; `\p{…}` takes general categories and a few binary properties.
/// Matching runs on Unicode scalars, not grapheme clusters.
struct ECMARegex: Sendable {
    private let pattern: RegexPattern
    /// The pattern as written in the schema.
    var source: String { pattern.source }

    /// Compiles `pattern`; throws a message when it is not a valid regular expression.
    init(_ pattern: String) throws(JSONSchemaError) {
        do {
            self.pattern = try RegexPattern(pattern, dialect: .ecma262)
        } catch {
            throw JSONSchemaError("invalid regular expression '\(pattern)': \(error.description)")
        }
    }

    /// Whether the pattern matches anywhere in `subject` (patterns are not implicitly
    /// anchored); throws when the step budget runs out first.
    func matches(_ subject: String) throws(RegexBudgetExceeded) -> Bool {
        try pattern.matches(subject)
    }
}
