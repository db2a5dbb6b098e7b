import CourierDiagnostics
import CourierJSON
import Foundation

extension WorkflowDecoder {
    func captures(_ node: YAMLNode) -> [Capture] {
        guard let entries = namedEntries(node, for: "'capture'") else { return [] }
        return entries.compactMap { entry in
            let name = Located(entry.name, range: entry.key.range)
            if !isValidName(entry.name) {
                error("invalid capture name '\(entry.name)'; use letters, digits and '_' (not starting with a digit)", at: entry.key.range)
                return nil
            }
            return capture(name, entry.value)
        }
    }

    private func capture(_ name: Located<String>, _ node: YAMLNode) -> Capture? {
        let range = name.range.union(node.range)
        // Shorthand: `token: $.access_token`.
        if let scalar = node.scalar {
            guard case .string = scalar.value, scalar.text.hasPrefix("$") else {
                error("expected a JSONPath like '$.id' or a mapping like { header: Location } for capture '\(name.value)', found '\(scalar.text)'", at: node.range)
                return nil
            }
            guard let query = jsonQuery(scalar.text, node) else { return nil }
            return Capture(name: name, source: .json(query), defaultValue: nil, secret: false, range: range)
        }
        let context = "capture '\(name.value)'"
        let sourceKeys = CaptureSourceKind.keys
        guard let f = fields(node, in: context, allowed: sourceKeys + CaptureSourceKind.modifierKeys + ["default", "secret", "expect"]) else { return nil }
        let present = f.order.filter { sourceKeys.contains($0) }
        guard let key = present.first, let value = f[key], let kind = CaptureSourceKind.all.first(where: { $0.shape.key == key }) else {
            error("\(context) needs a source: one of " + sourceKeys.map { "'\($0)'" }.joined(separator: ", "), at: node.range)
            return nil
        }
        if present.count > 1, let second = f.key(present[1]) {
            error("\(context) takes one source; '\(present[1])' conflicts with '\(present[0])'", at: second.range)
        }
        for modifier in CaptureSourceKind.modifierKeys where !kind.modifiers.contains(modifier) {
            guard let found = f.key(modifier) else { continue }
            let owners = CaptureSourceKind.all.filter { $0.modifiers.contains(modifier) }.map { "'\($0.shape.key)'" }
            error("'\(modifier)' applies only to \(owners.joined(separator: ", ")) captures", at: found.range)
        }
        let source = kind.decode(self, value, f)
        let secret = f["secret"].flatMap { bool($0, for: "secret") } ?? false
        let defaultValue = f["default"].map(templateValue)
        let expect = f["expect"].flatMap { matcher($0, MatcherContext(allowsObjectEquality: true)) }
        guard let source else { return nil }
        return Capture(name: name, source: source, defaultValue: defaultValue, secret: secret, expect: expect, range: range)
    }

    /// `from: body` or `from: header Location`.
    func regexSubject(_ node: YAMLNode) -> RegexSubject? {
        if let text = string(node, for: "from")?.value {
            if text == "body" { return .body }
            if text.hasPrefix("header ") {
                let name = text.dropFirst("header ".count).trimmingCharacters(in: .whitespaces)
                if !name.isEmpty { return .header(name) }
            }
            error("invalid 'from' '\(text)'; write 'body' or 'header NAME'", at: node.range)
        }
        return nil
    }

    /// The JSONPath of a `json:` capture or of a `regex:` on one JSON value, parsed at load.
    func captureQuery(_ value: YAMLNode) -> JSONQuery? {
        guard let path = string(value, for: "json") else { return nil }
        guard path.value.hasPrefix("$") else {
            self.error("JSONPath '\(path.value)' must start with '$' (e.g. '$.\(path.value)')", at: value.range)
            return nil
        }
        return jsonQuery(path.value, value)
    }

    /// A capture's pattern, compiled at load.
    func capturePattern(_ pattern: Located<String>, _ node: YAMLNode) -> RegexPattern? {
        do { return try RegexPattern(pattern.value, dialect: .workflow) } catch {
            self.error("invalid regular expression '\(pattern.value)' for 'regex': \(error)", at: node.range)
            return nil
        }
    }

    /// `regex: { pattern: '…', json: $.message }` or `{ pattern: '…', header: Location }`;
    /// without `json` or `header` the pattern reads the body, as the plain form does.
    func regexCapture(mapping node: YAMLNode) -> CaptureSource? {
        guard let f = fields(node, in: "'regex'", allowed: ["pattern", "json", "header"]) else { return nil }
        guard let patternNode = f["pattern"] else {
            self.error("'regex' needs a 'pattern'", at: node.range)
            return nil
        }
        let sources = f.order.filter { $0 == "json" || $0 == "header" }
        if sources.count > 1, let second = f.key(sources[1]) {
            self.error("'regex' reads one value; '\(sources[1])' conflicts with '\(sources[0])'", at: second.range)
        }
        var subject = RegexSubject.body
        if let value = f["json"] {
            guard let query = captureQuery(value) else { return nil }
            guard query.isSingular else {
                self.error("'regex' reads one JSON value; '\(query.text)' can match several (use a singular path like '$.items[0].name')",
                           at: value.range)
                return nil
            }
            subject = .json(query)
        } else if let value = f["header"] {
            guard let name = string(value, for: "header") else { return nil }
            subject = .header(name.value)
        }
        guard let pattern = string(patternNode, for: "pattern"), let compiled = capturePattern(pattern, patternNode) else { return nil }
        return .regex(Located(compiled, range: pattern.range), from: subject)
    }
}
