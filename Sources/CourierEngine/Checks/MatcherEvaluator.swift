import CourierDiagnostics
import CourierJSON
import CourierResults
import CourierWorkflow
import Foundation

/// Checks a value against a plain value or a map of predicates (spec section 7).
///
/// `actual == nil` means "nothing there" (a singular JSONPath that matched no node, a
/// missing header): only `exists: false` passes then. A `nodelist` is the list a
/// non-singular JSONPath always gives: for it `exists` means "at least one match".
struct MatcherEvaluator {
    let renderer: TemplateRenderer
    /// For `expect.duration`: operands like `500ms` are durations in milliseconds.
    var durationOperands = false

    func check(_ matcher: Matcher, actual: JSONValue?, subject: String, nodelist: Bool = false) -> [ExpectationResult] {
        switch matcher {
        case .equals(let expectedValue):
            let expected: JSONValue
            do { expected = try operand(expectedValue) } catch { return [templateFailure(error, subject: subject)] }
            guard let actual else {
                return [ExpectationResult.failure(location: expectedValue.range, subject: subject,
                                         message: "\(subject): expected \(Self.short(expected)), but there is no value",
                                         expectedValue: .value(expected), actualValue: .nothing)]
            }
            if Self.equal(actual, expected) { return [] }
            // Keys sorted on both sides: equality ignores key order, so the
            // reporters' line diff should not show reordered keys as changes.
            return [ExpectationResult.failure(location: expectedValue.range, subject: subject,
                                     message: "\(subject): expected \(Self.short(expected)), got \(Self.short(actual))",
                                     expectedValue: .value(Self.sortingKeys(expected)), actualValue: .value(Self.sortingKeys(actual)))]
        case .predicates(let predicates, let range):
            guard actual == nil else {
                return predicates.flatMap { check($0, actual: actual, subject: subject, nodelist: nodelist) }
            }
            // Nothing there: only `exists: false` (or its spelling `not: { exists: true }`)
            // can pass. Anything else is one "no value" failure, not one per predicate.
            var failures: [ExpectationResult] = []
            var needsValue = false
            var needsList = false
            for predicate in predicates {
                switch predicate.kind {
                case .exists:
                    failures += check(predicate, actual: nil, subject: subject)
                case .not(let inner) where Self.onlyExistence(inner):
                    failures += check(predicate, actual: nil, subject: subject)
                case .each:
                    needsValue = true
                    needsList = true
                default:
                    needsValue = true
                }
            }
            if needsValue {
                // `each` holds on an empty list, but nothing at all is not an empty list.
                let why = needsList ? " ('each' needs a list)" : ""
                failures.append(ExpectationResult.failure(location: range, subject: subject,
                                                 message: "\(subject): there is no value to check\(why)",
                                                 expected: needsList ? "a list" : "a value", actual: "(nothing)"))
            }
            return failures
        }
    }

    /// Whether a matcher only asks about existence, so it can be decided without a value.
    private static func onlyExistence(_ matcher: Matcher) -> Bool {
        guard case .predicates(let predicates, _) = matcher else { return false }
        return predicates.allSatisfy { predicate in
            switch predicate.kind {
            case .exists: true
            case .not(let inner): onlyExistence(inner)
            default: false
            }
        }
    }

    // MARK: - One predicate

