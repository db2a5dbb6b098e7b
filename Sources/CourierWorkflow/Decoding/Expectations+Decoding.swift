import CourierDiagnostics
import CourierJSON
import Foundation

extension WorkflowDecoder {
    static let expectKeys = ["status", "headers", "json", "body", "schema", "duration", "cookies"]

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
}
