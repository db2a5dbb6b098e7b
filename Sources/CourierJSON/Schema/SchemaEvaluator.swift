/// One validation run: walks the program over an instance, collecting violations and, when the
/// program uses `unevaluated*`, the annotations those keywords need.
///
/// A class with stacks (instance path, keyword path, dynamic scope) so sub-evaluations share
/// one violation buffer; branches whose failures do not count (`anyOf`, `not`, `if`…) truncate it.
final class SchemaEvaluator {
    private let program: SchemaProgram
    private let annotate: Bool
    private(set) var violations: [JSONSchemaViolation] = []
    private var instancePath: [InstanceToken] = []
    private var keywordPath: [String] = []
    private var dynamicScope: [Int] = []
    /// `$ref` targets being evaluated, with the instance depth: meeting one again at the same
    /// depth (so the same value) is a cycle that would never end.
    private var activeRefs: Set<RefVisit> = []
    /// How many subschemas are being applied, one inside the other.
    private var applyDepth = 0
    /// The most subschemas applied one inside the other: half of ``NestingLimit/maxDepth``.
    ///
    /// One level takes about 10 KB of stack in a debug build (measured with `ulimit -s`:
    /// a 512-long `$ref` chain needed 4–6 MB of the 8 MB the checks run on), 256 about 3 MB.
    static let maxApplyDepth = NestingLimit.maxDepth / 2

    private enum InstanceToken {
        case key(String)
        case index(Int)
    }

    private struct RefVisit: Hashable {
        var node: Int
        var depth: Int
    }

    /// What a subschema evaluated at its instance location, for `unevaluated*`.
    struct Evaluated {
        var allProperties = false
        var properties: Set<ExactKey> = []
        var allItems = false
        var itemPrefix = 0
        var items: Set<Int> = []

        mutating func merge(_ other: Evaluated) {
            allProperties = allProperties || other.allProperties
            if !allProperties { properties.formUnion(other.properties) }
            allItems = allItems || other.allItems
            itemPrefix = max(itemPrefix, other.itemPrefix)
            if !allItems { items.formUnion(other.items) }
        }

        func contains(property: String) -> Bool { allProperties || properties.contains(ExactKey(property)) }
        func contains(item: Int) -> Bool { allItems || item < itemPrefix || items.contains(item) }
    }

    init(program: SchemaProgram) {
        self.program = program
        self.annotate = program.needsAnnotations
    }

    // MARK: - Nodes

    /// Evaluates node `index` against `instance` at the current paths; returns whether it
    /// passed and what it evaluated.
    @discardableResult
    func evaluate(_ index: Int, _ instance: JSONValue) -> (valid: Bool, evaluated: Evaluated) {
        let node = program.nodes[index]
        switch node.body {
        case .always(true):
            return (true, Evaluated())
        case .always(false):
            report("false", "\(Self.quote(instance)) is not allowed here (the schema is 'false')")
            return (false, Evaluated())
        case .keywords(let keywords):
            let entered = dynamicScope.last != node.resource
            if entered { dynamicScope.append(node.resource) }
            defer { if entered { dynamicScope.removeLast() } }
            let start = violations.count
            var evaluated = Evaluated()
            for keyword in keywords {
                keywordPath.append(keyword.name)
                check(keyword.check, instance, &evaluated)
                keywordPath.removeLast()
            }
            return (violations.count == start, evaluated)
        case .metaschema(let draft):
            return checkSchema(instance, draft: draft)
        }
    }

    /// The built-in metaschema of `draft`: reports each keyword value of the wrong shape in
    /// `instance`, subschemas included, under a keyword location that mirrors a metaschema
    /// (`…/$ref/properties/minLength/minimum`).
    private func checkSchema(_ instance: JSONValue, draft: JSONSchema.Draft) -> (valid: Bool, evaluated: Evaluated) {
        let shape = SchemaShape(dialect: SchemaCompiler.Dialect(draft: draft))
        let problems = shape.problems(inSchema: instance)
        for problem in problems {
            report(problem.keyword, tokens: problem.rule, at: problem.pointer, problem.message)
        }
        var evaluated = Evaluated()
        // The metaschema's `properties` evaluate the keywords of the draft.
        if annotate, problems.isEmpty, case .object(let object) = instance {
            for key in object.keys where shape.isKeyword(key) { evaluated.properties.insert(ExactKey(key)) }
        }
        return (problems.isEmpty, evaluated)
    }

