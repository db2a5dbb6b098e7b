import CourierDiagnostics
import CourierJSON

/// What a value is checked against (spec section 7): a plain value means deep
/// equality, a map of predicates means all must hold.
package indirect enum Matcher: Sendable {
    case equals(TemplateValue)
    case predicates([Predicate], range: SourceRange)

    package var range: SourceRange {
        switch self {
        case .equals(let value): return value.range
        case .predicates(_, let range): return range
        }
    }
}

/// One predicate of a predicate map, located at its key.
package struct Predicate: Sendable {
    package var kind: PredicateKind
    package var range: SourceRange

    package init(_ kind: PredicateKind, range: SourceRange) {
        self.kind = kind
        self.range = range
    }

    /// Predicate names as written in YAML, for decoding and suggestions.
    package static let names = PredicateName.allCases.map(\.rawValue)
}

/// The predicate keys of spec section 7, in the order suggestions list them. The decoder
/// switches over this enum exhaustively: a name added here must be decoded there (it used
/// to fall to a `default:` that read it as a schema).
package enum PredicateName: String, CaseIterable, Sendable {
    case eq, ne, gt, gte, lt, lte
    case `in`, notIn = "not_in"
    case contains, notContains = "not_contains"
    case startsWith = "starts_with", endsWith = "ends_with"
    case matches, notMatches = "not_matches"
    case exists, type, length, empty, each, schema, uuid
    case isoDate = "iso_date"
    case not
}

package enum PredicateKind: Sendable {
    case eq(TemplateValue)
    case ne(TemplateValue)
    /// Ordering operands. Under `expect.duration` they are normalised to a
    /// number of milliseconds at decode time (`500ms` → `500`, `2s` → `2000`).
    case gt(TemplateValue)
    case gte(TemplateValue)
    case lt(TemplateValue)
    case lte(TemplateValue)
    case `in`(TemplateValue)
    case notIn(TemplateValue)
    case contains(TemplateValue)
    case notContains(TemplateValue)
    case startsWith(TemplateValue)
    case endsWith(TemplateValue)
    /// A regular expression (checked at decode time when it has no template).
    /// The pattern as written, and compiled when it has no template (at load, once).
    case matches(TemplateValue, compiled: RegexPattern?)
    case notMatches(TemplateValue, compiled: RegexPattern?)
    case exists(Bool)
    case type(JSONType)
    case length(Matcher)
    case empty(Bool)
    case each(Matcher)
    case schema(SchemaSource)
    case uuid(Bool)
    case isoDate(Bool)
    case not(Matcher)
}

/// The JSON types `type:` can name.
package enum JSONType: String, Sendable, Hashable, CaseIterable {
    case string, number, integer, boolean, array, object, null
}

/// A JSON Schema, inline or from a file relative to the workflow's directory.
///
/// A schema written without templates is read and compiled when the workflow loads
/// (an invalid one is a load error, before anything is sent); only a templated one
/// waits for the run, where it is rendered, then compiled once per rendered text.
package enum SchemaSource: Sendable {
    /// Compiled at load; `range` is the `schema:` value (the path or the inline mapping).
    case compiled(JSONSchema, range: SourceRange)
    /// An inline schema with templates in it.
    case inline(TemplateValue)
    /// A path with a template in it.
    case file(Template)

    /// The `schema:` value.
    package var range: SourceRange {
        switch self {
        case .compiled(_, let range): return range
        case .inline(let value): return value.range
        case .file(let path): return path.range
        }
    }
}

extension PredicateKind {
    /// The key as written in YAML.
    package var name: String {
        switch self {
        case .eq: "eq"
        case .ne: "ne"
        case .gt: "gt"
        case .gte: "gte"
        case .lt: "lt"
        case .lte: "lte"
        case .in: "in"
        case .notIn: "not_in"
        case .contains: "contains"
        case .notContains: "not_contains"
        case .startsWith: "starts_with"
        case .endsWith: "ends_with"
        case .matches: "matches"
        case .notMatches: "not_matches"
        case .exists: "exists"
        case .type: "type"
        case .length: "length"
        case .empty: "empty"
        case .each: "each"
        case .schema: "schema"
        case .uuid: "uuid"
        case .isoDate: "iso_date"
        case .not: "not"
        }
    }
}
