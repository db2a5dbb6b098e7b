import CourierDiagnostics

extension WorkflowDecoder {
    /// Any YAML value as a ``TemplateValue``: strings are parsed as templates.
    func templateValue(_ node: YAMLNode) -> TemplateValue {
        switch node.kind {
        case .scalar(let scalar):
            switch scalar.value {
            case .null: return TemplateValue(.null, range: node.range)
            case .bool(let b): return TemplateValue(.bool(b), range: node.range)
            case .integer(let text): return TemplateValue(.number(text, isInteger: true), range: node.range)
            case .float(let text): return TemplateValue(.number(text, isInteger: false), range: node.range)
            case .string:
                let template = parseTemplate(scalar.text, node)
                return TemplateValue(.string(template), range: node.range)
            }
        case .sequence(let items):
            return TemplateValue(.array(items.map(templateValue)), range: node.range)
        case .mapping(let pairs):
            var members: [(key: String, value: TemplateValue)] = []
            members.reserveCapacity(pairs.count)
            for pair in pairs {
                guard let key = scalarKey(pair.key, in: "a value") else { continue }
                members.append((key, templateValue(pair.value)))
            }
            return TemplateValue(.object(members), range: node.range)
        }
    }

    /// `name: value` pairs of `vars:`, `secrets:`, an include's `vars:` or a vars file.
    func variables(_ node: YAMLNode, for key: String) -> [VariableDefinition] {
        guard let entries = namedEntries(node, for: "'\(key)'") else { return [] }
        return entries.compactMap { entry in
            guard isValidName(entry.name) else {
                error("invalid variable name '\(entry.name)'; use letters, digits and '_' (not starting with a digit)", at: entry.key.range)
                return nil
            }
            return VariableDefinition(name: entry.name, value: templateValue(entry.value), range: entry.key.range)
        }
    }

    /// Names usable in `{{ }}` without quoting.
    func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || $0 == "-" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
    }
}