    /// Evaluates `child` in place of a parent keyword: `tokens` extend the keyword location,
    /// `token` the instance location; the schema `false` is reported as `falseMessage`.
    @discardableResult
    private func apply(_ child: Int, _ instance: JSONValue, tokens: [String] = [], at token: InstanceToken? = nil,
                       whenFalse falseMessage: @autoclosure () -> String) -> (valid: Bool, evaluated: Evaluated) {
        keywordPath += tokens
        if let token { instancePath.append(token) }
        applyDepth += 1
        defer {
            keywordPath.removeLast(tokens.count)
            if token != nil { instancePath.removeLast() }
            applyDepth -= 1
        }
        if applyDepth > Self.maxApplyDepth {
            // A long `$ref` chain or a recursive schema over a deep value: stop before the stack does.
            report(keywordPath.last ?? "", "subschemas \(NestingLimit.tooDeep(limit: Self.maxApplyDepth)) (a long '$ref' chain, or a recursive schema over a deep value)")
            return (false, Evaluated())
        }
        if case .always(false) = program.nodes[child].body {
            report(keywordPath[keywordPath.count - 1 - tokens.count], falseMessage())
            return (false, Evaluated())
        }
        return evaluate(child, instance)
    }

    /// Runs `body` and throws away the violations it adds.
    private func quietly<T>(_ body: () -> T) -> T {
        let start = violations.count
        defer { violations.removeSubrange(start...) }
        return body()
    }

    // MARK: - Keywords

    /// Dispatches to the keywords that apply subschemas and those that only assert.
    ///
    /// Split so the recursive path (applicator → apply → evaluate → check) does not carry
    /// the assertions' locals: in a debug build the single switch took a 13 KB stack frame
    /// per keyword level, and a recursive schema over a 300-deep value overflowed 8 MB.
    private func check(_ check: SchemaKeyword.Check, _ instance: JSONValue, _ evaluated: inout Evaluated) {
        switch check {
        case .contains, .dependentSchemas, .properties, .patternProperties, .additionalProperties, .propertyNames,
             .prefixItems, .items, .allOf, .anyOf, .oneOf, .not, .conditional, .ref, .dynamicRef,
             .unevaluatedProperties, .unevaluatedItems:
            applicator(check, instance, &evaluated)
        default:
            assertion(check, instance, &evaluated)
        }
    }

    /// Keywords that check the instance itself.
    private func assertion(_ check: SchemaKeyword.Check, _ instance: JSONValue, _ evaluated: inout Evaluated) {
        switch check {
        case .type(let types):
            if !types.contains(where: { $0.matches(instance) }) {
                let names = types.map { "'\($0.rawValue)'" }.joined(separator: " or ")
                report("\(Self.quote(instance)) is not of type \(names)")
            }
        case .enumeration(let values):
            if !values.contains(instance) {
                report("\(Self.quote(instance)) is not one of \(Self.quote(.array(values)))")
            }
        case .const(let value):
            if value != instance { report("\(Self.quote(instance)) is not the constant \(Self.quote(value))") }
        case .multipleOf(let divisor):
            if case .number(let n) = instance, !Self.isMultiple(n, of: divisor) {
                report("\(n) is not a multiple of \(divisor)")
            }
        case .maximum(let limit):
            if case .number(let n) = instance, limit < n { report("\(n) is greater than the maximum \(limit)") }
        case .exclusiveMaximum(let limit):
            if case .number(let n) = instance, !(n < limit) { report("\(n) is not less than the exclusive maximum \(limit)") }
        case .minimum(let limit):
            if case .number(let n) = instance, n < limit { report("\(n) is less than the minimum \(limit)") }
        case .exclusiveMinimum(let limit):
            if case .number(let n) = instance, !(limit < n) { report("\(n) is not greater than the exclusive minimum \(limit)") }
        case .maxLength(let limit):
            if case .string(let s) = instance, s.unicodeScalars.count > limit {
                report("\(Self.quote(instance)) is longer than \(limit) character\(limit == 1 ? "" : "s")")
            }
        case .minLength(let limit):
            if case .string(let s) = instance, s.unicodeScalars.count < limit {
                report("\(Self.quote(instance)) is shorter than \(limit) character\(limit == 1 ? "" : "s")")
            }
        case .pattern(let regex):
            guard case .string(let s) = instance else { return }
            do {
                if try !regex.matches(s) {
                    report("\(Self.quote(instance)) does not match the pattern '\(regex.source)'")
                }
            } catch {
                report("\(Self.quote(instance)) cannot be checked against the pattern '\(regex.source)': \(error)")
            }
        case .maxItems(let limit):
            if case .array(let a) = instance, a.count > limit {
                report("the array has \(a.count) items, more than the maximum \(limit)")
            }
        case .minItems(let limit):
            if case .array(let a) = instance, a.count < limit {
                report("the array has \(a.count) item\(a.count == 1 ? "" : "s"), fewer than the minimum \(limit)")
            }
        case .uniqueItems:
            if case .array(let a) = instance {
                var seen: [JSONValue: Int] = [:]
                for (i, item) in a.enumerated() {
                    if let first = seen.updateValue(i, forKey: item) {
                        report("items \(first) and \(i) are equal (\(Self.quote(item))); items must be unique")
                        break
                    }
                }
            }
        case .maxProperties(let limit):
            if case .object(let o) = instance, o.count > limit {
                report("the object has \(o.count) properties, more than the maximum \(limit)")
            }
        case .minProperties(let limit):
            if case .object(let o) = instance, o.count < limit {
                report("the object has \(o.count) propert\(o.count == 1 ? "y" : "ies"), fewer than the minimum \(limit)")
            }
        case .required(let names):
            guard case .object(let o) = instance else { return }
            for name in names where o[name] == nil { report("required property '\(name)' is missing") }
        case .dependentRequired(let dependencies):
            guard case .object(let o) = instance else { return }
            for (property, names) in dependencies where o[property] != nil {
                for name in names where o[name] == nil {
                    report(tokens: [property], "property '\(name)' is required when '\(property)' is present")
                }
            }
        default:
            break
        }
    }

