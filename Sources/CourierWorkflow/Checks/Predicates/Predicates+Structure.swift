import CourierJSON

/// Existence, types, sizes, nesting and formats: `exists`, `type`, `length`, `empty`, `each`,
/// `schema`, `uuid`, `iso_date`, `not`, `all`, `any`.
extension PredicateDefinition {
    /// In the order suggestions and `courier schema` list them.
    static let structure: [PredicateDefinition] = [exists, type, length, empty, each, schema, uuid, isoDate, jwt, not, allOf, anyOf]

    static let exists = PredicateDefinition(
        CheckShape(key: "exists", operand: .flag,
                   description: "Whether there is a value; for a JSONPath that yields a list, whether it matched anything.",
                   example: "exists: true"),
        absence: .decides
    ) { operand, input in
        guard case .flag(let shouldExist) = operand else { return .holds }
        let actual = input.value
        if input.isNodelist {
            let matched = actual?.arrayValue?.isEmpty == false
            guard matched != shouldExist else { return .holds }
            return .fails(shouldExist ? "expected at least one match, found none" : "expected no match, found \(actual?.shortText ?? "")",
                          expected: .words(shouldExist ? "at least one match" : "no match"))
        }
        guard (actual != nil) != shouldExist else { return .holds }
        return .fails(shouldExist ? "expected a value, found none" : "expected no value, found \(actual?.shortText ?? "")",
                      expected: .words(shouldExist ? "exists" : "does not exist"))
    }

    static let type = PredicateDefinition(
        CheckShape(key: "type", operand: .choice(JSONType.allCases.map(\.rawValue)),
                   description: "The JSON type of the value (`integer`: a number whose value has no fraction, so `3.0` too; `float`: a number written with a fraction or an exponent; `collection`: an array or an object).",
                   example: "type: string"),
        checksOneValue: { operand in
            guard case .choice(let index) = operand else { return false }
            // A non-singular query always gives an array, which is also a collection.
            let type = JSONType.allCases[index]
            return type != .array && type != .collection
        }
    ) { operand, input in
        guard case .choice(let index) = operand, let actual = input.value else { return .holds }
        let type = JSONType.allCases[index]
        return type.describes(actual) ? .holds : .fails("expected \(withArticle(type.rawValue)), got \(actual.kindDescription)",
                                                        expected: .words(type.rawValue))
    }

    static let length = PredicateDefinition(
        CheckShape(key: "length", operand: .matcher(.values),
                   description: "The number of characters, items or keys, checked by the nested value or predicates.",
                   example: "length: { gte: 1 }")
    ) { _, input in
        guard let actual = input.value else { return .holds }
        guard let count = actual.size else { return .needs("length", "a string, an array or an object", actual) }
        return .nested(.number(JSONNumber(count)), subjectPrefix: "length of ")
    }

    static let empty = PredicateDefinition(
        CheckShape(key: "empty", operand: .flag, description: "Whether a string, array or object is empty (null counts as empty).",
                   example: "empty: false")
    ) { operand, input in
        guard case .flag(let shouldBeEmpty) = operand, let actual = input.value else { return .holds }
        let isEmpty: Bool
        if case .null = actual { isEmpty = true } else {
            guard let size = actual.size else { return .needs("empty", "a string, an array or an object", actual) }
            isEmpty = size == 0
        }
        return isEmpty == shouldBeEmpty ? .holds : .fails(shouldBeEmpty ? "expected to be empty" : "expected not to be empty",
                                                          expected: .words(shouldBeEmpty ? "empty" : "not empty"))
    }

    static let each = PredicateDefinition(
        CheckShape(key: "each", operand: .matcher(.valuesOrObjects),
                   description: "Every item of an array matches the nested value or predicates (an empty array passes).",
                   example: "each: { type: object }"),
        absence: .needsList
    ) { _, input in
        guard let actual = input.value else { return .holds }
        guard case .array(let items) = actual else { return .needs("each", "an array", actual) }
        return .eachNested(items)
    }

    static let schema = PredicateDefinition(
        CheckShape(key: "schema", operand: .schema,
                   description: "Valid against a JSON Schema (draft 2020-12 or draft-07), a file path or an inline mapping.",
                   example: "schema: { type: object, required: [id] }")
    ) { _, input in
        guard let actual = input.value else { return .holds }
        return .schema(actual)
    }

    static let uuid = format("uuid", "a UUID", noun: "UUID", "Whether the value is a UUID in 8-4-4-4-12 hex form.", example: "uuid: true",
                             isValid: isUUID)
    static let isoDate = format("iso_date", "an ISO 8601 date", noun: "ISO 8601 date", "Whether the value is a date (2026-11-30) or an RFC 3339 date-time.",
                                example: "iso_date: true", isValid: isISODate)

    static let not = PredicateDefinition(
        CheckShape(key: "not", operand: .matcher(.inherited), description: "The nested value or predicates must not hold.",
                   example: "not: { contains: error }"),
        absence: .decidesWhenNestedDoes
    ) { _, _ in
        .negated("expected the 'not' condition to fail, but it held", expected: .words("not (…)"))
    }

    // `all` and `any` decide on a missing value: their nested matchers each say what nothing
    // means to them (`any: [{ exists: false }, { gt: 0 }]` holds when there is no value).
    static let allOf = PredicateDefinition(
        CheckShape(key: "all", operand: .matchers(.inherited),
                   description: "Every nested value or predicate map of the list must hold (more than one check on one path).",
                   example: "all: [{ starts_with: a }, { ends_with: z }]"),
        absence: .decides
    ) { _, _ in
        .everyMatcher
    }

    static let anyOf = PredicateDefinition(
        CheckShape(key: "any", operand: .matchers(.inherited),
                   description: "At least one nested value or predicate map of the list must hold.",
                   example: "any: [null, { type: string }]"),
        absence: .decides
    ) { _, _ in
        .someMatcher("expected at least one of the 'any' conditions to hold, but none did", expected: .words("any of (…)"))
    }

    /// `uuid: true`: a string in a format; `uuid: false` holds for anything else, strings or not.
    private static func format(_ key: String, _ name: String, noun: String, _ description: String, example: String,
                               isValid: @escaping @Sendable (String) -> Bool) -> PredicateDefinition {
        PredicateDefinition(CheckShape(key: key, operand: .flag, description: description, example: example),
                            checksOneValue: { _ in true }) { operand, input in
            guard case .flag(let shouldBe) = operand, let actual = input.value else { return .holds }
            guard case .string(let s) = actual else { return shouldBe ? .needs(key, "a string", actual) : .holds }
            guard isValid(s) != shouldBe else { return .holds }
            return .fails(shouldBe ? "expected \(name), got \(actual.shortText)" : "expected no \(noun)",
                          expected: .words(shouldBe ? name : "not \(name)"))
        }
    }

    static func isUUID(_ s: String) -> Bool {
        let groups = s.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}

extension JSONType {
    /// Whether `value` is of this type.
    func describes(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case (.string, .string), (.boolean, .bool), (.array, .array), (.object, .object), (.null, .null), (.number, .number): true
        case (.integer, .number(let n)): n.isInteger
        // By the number's text, which a JSON number keeps: `-3.0` and `1e3` are floats (and integers).
        case (.float, .number(let n)): n.text.utf8.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
        case (.collection, .array), (.collection, .object): true
        default: false
        }
    }
}

extension JSONValue {
    /// Characters of a string, items of an array, keys of an object; nil for other values.
    var size: Int? {
        switch self {
        case .string(let s): s.count
        case .array(let a): a.count
        case .object(let o): o.count
        default: nil
        }
    }
}
