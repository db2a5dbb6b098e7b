extension JSONPath {
    /// The nodelist, like ``evaluate(_:)``, but a `match()` or `search()` call that runs out of
    /// its step budget (``RegexBudget/default``) is an error rather than the `false` RFC 9535
    /// prescribes for a function that cannot give a result: `courier query` and workflow
    /// checks name the reason instead of quietly selecting nothing.
    public func evaluateCheckingRegexBudget(_ root: JSONValue) throws(JSONPathRegexTooExpensive) -> [JSONPathNode] {
        let evaluator = JSONPathEvaluator(root: root)
        let nodes = evaluator.selectWithPaths(query)
        if let exceeded = evaluator.regexBudgetExceeded { throw exceeded }
        return nodes
    }
}

/// A `match()` or `search()` call in a filter ran out of its step budget.
public struct JSONPathRegexTooExpensive: Error, Sendable, Equatable, CustomStringConvertible {
    /// `match` or `search`.
    public let function: String
    public let pattern: String
    public let exceeded: RegexBudgetExceeded

    /// `match() with '(a|a)*b': pattern too expensive (more than 1,000,000 steps against 39 characters)`.
    public var description: String { "\(function)() with '\(pattern)': \(exceeded)" }
}