    /// Keywords that apply subschemas (the recursive ones).
    private func applicator(_ check: SchemaKeyword.Check, _ instance: JSONValue, _ evaluated: inout Evaluated) {
        switch check {
        case .contains(let child, let minimum, let maximum):
            guard case .array(let a) = instance else { return }
            var matches: [Int] = []
            quietly {
                for (i, item) in a.enumerated() {
                    instancePath.append(.index(i))
                    if evaluate(child, item).valid { matches.append(i) }
                    instancePath.removeLast()
                }
            }
            if annotate { evaluated.items.formUnion(matches) }
            if matches.count < minimum {
                report(minimum == 1 && matches.isEmpty
                       ? "no item of the array matches the 'contains' schema"
                       : "\(matches.count) item\(matches.count == 1 ? "" : "s") of the array match the 'contains' schema, fewer than minContains \(minimum)")
            } else if let maximum, matches.count > maximum {
                report("\(matches.count) items of the array match the 'contains' schema, more than maxContains \(maximum)")
            }
        case .dependentSchemas(let dependencies):
            guard case .object(let o) = instance else { return }
            for (property, schema) in dependencies where o[property] != nil {
                let outcome = apply(schema, instance, tokens: [property],
                                    whenFalse: "property '\(property)' is not allowed")
                if outcome.valid && annotate { evaluated.merge(outcome.evaluated) }
            }
        case .properties(let schemas):
            guard case .object(let o) = instance else { return }
            for (name, schema) in schemas {
                guard let value = o[name] else { continue }
                apply(schema, value, tokens: [name], at: .key(name), whenFalse: "property '\(name)' is not allowed")
                if annotate { evaluated.properties.insert(ExactKey(name)) }
            }
        case .patternProperties(let schemas):
            guard case .object(let o) = instance else { return }
            for (regex, schema) in schemas {
                for (name, value) in o where patternMatches(regex, name) {
                    apply(schema, value, tokens: [regex.source], at: .key(name),
                          whenFalse: "property '\(name)' is not allowed (it matches '\(regex.source)')")
                    if annotate { evaluated.properties.insert(ExactKey(name)) }
                }
            }
        case .additionalProperties(let schema, let known, let patterns):
            guard case .object(let o) = instance else { return }
            for (name, value) in o where !known.contains(ExactKey(name)) && !patterns.contains(where: { patternMatches($0, name) }) {
                apply(schema, value, at: .key(name), whenFalse: Self.notAllowed(name, known: known))
                if annotate { evaluated.properties.insert(ExactKey(name)) }
            }
        case .propertyNames(let schema):
            guard case .object(let o) = instance else { return }
            for name in o.keys {
                apply(schema, .string(name), whenFalse: "property '\(name)' is not allowed (no name is)")
            }
        case .prefixItems(let schemas):
            guard case .array(let a) = instance else { return }
            for (i, item) in a.prefix(schemas.count).enumerated() {
                apply(schemas[i], item, tokens: [String(i)], at: .index(i),
                      whenFalse: "item \(i) is not allowed")
            }
            if annotate { evaluated.itemPrefix = max(evaluated.itemPrefix, min(a.count, schemas.count)) }
        case .items(let schema, let start):
            guard case .array(let a) = instance, a.count > start else { return }
            for i in start..<a.count {
                apply(schema, a[i], at: .index(i),
                      whenFalse: "item \(i) is not allowed: the array may have at most \(start) item\(start == 1 ? "" : "s")")
            }
            if annotate { evaluated.allItems = true }
        case .allOf(let schemas):
            for (i, schema) in schemas.enumerated() {
                let outcome = apply(schema, instance, tokens: [String(i)],
                                    whenFalse: "\(Self.quote(instance)) is not allowed (allOf/\(i) is 'false')")
                if outcome.valid && annotate { evaluated.merge(outcome.evaluated) }
            }
        case .anyOf(let schemas):
            var matched = false
            quietly {
                for (i, schema) in schemas.enumerated() {
                    let outcome = apply(schema, instance, tokens: [String(i)], whenFalse: "")
                    if outcome.valid {
                        matched = true
                        if annotate { evaluated.merge(outcome.evaluated) } else { break }
                    }
                }
            }
            if !matched {
                report("\(Self.quote(instance)) does not match any of the \(schemas.count) schemas in 'anyOf'")
            }
        case .oneOf(let schemas):
            var passing: [Int] = []
            var passed = Evaluated()
            quietly {
                for (i, schema) in schemas.enumerated() {
                    let outcome = apply(schema, instance, tokens: [String(i)], whenFalse: "")
                    if outcome.valid {
                        passing.append(i)
                        passed = outcome.evaluated
                    }
                }
            }
            if passing.count == 1 {
                if annotate { evaluated.merge(passed) }
            } else if passing.isEmpty {
                report("\(Self.quote(instance)) does not match any of the \(schemas.count) schemas in 'oneOf'")
            } else {
                let list = passing.map(String.init).joined(separator: ", ")
                report("\(Self.quote(instance)) matches \(passing.count) schemas in 'oneOf' (\(list)), not exactly one")
            }
        case .not(let schema):
            let matched = quietly { apply(schema, instance, whenFalse: "").valid }
            if matched { report("\(Self.quote(instance)) must not match the 'not' schema") }
        case .conditional(let ifNode, let thenNode, let elseNode):
            let condition = quietly { evaluate(ifNode, instance) }
            if condition.valid && annotate { evaluated.merge(condition.evaluated) }
            guard let branch = condition.valid ? thenNode : elseNode else { return }
            // `then` and `else` are keywords of their own, not children of `if`.
            keywordPath[keywordPath.count - 1] = condition.valid ? "then" : "else"
            defer { keywordPath[keywordPath.count - 1] = "if" }
            let outcome = apply(branch, instance, whenFalse: condition.valid
                ? "\(Self.quote(instance)) is not allowed (it matches 'if' and 'then' is 'false')"
                : "\(Self.quote(instance)) is not allowed (it does not match 'if' and 'else' is 'false')")
            if outcome.valid && annotate { evaluated.merge(outcome.evaluated) }
        case .ref(let target):
            follow(target, instance, &evaluated)
        case .dynamicRef(let target, let anchor):
            var resolved = target
            if let anchor {
                for resource in dynamicScope {
                    if let node = program.resources[resource].dynamicAnchors[anchor] {
                        resolved = node
                        break
                    }
                }
            }
            follow(resolved, instance, &evaluated)
        case .unevaluatedProperties(let schema):
            guard case .object(let o) = instance else { return }
            for (name, value) in o where !evaluated.contains(property: name) {
                apply(schema, value, at: .key(name), whenFalse: "property '\(name)' is not allowed (no subschema evaluates it)")
            }
            evaluated.allProperties = true
        case .unevaluatedItems(let schema):
            guard case .array(let a) = instance else { return }
            for (i, item) in a.enumerated() where !evaluated.contains(item: i) {
                apply(schema, item, at: .index(i), whenFalse: "item \(i) is not allowed (no subschema evaluates it)")
            }
            evaluated.allItems = true
        default:
            break
        }
    }
    private func follow(_ target: Int, _ instance: JSONValue, _ evaluated: inout Evaluated) {
        let visit = RefVisit(node: target, depth: instancePath.count)
        guard activeRefs.insert(visit).inserted else {
            report("'\(keywordPath.last ?? "$ref")' loops back to a schema already being applied to this value")
            return
        }
        defer { activeRefs.remove(visit) }
        let outcome = apply(target, instance, whenFalse: "\(Self.quote(instance)) is not allowed (the referenced schema is 'false')")
        if outcome.valid && annotate { evaluated.merge(outcome.evaluated) }
    }

