import CourierJSON

/// Membership, parts and patterns: `in`, `not_in`, `contains`, `not_contains`, `starts_with`,
/// `ends_with`, `matches`, `not_matches`.
extension PredicateDefinition {
    /// In the order suggestions and `courier schema` list them.
    static let containment: [PredicateDefinition] = [`in`, notIn, contains, notContains, startsWith, endsWith, matches, notMatches]

    static let `in` = membership("in", wanted: true, "Equal to one of the listed values.", example: "in: [active, pending]")
    static let notIn = membership("not_in", wanted: false, "Equal to none of the listed values.", example: "not_in: [deleted]")

    private static func membership(_ key: String, wanted: Bool, _ description: String, example: String) -> PredicateDefinition {
        PredicateDefinition(CheckShape(key: key, operand: .list, description: description, example: example)) { operand, input in
            guard case .value(let expected) = operand, let actual = input.value else { return .holds }
            guard case .array(let options) = expected else {
                return .fails("'\(key)' needs a list to look in, found \(expected.kindDescription)", expected: nil)
            }
            let found = options.contains { $0 == actual }
            guard found != wanted else { return .holds }
            return .fails(wanted ? "expected one of \(expected.shortText), got \(actual.shortText)"
                                 : "expected none of \(expected.shortText), got \(actual.shortText)",
                          expected: .value(expected, after: wanted ? "one of" : "none of"))
        }
    }

    static let contains = containing("contains", wanted: true,
                                     "A string containing the text, an array containing the value, or an object with the key.",
                                     example: "contains: admin")
    static let notContains = containing("not_contains", wanted: false, "The opposite of `contains`.", example: "not_contains: error")

    private static func containing(_ key: String, wanted: Bool, _ description: String, example: String) -> PredicateDefinition {
        PredicateDefinition(CheckShape(key: key, operand: .value, description: description, example: example)) { operand, input in
            guard case .value(let expected) = operand, let actual = input.value else { return .holds }
            let found: Bool
            switch (actual, expected) {
            case (.string(let s), .string(let part)): found = s.contains(part)
            case (.string(let s), .number), (.string(let s), .bool):
                // `contains: 42` on text looks for the text "42", as `starts_with` does.
                found = s.contains(expected.interpolationText)
            case (.array(let items), _): found = items.contains { $0 == expected }
            case (.object(let object), .string(let key)): found = object[key] != nil
            case (.string, _), (.object, _):
                return .fails("'\(key)' cannot look for \(expected.kindDescription) in \(actual.kindDescription)", expected: nil)
            default: return .needs(key, "a string, an array or an object", actual)
            }
            guard found != wanted else { return .holds }
            return .fails(wanted ? "expected to contain \(expected.shortText)" : "expected not to contain \(expected.shortText)",
                          expected: .value(expected, after: wanted ? "contains" : "does not contain"))
        }
    }

    static let startsWith = affix("starts_with", starts: true, "A string starting with the text.", example: "starts_with: \"https://\"")
    static let endsWith = affix("ends_with", starts: false, "A string ending with the text.", example: "ends_with: .json")

    private static func affix(_ key: String, starts: Bool, _ description: String, example: String) -> PredicateDefinition {
        PredicateDefinition(CheckShape(key: key, operand: .value, description: description, example: example),
                            checksOneValue: { _ in true }) { operand, input in
            guard case .value(let expected) = operand, let actual = input.value else { return .holds }
            guard case .string(let s) = actual else { return .needs(key, "a string", actual) }
            let part = expected.interpolationText
            let holds = starts ? s.hasPrefix(part) : s.hasSuffix(part)
            return holds ? .holds : .fails("expected to \(starts ? "start" : "end") with \(JSONValue.string(part).shortText)",
                                           expected: .value(.string(part), after: starts ? "starts with" : "ends with"))
        }
    }

    static let matches = pattern("matches", wanted: true,
                                 "A string matching the regular expression (a match anywhere; anchor with ^ and $).",
                                 example: "matches: \"^[0-9a-f]{8}$\"")
    static let notMatches = pattern("not_matches", wanted: false, "A string not matching the regular expression.",
                                    example: "not_matches: \"(?i)error\"")

    private static func pattern(_ key: String, wanted: Bool, _ description: String, example: String) -> PredicateDefinition {
        PredicateDefinition(CheckShape(key: key, operand: .regex, description: description, example: example),
                            checksOneValue: { _ in true }) { operand, input in
            guard case .regex(let regex) = operand, let actual = input.value else { return .holds }
            guard case .string(let s) = actual else { return .needs(key, "a string", actual) }
            let found: Bool
            do { found = try regex.matches(s) } catch {
                // The budget ran out: the check fails, naming why rather than guessing.
                return .fails("\(key): \(error)", expected: nil)
            }
            guard found != wanted else { return .holds }
            let pattern = regex.source
            return .fails(wanted ? "expected to match /\(pattern)/" : "expected not to match /\(pattern)/",
                          expected: .words((wanted ? "matches /" : "does not match /") + pattern + "/"))
        }
    }
}