    private func check(_ predicate: CourierWorkflow.Predicate, actual: JSONValue?, subject: String, nodelist: Bool = false) -> [ExpectationResult] {
        let range = predicate.range
        func fail(_ message: String, expected: CheckedValue? = nil) -> [ExpectationResult] {
            [ExpectationResult.failure(location: range, subject: subject, message: "\(subject): \(message)",
                                       expectedValue: expected, actualValue: actual.map { .value($0) } ?? .nothing)]
        }
        func typeMismatch(_ name: String, needs: String) -> [ExpectationResult] {
            fail("'\(name)' needs \(needs), but the value is \(actual.map(ExpressionEvaluator.describe) ?? "missing")")
        }

        if case .exists(let shouldExist) = predicate.kind {
            if nodelist {
                let matched = actual?.arrayValue?.isEmpty == false
                return matched == shouldExist ? [] : fail(shouldExist ? "expected at least one match, found none" : "expected no match, found \(actual.map(Self.short) ?? "")", expected: .words(shouldExist ? "at least one match" : "no match"))
            }
            return (actual != nil) == shouldExist ? [] : fail(shouldExist ? "expected a value, found none" : "expected no value, found \(actual.map(Self.short) ?? "")", expected: .words(shouldExist ? "exists" : "does not exist"))
        }
        if case .not(let inner) = predicate.kind {
            return check(inner, actual: actual, subject: subject, nodelist: nodelist).isEmpty
                ? fail("expected the 'not' condition to fail, but it held", expected: .words("not (…)")) : []
        }
        guard let actual else { return [] }  // reported once by the caller

        do {
            switch predicate.kind {
            case .eq(let value):
                let expected = try operand(value)
                return Self.equal(actual, expected) ? [] : fail("expected \(Self.short(expected)), got \(Self.short(actual))", expected: .value(expected))
            case .ne(let value):
                let expected = try operand(value)
                return Self.equal(actual, expected) ? fail("expected anything but \(Self.short(expected))", expected: .value(expected, after: "≠")) : []
            case .gt(let v), .gte(let v), .lt(let v), .lte(let v):
                let expected = try operand(v)
                let (name, symbol, holds): (String, String, (Int) -> Bool) = switch predicate.kind {
                case .gt: ("gt", ">", { $0 > 0 })
                case .gte: ("gte", ">=", { $0 >= 0 })
                case .lt: ("lt", "<", { $0 < 0 })
                default: ("lte", "<=", { $0 <= 0 })
                }
                guard let order = ExpressionEvaluator.compare(actual, expected) else {
                    if case .number = expected {
                        return typeMismatch(name, needs: "a number")
                    }
                    return typeMismatch(name, needs: "two numbers or two strings")
                }
                return holds(order) ? [] : fail("expected \(symbol) \(Self.short(expected)), got \(Self.short(actual))", expected: .value(expected, after: symbol))
            case .in(let v), .notIn(let v):
                let expected = try operand(v)
                guard case .array(let options) = expected else {
                    return fail("'\(predicate.kind.name)' needs a list to look in, found \(ExpressionEvaluator.describe(expected))")
                }
                let found = options.contains { Self.equal($0, actual) }
                let wanted = { if case .in = predicate.kind { true } else { false } }()
                return found == wanted ? [] : fail(wanted ? "expected one of \(Self.short(expected)), got \(Self.short(actual))" : "expected none of \(Self.short(expected)), got \(Self.short(actual))", expected: .value(expected, after: wanted ? "one of" : "none of"))
            case .contains(let v), .notContains(let v):
                let expected = try operand(v)
                let wanted = { if case .contains = predicate.kind { true } else { false } }()
                let found: Bool
                switch (actual, expected) {
                case (.string(let s), .string(let part)): found = s.contains(part)
                case (.string(let s), .number), (.string(let s), .bool):
                    // `contains: 42` on text looks for the text "42", as `starts_with` does.
                    found = s.contains(TemplateRenderer.interpolation(expected))
                case (.array(let items), _): found = items.contains { Self.equal($0, expected) }
                case (.object(let object), .string(let key)): found = object[key] != nil
                case (.string, _), (.object, _):
                    return fail("'\(predicate.kind.name)' cannot look for \(ExpressionEvaluator.describe(expected)) in \(ExpressionEvaluator.describe(actual))")
                default: return typeMismatch(predicate.kind.name, needs: "a string, an array or an object")
                }
                return found == wanted ? [] : fail(wanted ? "expected to contain \(Self.short(expected))" : "expected not to contain \(Self.short(expected))", expected: .value(expected, after: wanted ? "contains" : "does not contain"))
            case .startsWith(let v), .endsWith(let v):
                let expected = try operand(v)
                guard case .string(let s) = actual else { return typeMismatch(predicate.kind.name, needs: "a string") }
                let part = TemplateRenderer.interpolation(expected)
                let starts = { if case .startsWith = predicate.kind { true } else { false } }()
                let holds = starts ? s.hasPrefix(part) : s.hasSuffix(part)
                return holds ? [] : fail("expected to \(starts ? "start" : "end") with \(Self.short(.string(part)))", expected: .value(.string(part), after: starts ? "starts with" : "ends with"))
            case .matches(let v, let compiled), .notMatches(let v, let compiled):
                guard case .string(let s) = actual else { return typeMismatch(predicate.kind.name, needs: "a string") }
                let regex: RegexPattern
                let pattern: String
                if let compiled {
                    regex = compiled
                    pattern = regex.source
                } else {
                    // A templated pattern is rendered and compiled when it is checked.
                    pattern = TemplateRenderer.interpolation(try operand(v))
                    do { regex = try RegexPattern(pattern, dialect: .workflow) } catch {
                        return fail("invalid regular expression /\(pattern)/: \(error)")
                    }
                }
                let found: Bool
                do { found = try regex.matches(s) } catch {
                    // The budget ran out: the check fails, naming why rather than guessing.
                    return fail("\(predicate.kind.name): \(error)")
                }
                let wanted = { if case .matches = predicate.kind { true } else { false } }()
                return found == wanted ? [] : fail(wanted ? "expected to match /\(pattern)/" : "expected not to match /\(pattern)/", expected: .words((wanted ? "matches /" : "does not match /") + pattern + "/"))
            case .type(let type):
                return Self.has(type, actual) ? [] : fail("expected \(Self.article(type.rawValue)), got \(ExpressionEvaluator.describe(actual))", expected: .words(type.rawValue))
            case .length(let inner):
                let count: Int
                switch actual {
                case .string(let s): count = s.count
                case .array(let a): count = a.count
                case .object(let o): count = o.count
                default: return typeMismatch("length", needs: "a string, an array or an object")
                }
                return check(inner, actual: .number(JSONNumber(count)), subject: "length of \(subject)")
            case .empty(let shouldBeEmpty):
                let isEmpty: Bool
                switch actual {
                case .string(let s): isEmpty = s.isEmpty
                case .array(let a): isEmpty = a.isEmpty
                case .object(let o): isEmpty = o.isEmpty
                case .null: isEmpty = true
                default: return typeMismatch("empty", needs: "a string, an array or an object")
                }
                return isEmpty == shouldBeEmpty ? [] : fail(shouldBeEmpty ? "expected to be empty" : "expected not to be empty", expected: .words(shouldBeEmpty ? "empty" : "not empty"))
            case .each(let inner):
                guard case .array(let items) = actual else { return typeMismatch("each", needs: "an array") }
                return items.enumerated().flatMap { index, item in check(inner, actual: item, subject: "\(subject)[\(index)]") }
            case .uuid(let shouldBe):
                guard case .string(let s) = actual else { return shouldBe ? typeMismatch("uuid", needs: "a string") : [] }
                return Self.isUUID(s) == shouldBe ? [] : fail(shouldBe ? "expected a UUID, got \(Self.short(actual))" : "expected no UUID", expected: .words(shouldBe ? "a UUID" : "not a UUID"))
            case .isoDate(let shouldBe):
                guard case .string(let s) = actual else { return shouldBe ? typeMismatch("iso_date", needs: "a string") : [] }
                return Self.isISODate(s) == shouldBe ? [] : fail(shouldBe ? "expected an ISO 8601 date, got \(Self.short(actual))" : "expected no ISO 8601 date", expected: .words(shouldBe ? "an ISO 8601 date" : "not an ISO 8601 date"))
            case .schema(let source):
                return SchemaChecker(renderer: renderer).check(source, instance: actual, subject: subject)
            case .exists, .not:
                return []
            }
        } catch {
            return [templateFailure(error, subject: subject)]
        }
    }

