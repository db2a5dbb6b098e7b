import CourierJSON

/// Equality and order: `eq`, `ne`, `gt`, `gte`, `lt`, `lte`, `close_to`, `before`, `after`.
extension PredicateDefinition {
    /// In the order suggestions and `courier schema` list them.
    static let comparison: [PredicateDefinition] = [eq, ne, gt, gte, lt, lte, closeTo, before, after]

    static let eq = PredicateDefinition(
        CheckShape(key: "eq", operand: .comparable,
                   description: "Equal to the value (JSON equality: 1 equals 1.0, object key order is ignored).",
                   example: "eq: 42"),
        checksOneValue: \.isLiteralScalar
    ) { operand, input in
        guard case .value(let expected) = operand, let actual = input.value else { return .holds }
        return actual == expected ? .holds : .fails("expected \(expected.shortText), got \(actual.shortText)", expected: .value(expected))
    }

    static let ne = PredicateDefinition(
        CheckShape(key: "ne", operand: .comparable, description: "Anything but the value.", example: "ne: 0"),
        checksOneValue: \.isLiteralScalar
    ) { operand, input in
        guard case .value(let expected) = operand, let actual = input.value else { return .holds }
        return actual == expected ? .fails("expected anything but \(expected.shortText)", expected: .value(expected, after: "≠")) : .holds
    }

    static let gt = ordering("gt", ">", "Greater than the value (two numbers or two strings).", example: "gt: 0") { $0 > 0 }
    static let gte = ordering("gte", ">=", "Greater than or equal to the value.", example: "gte: 1") { $0 >= 0 }
    static let lt = ordering("lt", "<", "Less than the value; under `duration:` a duration like `500ms`.", example: "lt: 500ms") { $0 < 0 }
    static let lte = ordering("lte", "<=", "Less than or equal to the value.", example: "lte: 100") { $0 <= 0 }

    /// For the results of floating-point arithmetic, which `eq` cannot meet (`0.1 + 0.2`).
    /// Compared as doubles: a number past a double's range is never close to anything.
    static let closeTo = PredicateDefinition(
        CheckShape(key: "close_to",
                   operand: .fields([
                       FieldShape(key: "value", operand: .number(minimum: nil), description: "the number to be close to"),
                       FieldShape(key: "within", operand: .number(minimum: 0), description: "the largest distance allowed, at least 0"),
                   ]),
                   description: "A number at most `within` away from `value`: |actual − value| ≤ within.",
                   example: "close_to: { value: 0.3, within: 1e-9 }"),
        checksOneValue: { _ in true }
    ) { operand, input in
        // The engine has checked the operand against the shape: both fields are numbers.
        guard case .value(.object(let fields)) = operand, case .number(let value)? = fields["value"],
              case .number(let within)? = fields["within"], let actual = input.value else { return .holds }
        guard case .number(let number) = actual else { return .needs("close_to", "a number", actual) }
        guard abs(number.doubleValue - value.doubleValue) <= within.doubleValue else {
            return .fails("expected within \(within.text) of \(value.text), got \(number.text)",
                          expected: .value(.number(value), after: "within \(within.text) of"))
        }
        return .holds
    }

    static let before = chronological("before", "A date earlier than the operand's, as instants (offsets and HTTP dates included).",
                                      example: "before: '2030-01-01T00:00:00Z'") { $0 < $1 }
    static let after = chronological("after", "A date later than the operand's, as instants; the operand may be a template.",
                                     example: "after: \"{{ '2020-01-01' | to_date }}\"") { $0 > $1 }

    /// `before` and `after`: both sides are dates as `to_date` reads them without a format,
    /// compared as instants, so `2026-01-01T01:00:00+02:00` is before `2026-01-01T00:00:00Z`.
    private static func chronological(_ key: String, _ description: String, example: String,
                                      holds: @escaping @Sendable (DateInstant, DateInstant) -> Bool) -> PredicateDefinition {
        PredicateDefinition(CheckShape(key: key, operand: .date, description: description, example: example),
                            checksOneValue: { _ in true }) { operand, input in
            // The operand has been checked against the shape, at load or once rendered.
            guard case .value(let written) = operand, let actual = input.value,
                  let bound = (try? DateText.instant(of: written)) ?? nil else { return .holds }
            let expected = Verdict.Expected.value(written, after: key)
            let found: DateInstant?
            do throws(DateProblem) { found = try DateText.instant(of: actual) } catch {
                return .fails("'\(key)' needs a date, and \(actual.shortText) is not one: \(error.reason)", expected: expected)
            }
            guard let found else { return .needs(key, "a date (a string or a number of seconds)", actual) }
            guard holds(found, bound) else {
                // Both as instants too, when written otherwise: the reader sees why they compare as they do.
                let shownActual = actual == .string(found.rfc3339) ? actual.shortText : "\(actual.shortText) (\(found.rfc3339))"
                return .fails("expected \(key) \(bound.rfc3339), got \(shownActual)", expected: expected)
            }
            return .holds
        }
    }

    /// `gt` and its kin: numbers by value, strings by code point.
    private static func ordering(_ key: String, _ symbol: String, _ description: String, example: String,
                                 holds: @escaping @Sendable (Int) -> Bool) -> PredicateDefinition {
        PredicateDefinition(CheckShape(key: key, operand: .comparable, description: description, example: example),
                            checksOneValue: { _ in true }) { operand, input in
            guard case .value(let expected) = operand, let actual = input.value else { return .holds }
            guard let order = JSONValue.order(actual, expected) else {
                if case .number = expected { return .needs(key, "a number", actual) }
                return .needs(key, "two numbers or two strings", actual)
            }
            return holds(order) ? .holds : .fails("expected \(symbol) \(expected.shortText), got \(actual.shortText)",
                                                  expected: .value(expected, after: symbol))
        }
    }
}

extension PredicateOperand {
    /// A plain scalar without templates: `eq: 3` on a list can never hold.
    var isLiteralScalar: Bool {
        guard case .value(let value, _) = self else { return false }
        switch value.kind {
        case .null, .bool, .number: return true
        case .string(let template): return template.literalText != nil
        case .array, .object: return false
        }
    }
}
