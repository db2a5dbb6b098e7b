import CourierDiagnostics
import CourierJSON

extension TemplateValue {
    /// The value as JSON when no string in it holds a template.
    package var literalJSON: JSONValue? {
        switch kind {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let text, _): return JSONNumber(text: text).map(JSONValue.number)
        case .string(let template): return template.literalText.map(JSONValue.string)
        case .array(let items):
            var result: [JSONValue] = []
            result.reserveCapacity(items.count)
            for item in items {
                guard let value = item.literalJSON else { return nil }
                result.append(value)
            }
            return .array(result)
        case .object(let pairs):
            var result: [(key: String, value: JSONValue)] = []
            result.reserveCapacity(pairs.count)
            for pair in pairs {
                guard let value = pair.value.literalJSON else { return nil }
                result.append((pair.key, value))
            }
            return .object(JSONObject(result))
        }
    }

    /// The range of the value a JSON Pointer's tokens lead to, if it is there.
    func range(at tokens: [String]) -> SourceRange? {
        var value = self
        for token in tokens {
            switch value.kind {
            case .object(let pairs):
                guard let member = pairs.first(where: { $0.key == token }) else { return nil }
                value = member.value
            case .array(let items):
                guard let index = Int(token), items.indices.contains(index) else { return nil }
                value = items[index]
            default:
                return nil
            }
        }
        return value.range
    }
}