    // MARK: - Operands and values

    /// An expected value, resolved; `500ms` becomes 500 where durations are compared.
    func operand(_ value: TemplateValue) throws(EvaluationError) -> JSONValue {
        let resolved = try renderer.value(value)
        if durationOperands, case .string(let text) = resolved, let duration = Duration.parse(text) {
            // Same rule as a literal duration at load time (templates are only known now).
            guard duration >= Duration.shortestAllowed else {
                throw EvaluationError(.invalid, "duration '\(text)' is shorter than 1ms; write at least 1ms", at: value.range)
            }
            guard duration <= Duration.longestAllowed else {
                throw EvaluationError(.invalid, "duration '\(text)' is longer than \(Duration.longestAllowedText), the longest Courier accepts", at: value.range)
            }
            return .number(JSONNumber(Int(duration.wholeMilliseconds)))
        }
        return resolved
    }

    private func templateFailure(_ error: EvaluationError, subject: String) -> ExpectationResult {
        ExpectationResult.failure(location: error.range, subject: subject, message: "\(subject): \(error.message)")
    }

    /// JSON equality (`1 == 1.0`, key order ignored).
    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool { a == b }

    static func has(_ type: JSONType, _ value: JSONValue) -> Bool {
        switch (type, value) {
        case (.string, .string), (.boolean, .bool), (.array, .array), (.object, .object), (.null, .null), (.number, .number): true
        case (.integer, .number(let n)): n.isInteger
        default: false
        }
    }

