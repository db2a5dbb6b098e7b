import CourierDiagnostics
import CourierJSON
import Foundation

extension WorkflowDecoder {
    /// `expect:` (or `abort_if:`): each key decoded by its ``ExpectationKind``, in their order.
    func expectations(_ node: YAMLNode, in context: String = "expect") -> Expectations {
        var e = Expectations(range: node.range)
        guard let f = fields(node, in: context, allowed: ExpectationKind.keys) else { return e }
        for kind in ExpectationKind.all {
            if let value = f[kind.shape.key] { e.items += kind.decode(self, kind, value, node.range) }
        }
        return e
    }

    /// The versions a response can have, as `expect.http_version` compares them.
    static let httpVersions = ["1.0", "1.1", "2", "3"]

    /// `expect.http_version`: a literal value must be a version a response can have (`2.0`
    /// is read as `2`, as the request option reads it); a typo would otherwise fail every run.
    func knownHTTPVersion(_ matcher: Matcher) -> Matcher? {
        guard case .equals(let value) = matcher, let literal = value.literalJSON else { return matcher }
        let text = literal.interpolationText
        if Self.httpVersions.contains(text) { return matcher }
        if text == "2.0" || text == "3.0" {
            return .equals(TemplateValue(.number(String(text.prefix(1)), isInteger: true), range: value.range))
        }
        let hint = suggestion(for: text, among: Self.httpVersions).map { "; did you mean '\($0)'?" }
            ?? "; expected one of " + Self.httpVersions.map { "'\($0)'" }.joined(separator: ", ")
        error("invalid value '\(text)' for 'http_version'\(hint)", at: value.range)
        return nil
    }

    /// A mapping of user-chosen names (headers, cookies) to matchers; the names may hold templates.
    func namedMatchers(_ node: YAMLNode, for context: String, _ make: (Template, Matcher) -> Expectation) -> [Expectation] {
        guard let entries = namedEntries(node, for: context) else { return [] }
        return entries.compactMap { entry in
            matcher(entry.value, MatcherContext(allowsObjectEquality: false)).map { make(parseTemplate(entry.name, entry.key), $0) }
        }
    }

    /// `expect.cookies`: each cookie's value as a plain value or predicate map, or a map of its
    /// value and attributes (`{ value: …, http_only: true }`), one expectation per attribute.
    func cookieExpectations(_ node: YAMLNode, _ make: (Template, CookieAttribute, Matcher) -> Expectation) -> [Expectation] {
        guard let entries = namedEntries(node, for: "'cookies'") else { return [] }
        return entries.flatMap { entry -> [Expectation] in
            let name = parseTemplate(entry.name, entry.key)
            guard isCookieAttributeMap(entry.value) else {
                return matcher(entry.value, MatcherContext(allowsObjectEquality: false)).map { [make(name, .value, $0)] } ?? []
            }
            let context = "the attributes of cookie '\(entry.name)'"
            var hints: [String: String] = [:]
            for case let key? in (entry.value.mapping ?? []).map(\.key.scalar?.text) where PredicateDefinition.named(key) != nil {
                hints[key] = "'\(key)' is a predicate, and this is a map of the cookie's attributes; "
                    + "check the value with 'value: { \(key): … }'"
            }
            guard let f = fields(entry.value, in: context, allowed: CookieAttribute.keys, hints: hints) else { return [] }
            return f.order.compactMap { key in
                guard let attribute = CookieAttribute(rawValue: key), let value = f[key] else { return nil }
                return matcher(value, MatcherContext(allowsObjectEquality: false)).map { make(name, attribute, $0) }
            }
        }
    }

    /// A mapping with an attribute key (`path`, `http_only`, …), or with no predicate but a key
    /// close to an attribute (`http_onyl`), is an attribute map; any other is a predicate map.
    private func isCookieAttributeMap(_ node: YAMLNode) -> Bool {
        guard let pairs = node.mapping, !pairs.isEmpty else { return false }
        let keys = pairs.compactMap { $0.key.scalar?.text }
        if keys.contains(where: { CookieAttribute(rawValue: $0) != nil }) { return true }
        if keys.contains(where: { PredicateDefinition.named($0) != nil }) { return false }
        return keys.contains { suggestion(for: $0, among: CookieAttribute.keys) != nil }
    }

