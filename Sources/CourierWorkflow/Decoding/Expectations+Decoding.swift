import CourierDiagnostics
import CourierJSON
import Foundation

extension WorkflowDecoder {
    static let expectKeys = ["status", "headers", "json", "body", "schema", "duration", "cookies"]

    /// How a matcher is read where it appears.
    struct MatcherContext {
        /// May a mapping be an object compared for equality (under `json:`)?
        var allowsObjectEquality: Bool
        /// Under `duration:`: ordering operands are durations, normalised to milliseconds.
        var isDuration = false
    }

    func expectations(_ node: YAMLNode, in context: String = "expect") -> Expectations {
        var e = Expectations(range: node.range)
        guard let f = fields(node, in: context, allowed: Self.expectKeys) else { return e }
        if let s = f["status"] { e.status = status(s) }
        if let h = f["headers"], let entries = namedEntries(h, for: "'headers'") {
            e.headers = entries.compactMap { entry in
                matcher(entry.value, MatcherContext(allowsObjectEquality: false)).map {
                    NamedMatcher(name: parseTemplate(entry.name, entry.key), matcher: $0, range: entry.key.range)
                }
            }
        }
        if let j = f["json"], let entries = namedEntries(j, for: "'json'") {
            e.json = entries.compactMap { entry in
                if !entry.name.hasPrefix("$") {
                    error("JSONPath '\(entry.name)' must start with '$' (e.g. '$.\(entry.name)')", at: entry.key.range)
                    return nil
                }
                let query = jsonQuery(entry.name, entry.key)
                guard let matcher = matcher(entry.value, MatcherContext(allowsObjectEquality: true)), let query else { return nil }
                warnIfExpectingOneValue(matcher, from: query)
                return JSONExpectation(path: query, matcher: matcher)
            }
        }
        if let b = f["body"] { e.body = matcher(b, MatcherContext(allowsObjectEquality: false)) }
        if let s = f["schema"] { e.schema = schemaSource(s) }
        if let d = f["duration"] { e.duration = matcher(d, MatcherContext(allowsObjectEquality: false, isDuration: true)) }
        if let c = f["cookies"], let entries = namedEntries(c, for: "'cookies'") {
            e.cookies = entries.compactMap { entry in
                matcher(entry.value, MatcherContext(allowsObjectEquality: false)).map {
                    NamedMatcher(name: parseTemplate(entry.name, entry.key), matcher: $0, range: entry.key.range)
                }
            }
        }
        return e
    }

    // MARK: - Status

    private func status(_ node: YAMLNode) -> StatusExpectation? {
        switch node.kind {
        case .scalar:
            return statusPattern(node).map { StatusExpectation(.oneOf([$0]), range: node.range) }
        case .sequence(let items):
            if items.isEmpty {
                error("'status' list is empty; list the accepted codes like [200, 201]", at: node.range)
                return nil
            }
            let patterns = items.compactMap(statusPattern)
            return patterns.count == items.count ? StatusExpectation(.oneOf(patterns), range: node.range) : nil
        case .mapping:
            return matcher(node, MatcherContext(allowsObjectEquality: false)).map { StatusExpectation(.matcher($0), range: node.range) }
        }
    }

    private func statusPattern(_ node: YAMLNode) -> StatusPattern? {
        if let scalar = node.scalar {
            if case .string = scalar.value, scalar.text.contains("{{") {
                let template = parseTemplate(scalar.text, node)
                // `"{{ code }}"` is rendered when checked; `"{{ x }}00"` too, as long as it has a template.
                if template.literalText == nil { return .template(template) }
            }
            if scalar.value != .bool(true), let pattern = StatusPattern(text: scalar.text) { return pattern }
        }
        let found = node.scalar.map { "'\($0.text)'" } ?? node.kindDescription
        error("invalid status \(found); expected a code from 100 to 599 like 200, a class like '2xx', a template like \"{{ code }}\", a list like [200, 201] or a predicate map", at: node.range)
        return nil
    }

    // MARK: - Matchers

    /// A plain value (deep equality) or a map of predicates.
    func matcher(_ node: YAMLNode, _ context: MatcherContext) -> Matcher? {
        guard case .mapping(let pairs) = node.kind else {
            return .equals(operand(node, context))
        }
        let keys = pairs.compactMap { $0.key.scalar?.text }
        let hasPredicate = keys.contains { Predicate.names.contains($0) }
        // A map without a single predicate name is an object to compare under `json:`,
        // unless a key looks like a misspelt predicate (`{ containz: x }`).
        if !hasPredicate, context.allowsObjectEquality,
           !keys.contains(where: { suggestion(for: $0, among: Predicate.names) != nil }) || keys.count > 1 {
            return .equals(templateValue(node))
        }
        var predicates: [Predicate] = []
        for pair in pairs {
            guard let name = scalarKey(pair.key, in: "a predicate map") else { continue }
            guard let predicateName = PredicateName(rawValue: name) else {
                let hint = suggestion(for: name, among: Predicate.names).map { "did you mean '\($0)'?" }
                    ?? "valid predicates are " + Predicate.names.joined(separator: ", ")
                error("unknown predicate '\(name)'; \(hint)", at: pair.key.range)
                continue
            }
            if let kind = predicate(predicateName, pair.value, context) {
                predicates.append(Predicate(kind, range: pair.key.range))
            }
        }
        if pairs.isEmpty {
            error("empty predicate map; write a value to compare or predicates like { gt: 0 }", at: node.range)
        }
        return .predicates(predicates, range: node.range)
    }

