import CourierJSON
import CourierResults
import CourierWorkflow

/// `--dry-run`: requests are built and recorded but not sent. A capture cannot be
/// known without a response, so it holds a placeholder (`<capture: token>`) that
/// later templates render as is; a step whose `if` or `for_each` reads one is not
/// rendered (its choice would be made on the placeholder), and says so; so is an
/// include whose `vars` or templated path read one (its steps would run on it).
enum DryRun {
    /// What a capture holds in a dry run.
    static func placeholder(forCapture name: String) -> JSONValue {
        .string("<capture: \(name)>")
    }

    /// The skip reason of a step whose `if`/`for_each` reads a capture, or nil.
    static func notRenderedReason(_ key: String, _ expression: Expression, captures: Set<String>) -> SkipReason? {
        let read = variables(in: expression).filter(captures.contains).sorted()
        guard let first = read.first else { return nil }
        return .notRendered(what: key, capture: first)
    }

    /// The skip reason of an include whose `vars` or templated path reads a capture, or nil.
    static func notRenderedReason(_ include: Include, captures: Set<String>) -> SkipReason? {
        for definition in include.vars {
            if let first = variables(in: definition.value).filter(captures.contains).sorted().first {
                return .notRendered(what: "include var \(definition.name)", capture: first)
            }
        }
        if let first = variables(in: include.path).filter(captures.contains).sorted().first {
            return .notRendered(what: "include path", capture: first)
        }
        return nil
    }

    /// The top-level names a value's templates read.
    static func variables(in value: TemplateValue) -> Set<String> {
        switch value.kind {
        case .null, .bool, .number: return []
        case .string(let template): return variables(in: template)
        case .array(let items): return items.reduce(into: []) { $0.formUnion(variables(in: $1)) }
        case .object(let pairs): return pairs.reduce(into: []) { $0.formUnion(variables(in: $1.value)) }
        }
    }

    /// The top-level names a template's expressions read.
    static func variables(in template: Template) -> Set<String> {
        template.parts.reduce(into: []) { names, part in
            if case .expression(let expression, _) = part { names.formUnion(variables(in: expression)) }
        }
    }

    /// The top-level names an expression reads (`token` in `token.id == 1`).
    static func variables(in expression: Expression) -> Set<String> {
        switch expression.kind {
        case .variable(let name):
            return [name]
        case .member(let base, _):
            return variables(in: base)
        case .index(let base, let index):
            return variables(in: base).union(variables(in: index))
        case .string, .number, .bool, .null:
            return []
        case .call(_, let arguments):
            return arguments.reduce(into: []) { $0.formUnion(variables(in: $1)) }
        case .filter(let base, _, let arguments):
            return arguments.reduce(into: variables(in: base)) { $0.formUnion(variables(in: $1)) }
        case .binary(_, let left, let right):
            return variables(in: left).union(variables(in: right))
        case .not(let operand):
            return variables(in: operand)
        }
    }
}