    // MARK: - Reporting

    /// Whether a property name matches; a name the budget cannot decide is reported as a
    /// violation (and counts as matching, so it is not also reported as an additional property).
    private func patternMatches(_ regex: ECMARegex, _ name: String) -> Bool {
        do {
            return try regex.matches(name)
        } catch {
            report("property name '\(name)' cannot be checked against the pattern '\(regex.source)': \(error)")
            return true
        }
    }

    private func report(tokens: [String] = [], _ message: String) {
        report(keywordPath.last ?? "", tokens: tokens, message)
    }

    /// Reports a violation of `keyword`; `tokens` extend the keyword location, `pointer` the
    /// instance location.
    private func report(_ keyword: String, tokens: [String] = [], at pointer: [String] = [], _ message: String) {
        var location = ""
        for token in keywordPath + tokens { location += "/" + JSONPointer.escape(token) }
        var instanceLocation = ""
        for token in instancePath {
            switch token {
            case .key(let key): instanceLocation += "/" + JSONPointer.escape(key)
            case .index(let i): instanceLocation += "/\(i)"
            }
        }
        for token in pointer { instanceLocation += "/" + JSONPointer.escape(token) }
        violations.append(JSONSchemaViolation(instanceLocation: instanceLocation, keywordLocation: location,
                                              keyword: keyword, message: message))
    }