    static func isUUID(_ s: String) -> Bool {
        let groups = s.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    /// A full date (`2026-11-30`) or an RFC 3339 date-time, with every field in range
    /// (Foundation's formatter would roll `2024-02-30` over to March).
    static func isISODate(_ s: String) -> Bool {
        let digits = Array(s.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= digits.count else { return nil }
            var value = 0
            for byte in digits[from..<(from + count)] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        func byte(_ index: Int) -> UInt8? { index < digits.count ? digits[index] : nil }
        guard let year = number(0, 4), byte(4) == UInt8(ascii: "-"), let month = number(5, 2),
              byte(7) == UInt8(ascii: "-"), let day = number(8, 2), (1...12).contains(month) else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...monthDays).contains(day) else { return false }
        if digits.count == 10 { return true }

        guard let t = byte(10), t == UInt8(ascii: "T") || t == UInt8(ascii: "t"),
              let hour = number(11, 2), byte(13) == UInt8(ascii: ":"), let minute = number(14, 2),
              byte(16) == UInt8(ascii: ":"), let second = number(17, 2),
              hour <= 23, minute <= 59, second <= 60 else { return false }
        var index = 19
        if byte(index) == UInt8(ascii: ".") {
            index += 1
            let start = index
            while let b = byte(index), (48...57).contains(b) { index += 1 }
            guard index > start else { return false }
        }
        guard let zone = byte(index) else { return false }
        if zone == UInt8(ascii: "Z") || zone == UInt8(ascii: "z") { return index + 1 == digits.count }
        guard zone == UInt8(ascii: "+") || zone == UInt8(ascii: "-"), let offsetHours = number(index + 1, 2),
              byte(index + 3) == UInt8(ascii: ":"), let offsetMinutes = number(index + 4, 2) else { return false }
        return offsetHours <= 23 && offsetMinutes <= 59 && index + 6 == digits.count
    }

    static func article(_ word: String) -> String {
        ["a", "e", "i", "o", "u"].contains(word.prefix(1)) ? "an \(word)" : "a \(word)"
    }

    /// One line, cut to a readable length, for messages.
    static func short(_ value: JSONValue) -> String {
        // Serialise only what can be shown: the value may be a 20 MB body.
        let (text, omitted) = value.serialized(maxBytes: 320)
        guard omitted > 0 || text.count > 80 else { return text }
        return String(text.prefix(77)) + "…"
    }

    /// The value with every object's keys in code-point order.
    static func sortingKeys(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            return .object(JSONObject(object.keys.sorted().compactMap { key in object[key].map { (key, sortingKeys($0)) } }))
        case .array(let items):
            return .array(items.map(sortingKeys))
        default:
            return value
        }
    }
}
