import CourierDiagnostics
import CourierJSON
import CourierWorkflow

/// Evaluates a workflow's compiled JSONPath (an `expect.json` key, a `json:` capture) on a
/// response, shaped by the one rule of ``JSONPath/result(in:)``.
struct JSONQueryEvaluation {
    let renderer: TemplateRenderer

    /// Why the query gave no result at all: a template's value that cannot stand where it is,
    /// or a filter regex over its budget. The message does not repeat the query: callers
    /// name it in their own words.
    struct Failure: Error {
        var range: SourceRange
        var message: String
    }

    /// The query with its templates' values in place. Substituting parses nothing: the query
    /// was compiled at load, and a value can only become a name, an index or a literal.
    func path(_ query: JSONQuery) -> Result<JSONPath, Failure> {
        guard !query.templates.isEmpty else { return .success(query.path) }
        var values: [JSONValue] = []
        values.reserveCapacity(query.templates.count)
        for template in query.templates {
            do { values.append(try renderer.value(template)) } catch {
                return .failure(Failure(range: error.range ?? template.range, message: error.message))
            }
        }
        do { return .success(try query.path.substituting(values)) } catch {
            let template = query.templates[min(error.index, query.templates.count - 1)]
            let shown = Self.name(of: template)
            return .failure(Failure(range: template.range, message: "\(shown): \(error.message)"))
        }
    }

    /// The value or list the query gives in `root` (nil: a singular query matched nothing),
    /// with the query as it ran (templates filled in) for messages.
    func result(_ query: JSONQuery, in root: JSONValue) -> Result<(value: JSONValue?, ran: JSONPath), Failure> {
        let path: JSONPath
        switch self.path(query) {
        case .success(let p): path = p
        case .failure(let failure): return .failure(failure)
        }
        do { return .success((try path.result(in: root), path)) } catch {
            return .failure(Failure(range: query.range, message: "\(error)"))
        }
    }

    /// `{{ index }}` for a template that is one variable, "the template" otherwise.
    private static func name(of template: Template) -> String {
        guard let expression = template.singleExpression, case .variable(let name) = expression.kind else { return "the template" }
        return "{{ \(name) }}"
    }
}