    private static func notAllowed(_ name: String, known: Set<ExactKey>) -> String {
        guard !known.isEmpty else { return "property '\(name)' is not allowed" }
        let names = known.map(\.string).sorted()
        let listed = names.prefix(8).map { "'\($0)'" }.joined(separator: ", ")
        return "property '\(name)' is not allowed (expected \(names.count == 1 ? "" : "one of ")\(listed)\(names.count > 8 ? ", …" : ""))"
    }

    /// `value` as compact JSON, shortened to about 60 characters.
    static func quote(_ value: JSONValue) -> String {
        let text = value.serialized()
        guard text.unicodeScalars.count > 64 else { return text }
        var short = String(String.UnicodeScalarView(text.unicodeScalars.prefix(60)))
        short += "…"
        return short
    }

    // MARK: - Numbers

    /// Whether `value` is an integer multiple of `divisor` (> 0), exactly on the decimal values.
    static func isMultiple(_ value: JSONNumber, of divisor: JSONNumber) -> Bool {
        let a = ExactDecimal(value.text)
        let b = ExactDecimal(divisor.text)
        if a.digits.isEmpty { return true }
        // a = A·10^ea, b = B·10^eb: a/b is an integer iff A·10^(ea−e) is divisible by B·10^(eb−e)
        // with e = min(ea, eb).
        let e = min(a.exponent, b.exponent)
        let aZeros = a.exponent - e
        let bZeros = b.exponent - e
        // The divisor's digits with its zeros must fit comfortably in UInt64 (r·10 + 9 < 2^64).
        if b.digits.count + bZeros <= 18 && aZeros <= 100_000 {
            var divisorValue: UInt64 = 0
            for d in b.digits { divisorValue = divisorValue * 10 + UInt64(d) }
            for _ in 0..<bZeros { divisorValue *= 10 }
            var remainder: UInt64 = 0
            for d in a.digits { remainder = (remainder * 10 + UInt64(d)) % divisorValue }
            for _ in 0..<aZeros {
                if remainder == 0 { return true }
                remainder = (remainder * 10) % divisorValue
            }
            return remainder == 0
        }
        // Divisors with more than 18 significant digits: the nearest doubles will do.
        let quotient = value.doubleValue / divisor.doubleValue
        return quotient.isFinite && quotient == quotient.rounded()
    }
}