    /// A mapping of JSONPath queries to matchers (`expect.json`).
    func pathMatchers(_ node: YAMLNode, _ make: (JSONQuery, Matcher) -> Expectation) -> [Expectation] {
        guard let entries = namedEntries(node, for: "'json'") else { return [] }
        return entries.compactMap { entry in
            if !entry.name.hasPrefix("$") {
                error("JSONPath '\(entry.name)' must start with '$' (e.g. '$.\(entry.name)')", at: entry.key.range)
                return nil
            }
            let query = jsonQuery(entry.name, entry.key)
            guard let matcher = matcher(entry.value, MatcherContext(allowsObjectEquality: true)), let query else { return nil }
            warnIfExpectingOneValue(matcher, from: query)
            return make(query, matcher)
        }
    }

    // MARK: - Redirects

    /// `expect.redirects`: a count (a number, a template or a predicate map), or a list of hops
    /// whose parts are `hops` (the count is then the list's length). Hop `n` is `redirects[n]`
    /// in messages, as in `steps.<id>.redirects[n]`.
    func redirectChecks(_ node: YAMLNode, hops: [FieldShape], _ make: (ResponseTarget, Matcher) -> Expectation) -> [Expectation] {
        let hopKeys = hops.map(\.key)
        switch node.kind {
        case .scalar:
            return redirectCount(node).map { [make(.redirectCount, .equals($0))] } ?? []
        case .mapping(let pairs):
            // One hop written without its list would otherwise be "unknown predicate 'status'".
            if let key = pairs.lazy.compactMap({ $0.key.scalar?.text }).first(where: hopKeys.contains) {
                error("a list of hops is a sequence; write 'redirects: [{ \(key): … }]' (a mapping here is a predicate map on the count)",
                      at: node.range)
                return []
            }
            return matcher(node, MatcherContext(allowsObjectEquality: false)).map { [make(.redirectCount, $0)] } ?? []
        case .sequence(let items):
            let count = TemplateValue(.number(String(items.count), isInteger: true), range: node.range)
            var result = [make(.redirectCount, .equals(count))]
            for (index, item) in items.enumerated() {
                guard let f = fields(item, in: "redirects[\(index)]", allowed: hopKeys) else { continue }
                for key in f.order {
                    guard let value = f[key] else { continue }
                    let part: RedirectHopPart
                    switch key {
                    case "status": part = .status
                    case "location": part = .location
                    case "url": part = .url
                    default:
                        for entry in namedEntries(value, for: "'query'") ?? [] {
                            guard let m = matcher(entry.value, MatcherContext(allowsObjectEquality: false)) else { continue }
                            result.append(make(.redirect(index: index, part: .query(parseTemplate(entry.name, entry.key))), m))
                        }
                        continue
                    }
                    if let m = matcher(value, MatcherContext(allowsObjectEquality: false)) {
                        result.append(make(.redirect(index: index, part: part), m))
                    }
                }
            }
            return result
        }
    }

    /// A count of redirects: a whole number of at least 0, or a template rendered when checked.
    private func redirectCount(_ node: YAMLNode) -> TemplateValue? {
        if let scalar = node.scalar {
            if case .string = scalar.value, scalar.text.contains("{{") { return templateValue(node) }
            if case .integer(let text) = scalar.value, let count = Int(text), count >= 0 { return templateValue(node) }
        }
        let found = node.scalar.map { "'\($0.text)'" } ?? node.kindDescription
        error("invalid 'redirects' \(found); expected a number of redirects like 2, a template, a predicate map like { gte: 1 } "
              + "or a list of hops like [{ status: 302 }]", at: node.range)
        return nil
    }

    // MARK: - Status

    func statusCheck(_ node: YAMLNode) -> ExpectationCheck? {
        switch node.kind {
        case .scalar:
            return statusPattern(node).map { .statusCodes([$0]) }
        case .sequence(let items):
            if items.isEmpty {
                error("'status' list is empty; list the accepted codes like [200, 201]", at: node.range)
                return nil
            }
            let patterns = items.compactMap(statusPattern)
            return patterns.count == items.count ? .statusCodes(patterns) : nil
        case .mapping:
            return matcher(node, MatcherContext(allowsObjectEquality: false)).map(ExpectationCheck.matcher)
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
}
