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

/// One predicate of a predicate map, located at its key: its definition (found once, when
/// the workflow is decoded) and its operand as written.
///
/// Immutable; a class so that checking a step hands each predicate on as one reference, not
/// as a copy of its operand's every part.
package final class Predicate: Sendable {
    package let definition: PredicateDefinition
    package let operand: PredicateOperand
    package let range: SourceRange

    package init(_ definition: PredicateDefinition, operand: PredicateOperand, range: SourceRange) {
        self.definition = definition
        self.operand = operand
        self.range = range
    }

    /// The key as written in YAML.
    package var name: String { definition.shape.key }
}

/// A predicate's operand as decoded, one case per family of ``OperandShape``s. The name
/// checker and the engine switch over these cases, never over predicates, so a new predicate
/// with an existing shape needs neither.
package enum PredicateOperand: Sendable {
    /// ``OperandShape/comparable``, ``OperandShape/value``, ``OperandShape/list``,
    /// ``OperandShape/number(minimum:)`` and ``OperandShape/fields(_:)``: rendered when checked.
    /// Under `expect.duration`, comparable durations were normalised to milliseconds at decode time.
    /// `literal` is the value as JSON when it holds no template, made once at decode time so
    /// that checking a step does not convert it again.
    case value(TemplateValue, literal: JSONValue?)
    case flag(Bool)
    /// The index of the word among the shape's choices.
    case choice(Int)
    /// The pattern as written, and compiled when it has no template (at load, once).
    case regex(TemplateValue, compiled: RegexPattern?)
    case matcher(Matcher)
    /// ``OperandShape/matchers(_:)``: never empty.
    case matchers([Matcher])
    case schema(SchemaSource)
    case jwt(JWTOperand)
}

/// The JSON types `type:` can name: JSON Schema's seven, `float` (a number written with a
/// fraction or an exponent) and `collection` (an array or an object).
package enum JSONType: String, Sendable, Hashable, CaseIterable {
    case string, number, integer, float, boolean, array, object, collection, null
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
