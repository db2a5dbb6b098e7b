import CourierJSON

/// What a check looks like in a workflow, declared once beside its evaluation: its key, the
/// shape of the value written after the key, what it does and an example.
///
/// The decoder reads operands by their shape (and offers its did-you-mean from the keys),
/// the name checker walks the templates a shape can hold, and a published schema can be
/// printed from the same declarations, so none of them keeps its own list of checks.
package struct CheckShape: Sendable {
    /// The key as written in YAML (`starts_with`).
    package let key: String
    package let operand: OperandShape
    /// One sentence for a reader of the format (`courier schema`, the docs).
    package let description: String
    /// The check as a user writes it, one line of YAML (`starts_with: "https://"`).
    package let example: String

    package init(key: String, operand: OperandShape, description: String, example: String) {
        self.key = key
        self.operand = operand
        self.description = description
        self.example = example
    }
}

/// The value a check takes. Every shape that can hold a template is walked by the name
/// checker (``PredicateOperand``), so a template inside a check is never skipped.
package enum OperandShape: Sendable {
    /// A value compared with the checked one; under `duration:` a duration (`500ms`) is a
    /// number of milliseconds.
    case comparable
    /// Any value, as written (looked for inside the checked one).
    case value
    /// A sequence, or a template that gives one.
    case list
    /// `true` or `false`.
    case flag
    /// One of these words.
    case choice([String])
    /// A regular expression; compiled at load when it has no template.
    case regex
    /// A nested plain value or predicate map.
    case matcher(NestedMatcher)
    /// A non-empty sequence of nested plain values or predicate maps, each read like
    /// ``matcher(_:)`` (`all`, `any`).
    case matchers(NestedMatcher)
    /// A JSON Schema: a file path or an inline mapping.
    case schema
    /// A number (or a template that gives one), at least `minimum` when there is one.
    case number(minimum: Double?)
    /// A mapping with these keys, each of its own shape.
    case fields([FieldShape])
    /// A date as `to_date` reads it without a format (ISO 8601, an HTTP date, or a number of
    /// seconds since 1970), or a template that gives one (`before`, `after`).
    case date
    /// A mapping of names the user chooses (headers, cookies) to operands of one shape.
    indirect case named(OperandShape)
    /// A mapping of JSONPath queries (`$.id`) to operands of one shape.
    indirect case paths(OperandShape)
    /// A status: a code, a class like `2xx`, a list of them, a template, or a predicate map.
    case status
    /// Redirects: their count (a number, a template or a predicate map), or a list of hops,
    /// each a mapping of these parts, every one a plain value or a predicate map.
    case redirects(hops: [FieldShape])
    /// The `jwt` predicate's mapping: `key`, `algorithms`, `audience`, `issuer`, `leeway`
    /// and `claims` (each claim a plain value or a predicate map) (``JWTOperand``).
    case jwt

    /// How a nested matcher reads a mapping and durations.
    package enum NestedMatcher: Sendable {
        /// A mapping is a predicate map, durations are text (`length`).
        case values
        /// A mapping without predicate names is an object to compare (`each`).
        case valuesOrObjects
        /// As the matcher around it reads them (`not`).
        case inherited
    }
}

/// One key of a ``OperandShape/fields(_:)`` operand.
package struct FieldShape: Sendable {
    package let key: String
    package let operand: OperandShape
    package let isRequired: Bool
    package let description: String

    package init(key: String, operand: OperandShape, isRequired: Bool = true, description: String) {
        self.key = key
        self.operand = operand
        self.isRequired = isRequired
        self.description = description
    }
}

extension OperandShape {
    /// What is wrong with a resolved operand of this shape, in the decoder's words; nil when
    /// it fits. The decoder asks it of operands without templates (a load error), the engine
    /// of templated ones once rendered (a failed check), so both say the same.
    ///
    /// Only the shapes whose values a template can get wrong are checked here: numbers and
    /// mappings of fields. The other shapes are checked by their own decoding or evaluation.
    package func problem(with value: JSONValue, for key: String) -> String? {
        switch self {
        case .number(let minimum):
            guard case .number(let number) = value else {
                return "expected a number for '\(key)', found \(value.kindDescription)"
            }
            guard number.doubleValue.isFinite else { return "'\(key)' is past the range of a number, found \(number.text)" }
            if let minimum, number.doubleValue < minimum {
                return "'\(key)' must be at least \(Self.text(minimum)), found \(number.text)"
            }
            return nil
        case .fields(let fields):
            guard case .object(let object) = value else {
                return "expected a mapping for '\(key)', found \(value.kindDescription)"
            }
            for field in fields {
                guard let item = object[field.key] else {
                    if field.isRequired { return "'\(key)' needs '\(field.key)' (\(field.description))" }
                    continue
                }
                if let problem = field.operand.problem(with: item, for: field.key) { return problem }
            }
            return nil
        case .date:
            do throws(DateProblem) {
                guard try DateText.instant(of: value) != nil else {
                    return "expected a date for '\(key)' (a string or a number of seconds), found \(value.kindDescription)"
                }
                return nil
            } catch {
                return "expected a date for '\(key)', found \(value.shortText): \(error.reason)"
            }
        case .comparable, .value, .list, .flag, .choice, .regex, .matcher, .matchers, .schema, .named, .paths, .status, .redirects, .jwt:
            return nil
        }
    }

    /// Whether ``problem(with:for:)`` checks values of this shape.
    package var checksResolvedValues: Bool {
        switch self {
        case .number, .fields, .date: true
        case .comparable, .value, .list, .flag, .choice, .regex, .matcher, .matchers, .schema, .named, .paths, .status, .redirects, .jwt: false
        }
    }

    private static func text(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}

extension JSONValue {
    /// "a string", "an array", … for messages.
    package var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
