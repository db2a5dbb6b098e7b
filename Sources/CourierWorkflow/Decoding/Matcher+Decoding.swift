import CourierDiagnostics
import CourierJSON

extension WorkflowDecoder {
    /// How a matcher is read where it appears.
    struct MatcherContext {
        /// May a mapping be an object compared for equality (under `json:`)?
        var allowsObjectEquality: Bool
        /// Under `duration:`: ordering operands are durations, normalised to milliseconds.
        var isDuration = false
    }

    /// A plain value (deep equality) or a map of predicates.
    func matcher(_ node: YAMLNode, _ context: MatcherContext) -> Matcher? {
        guard case .mapping(let pairs) = node.kind else {
            return .equals(operand(node, context))
        }
        let names = PredicateDefinition.names
        let keys = pairs.compactMap { $0.key.scalar?.text }
        let hasPredicate = keys.contains { PredicateDefinition.named($0) != nil }
        // A map without a single predicate name is an object to compare under `json:`,
        // unless a key looks like a misspelt predicate (`{ containz: x }`).
        if !hasPredicate, context.allowsObjectEquality,
           !keys.contains(where: { suggestion(for: $0, among: names) != nil }) || keys.count > 1 {
            return .equals(templateValue(node))
        }
        var predicates: [Predicate] = []
        for pair in pairs {
            guard let name = scalarKey(pair.key, in: "a predicate map") else { continue }
            guard let definition = PredicateDefinition.named(name) else {
                let hint = suggestion(for: name, among: names).map { "did you mean '\($0)'?" }
                    ?? "valid predicates are " + names.joined(separator: ", ")
                error("unknown predicate '\(name)'; \(hint)", at: pair.key.range)
                continue
            }
            if let operand = predicateOperand(definition.shape, pair.value, context) {
                predicates.append(Predicate(definition, operand: operand, range: pair.key.range))
            }
        }
        if pairs.isEmpty {
            error("empty predicate map; write a value to compare or predicates like { gt: 0 }", at: node.range)
        }
        return .predicates(predicates, range: node.range)
    }

    /// A predicate's operand, read as its shape says.
    private func predicateOperand(_ shape: CheckShape, _ node: YAMLNode, _ context: MatcherContext) -> PredicateOperand? {
        let key = shape.key
        switch shape.operand {
        case .comparable:
            return .literal(operand(node, context))
        case .value:
            return .literal(templateValue(node))
        case .list:
            return listOperand(node, for: key) ? .literal(templateValue(node)) : nil
        case .flag:
            return bool(node, for: key).map(PredicateOperand.flag)
        case .choice(let words):
            return choice(node, for: key, words.enumerated().map { ($1, $0) }).map(PredicateOperand.choice)
        case .regex:
            switch regexOperand(node, for: key) {
            case .invalid: return nil
            case .templated: return .regex(templateValue(node), compiled: nil)
            case .compiled(let pattern): return .regex(templateValue(node), compiled: pattern)
            }
        case .matcher(let nested):
            return matcher(node, nested.context(around: context)).map(PredicateOperand.matcher)
        case .matchers(let nested):
            return matcherList(node, for: key, nested.context(around: context)).map(PredicateOperand.matchers)
        case .schema:
            return schemaSource(node).map(PredicateOperand.schema)
        case .jwt:
            return jwtOperand(node, context).map(PredicateOperand.jwt)
        case .number, .fields, .date:
            return shapedValue(node, shape.operand, for: key) ? .literal(templateValue(node)) : nil
        case .named, .paths, .status, .redirects:
            // Shapes of `expect:` keys, never of a predicate (each predicate's example is decoded by a test).
            error("'\(key)' is not usable as a predicate", at: node.range)
            return nil
        }
    }

    /// `all`/`any`: a non-empty sequence of values or predicate maps, each read as a matcher.
    private func matcherList(_ node: YAMLNode, for key: String, _ context: MatcherContext) -> [Matcher]? {
        guard case .sequence(let items) = node.kind else {
            error("expected a sequence of values or predicate maps for '\(key)', found \(node.kindDescription)", at: node.range)
            return nil
        }
        guard !items.isEmpty else {
            error("'\(key)' needs at least one value or predicate map", at: node.range)
            return nil
        }
        let matchers = items.compactMap { matcher($0, context) }
        return matchers.count == items.count ? matchers : nil
    }

    /// Checks a number or a mapping of fields: what is literal now, what is templated when
    /// rendered (by the same ``OperandShape/problem(with:for:)``). Reports and returns false
    /// when it does not fit.
    private func shapedValue(_ node: YAMLNode, _ shape: OperandShape, for key: String) -> Bool {
        if let scalar = node.scalar, case .string = scalar.value, scalar.text.contains("{{") { return true }
        guard case .fields(let fields) = shape else {
            guard let value = templateValue(node).literalJSON, let problem = shape.problem(with: value, for: key) else { return true }
            error(problem, at: node.range)
            return false
        }
        let context = "'\(key)'"
        guard let found = self.fields(node, in: context, allowed: fields.map(\.key)) else { return false }
        var fits = true
        for field in fields {
            guard let value = found[field.key] else {
                if field.isRequired {
                    error("\(context) needs '\(field.key)' (\(field.description))", at: node.range)
                    fits = false
                }
                continue
            }
            fits = shapedValue(value, field.operand, for: field.key) && fits
        }
        return fits
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

extension OperandShape.NestedMatcher {
    /// How a nested matcher is read inside a matcher read with `context`.
    fileprivate func context(around context: WorkflowDecoder.MatcherContext) -> WorkflowDecoder.MatcherContext {
        switch self {
        case .values: WorkflowDecoder.MatcherContext(allowsObjectEquality: false)
        case .valuesOrObjects: WorkflowDecoder.MatcherContext(allowsObjectEquality: true)
        case .inherited: context
        }
    }
}

extension PredicateOperand {
    /// A value operand, with its JSON made now when it holds no template.
    static func literal(_ value: TemplateValue) -> PredicateOperand { .value(value, literal: value.literalJSON) }
}
