import CourierDiagnostics
import CourierJSON

extension WorkflowDecoder {
    static let captureSourceKeys = ["json", "header", "cookie", "regex", "status", "body", "duration"]

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
        guard let f = fields(node, in: context, allowed: Self.captureSourceKeys + ["from", "default", "secret"]) else { return nil }
        let present = f.order.filter { Self.captureSourceKeys.contains($0) }
        guard let kind = present.first, let value = f[kind] else {
            error("\(context) needs a source: one of " + Self.captureSourceKeys.map { "'\($0)'" }.joined(separator: ", "), at: node.range)
            return nil
        }
        if present.count > 1, let second = f.key(present[1]) {
            error("\(context) takes one source; '\(present[1])' conflicts with '\(present[0])'", at: second.range)
        }
        if let from = f.key("from"), kind != "regex" {
            error("'from' applies only to 'regex' captures", at: from.range)
        }
        var source: CaptureSource?
        switch kind {
        case "json":
            if let path = string(value, for: "json") {
                if path.value.hasPrefix("$") { source = jsonQuery(path.value, value).map(CaptureSource.json) } else {
                    error("JSONPath '\(path.value)' must start with '$' (e.g. '$.\(path.value)')", at: value.range)
                }
            }
        case "header": source = string(value, for: "header").map { .header($0.value) }
        case "cookie": source = string(value, for: "cookie").map { .cookie($0.value) }
        case "regex":
            if let pattern = string(value, for: "regex") {
                let compiled: RegexPattern
                do { compiled = try RegexPattern(pattern.value, dialect: .workflow) } catch {
                    self.error("invalid regular expression '\(pattern.value)' for 'regex': \(error)", at: value.range)
                    return nil
                }
                let subject = f["from"].map(regexSubject) ?? .body
                source = subject.map { .regex(Located(compiled, range: pattern.range), from: $0) }
            }
        default:
            // `status: true`, `body: true`, `duration: true`.
            if let flag = bool(value, for: kind) {
                if flag {
                    source = kind == "status" ? .status : (kind == "body" ? .body : .duration)
                } else {
                    error("'\(kind): false' captures nothing; write '\(kind): true' or remove the capture", at: value.range)
                }
            }
        }
        let secret = f["secret"].flatMap { bool($0, for: "secret") } ?? false
        let defaultValue = f["default"].map(templateValue)
        guard let source else { return nil }
        return Capture(name: name, source: source, defaultValue: defaultValue, secret: secret, range: range)
    }

    /// `from: body` or `from: header Location`.
    private func regexSubject(_ node: YAMLNode) -> RegexSubject? {
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
}

import Foundation