    private func predicate(_ predicate: PredicateName, _ node: YAMLNode, _ context: MatcherContext) -> PredicateKind? {
        let nested = MatcherContext(allowsObjectEquality: context.allowsObjectEquality, isDuration: context.isDuration)
        let name = predicate.rawValue
        switch predicate {
        case .eq: return .eq(operand(node, context))
        case .ne: return .ne(operand(node, context))
        case .gt: return .gt(operand(node, context))
        case .gte: return .gte(operand(node, context))
        case .lt: return .lt(operand(node, context))
        case .lte: return .lte(operand(node, context))
        case .in, .notIn:
            guard listOperand(node, for: name) else { return nil }
            let value = templateValue(node)
            return predicate == .in ? .in(value) : .notIn(value)
        case .contains: return .contains(templateValue(node))
        case .notContains: return .notContains(templateValue(node))
        case .startsWith: return .startsWith(templateValue(node))
        case .endsWith: return .endsWith(templateValue(node))
        case .matches, .notMatches:
            let compiled: RegexPattern?
            switch regexOperand(node, for: name) {
            case .invalid: return nil
            case .templated: compiled = nil
            case .compiled(let pattern): compiled = pattern
            }
            let value = templateValue(node)
            return predicate == .matches ? .matches(value, compiled: compiled) : .notMatches(value, compiled: compiled)
        case .exists: return bool(node, for: name).map(PredicateKind.exists)
        case .empty: return bool(node, for: name).map(PredicateKind.empty)
        case .uuid: return bool(node, for: name).map(PredicateKind.uuid)
        case .isoDate: return bool(node, for: name).map(PredicateKind.isoDate)
        case .type:
            return choice(node, for: "type", JSONType.allCases.map { ($0.rawValue, $0) }).map(PredicateKind.type)
        case .length:
            return matcher(node, MatcherContext(allowsObjectEquality: false)).map(PredicateKind.length)
        case .each: return matcher(node, MatcherContext(allowsObjectEquality: true)).map(PredicateKind.each)
        case .not: return matcher(node, nested).map(PredicateKind.not)
        case .schema: return schemaSource(node).map(PredicateKind.schema)
        }
    }

    /// An operand; under `duration:` durations become a number of milliseconds.
    private func operand(_ node: YAMLNode, _ context: MatcherContext) -> TemplateValue {
        guard context.isDuration, let scalar = node.scalar, !scalar.text.contains("{{") else { return templateValue(node) }
        guard let d = duration(node, for: "duration") else { return templateValue(node) }
        let ms = Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
        let text = ms == ms.rounded() ? String(Int64(ms)) : String(ms)
        return TemplateValue(.number(text, isInteger: ms == ms.rounded()), range: node.range)
    }

    /// `in`/`not_in` need a list (or a template that gives one).
    private func listOperand(_ node: YAMLNode, for key: String) -> Bool {
        if case .sequence = node.kind { return true }
        if let scalar = node.scalar, case .string = scalar.value, scalar.text.contains("{{") { return true }
        error("expected a sequence for '\(key)', found \(node.kindDescription)", at: node.range)
        return false
    }

    /// Regular expressions without templates are compiled now, so a typo fails before any request is sent.
    private enum RegexOperand {
        case compiled(RegexPattern)
        /// Rendered and compiled when checked.
        case templated
        /// Reported.
        case invalid
    }

    /// A `matches`/`not_matches` operand, compiled here when it has no template: kept in
    /// the model, never re-parsed per evaluation.
    private func regexOperand(_ node: YAMLNode, for key: String) -> RegexOperand {
        guard let scalar = node.scalar, case .string = scalar.value else {
            error("expected a regular expression string for '\(key)', found \(node.kindDescription)", at: node.range)
            return .invalid
        }
        if scalar.text.contains("{{") { return .templated }
        do {
            return .compiled(try RegexPattern(scalar.text, dialect: .workflow))
        } catch {
            self.error("invalid regular expression '\(scalar.text)' for '\(key)': \(error)", at: node.range)
            return .invalid
        }
    }
}
