import CourierDiagnostics
import CourierJSON
import Foundation

extension WorkflowDecoder {
    /// The keys of `expect.bytes`: one per view, then `raw`.
    static let bytesKeys = BytesView.allCases.map(\.key) + ["raw"]

    /// `expect.bytes`: one expectation per view written, in ``BytesView`` order, all reading
    /// the bytes `raw:` chooses.
    func bytesExpectations(_ node: YAMLNode, _ kind: ExpectationKind) -> [Expectation] {
        guard let f = fields(node, in: "'bytes'", allowed: Self.bytesKeys) else { return [] }
        let bytes = bodyBytes(f["raw"])
        var items: [Expectation] = []
        for view in BytesView.allCases {
            guard let value = f[view.key] else { continue }
            let target = ResponseTarget.bytes(view, bytes)
            if view == .content {
                guard let path = template(value, for: view.key) else { continue }
                let file = BytesFile(path: checkFile(path, for: view.key), directory: directory)
                items.append(Expectation(kind, target: target, check: .equalsFile(file), range: value.range))
                continue
            }
            guard let matcher = bytesMatcher(value, view) else { continue }
            let checked = bytesOperand(matcher, view)
            items.append(Expectation(kind, target: target, check: .matcher(checked), range: checked.range))
        }
        if items.isEmpty, let raw = f.key("raw") {
            error("'raw' alone checks nothing; add what to check, like 'sha256' or 'length'", at: raw.range)
        } else if items.isEmpty, f.key("raw") == nil, case .mapping(let pairs) = node.kind, pairs.isEmpty {
            error("empty 'bytes'; check one of " + BytesView.allCases.map { "'\($0.key)'" }.joined(separator: ", "), at: node.range)
        }
        return items
    }

    /// `raw: true` or `raw: false` (the default): which bytes a `bytes` check or capture reads.
    func bodyBytes(_ node: YAMLNode?) -> BodyBytes {
        guard let node, bool(node, for: "raw") == true else { return .decoded }
        return .raw
    }

    // MARK: - Literal operands

    /// The matcher of one view. YAML reads an unquoted digest of digits (`md5: 0123…`) as a
    /// number, its leading zeros lost: the digest is the scalar's text as written.
    private func bytesMatcher(_ node: YAMLNode, _ view: BytesView) -> Matcher? {
        if view != .length, let scalar = node.scalar {
            switch scalar.value {
            case .integer, .float:
                return .equals(TemplateValue(.string(Template(literal: scalar.text, range: node.range)), range: node.range))
            default:
                break
            }
        }
        return matcher(node, MatcherContext(allowsObjectEquality: false))
    }

    /// `matcher` with a literal digest or hex written in upper case brought to lower case
    /// (the case Courier gives them), after checking what a literal of `view` must look like:
    /// a typo in a digest is a load error, not a failed check after the request.
    private func bytesOperand(_ matcher: Matcher, _ view: BytesView) -> Matcher {
        switch matcher {
        case .equals(let value):
            if view == .length {
                if case .number(_, isInteger: true) = value.kind { return matcher }
                if value.template.map({ $0.literalText == nil }) == true { return matcher }
                error("expected a whole number of bytes for 'bytes.length', found \(Self.describe(value))", at: value.range)
                return matcher
            }
            guard let literal = literalText(value) else {
                if value.template != nil { return matcher }
                error("expected \(Self.expectedLiteral(view)) for 'bytes.\(view.key)', found \(Self.describe(value))", at: value.range)
                return matcher
            }
            guard let normal = normalized(literal, view, at: value.range) else { return matcher }
            return .equals(TemplateValue(.string(Template(literal: normal, range: value.range)), range: value.range))
        case .predicates(let predicates, _):
            // Digests and hex compare as text, so `starts_with: 1F8B` could never hold.
            guard [.sha256, .md5, .hex].contains(view) else { return matcher }
            for predicate in predicates {
                guard case .value(_, let literal?) = predicate.operand, case .string(let text) = literal,
                      HexText.isHexDigits(text), text != text.lowercased() else { continue }
                error("hex digits are compared in lower case; write '\(text.lowercased())'", at: predicate.range)
            }
            return matcher
        }
    }

    /// The text of a literal string.
    private func literalText(_ value: TemplateValue) -> String? {
        value.template?.literalText
    }

    /// The literal in the form Courier compares, or nil after reporting why it cannot match.
    private func normalized(_ text: String, _ view: BytesView, at range: SourceRange) -> String? {
        switch view {
        case .sha256, .md5:
            let digits = view == .sha256 ? 64 : 32
            guard text.utf8.count == digits, HexText.isHex(text) else {
                error("expected \(digits) hex digits for 'bytes.\(view.key)' (the \(view == .sha256 ? "SHA-256" : "MD5") digest as "
                      + "\(view == .sha256 ? "sha256sum" : "md5sum") prints it), found \(text.utf8.count) characters '\(ShownText.cut(text, maxBytes: 80))'",
                      at: range)
                return nil
            }
            return text.lowercased()
        case .hex:
            guard HexText.isHex(text) else {
                error("expected hex digits, two per byte, for 'bytes.hex', found '\(ShownText.cut(text, maxBytes: 80))'", at: range)
                return nil
            }
            return text.lowercased()
        case .base64:
            // With or without `=` padding; compared in its padded standard form.
            let padded = text + String(repeating: "=", count: (4 - text.utf8.count % 4) % 4)
            guard let data = Data(base64Encoded: padded) else {
                error("expected base64 (RFC 4648, '+' and '/') for 'bytes.base64', found '\(ShownText.cut(text, maxBytes: 80))'", at: range)
                return nil
            }
            return data.base64EncodedString()
        case .length, .content:
            return nil
        }
    }

    /// "a boolean", "a mapping", "'abc'" for messages.
    private static func describe(_ value: TemplateValue) -> String {
        switch value.kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number(let text, _): "'\(text)'"
        case .string(let template): template.literalText.map { "'\(ShownText.cut($0, maxBytes: 80))'" } ?? "a template"
        case .array: "a sequence"
        case .object: "a mapping"
        }
    }

    private static func expectedLiteral(_ view: BytesView) -> String {
        switch view {
        case .length: "a number of bytes"
        case .sha256, .md5, .hex: "hex digits"
        case .base64: "base64 text"
        case .content: "a file path"
        }
    }
}
