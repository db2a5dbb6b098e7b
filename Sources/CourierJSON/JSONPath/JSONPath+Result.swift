extension JSONPath {
    /// What the query gives as one value, the rule shared by expectations, captures and
    /// anything else that asks a query for "the" result:
    ///
    /// - a singular query (only name and index segments, ``isSingular``) gives the node's
    ///   value, or `nil` when nothing matched;
    /// - any other query (wildcard, slice, filter, descendant, union) gives an array of the
    ///   matched values, whether 0, 1 or many matched.
    ///
    /// So `$.items[*].id` is a list even when one item exists, and `$.items[0].id` is never
    /// wrapped. A `match()`/`search()` that runs out of its budget throws, as in
    /// ``evaluateCheckingRegexBudget(_:)``.
    ///
    /// ```swift
    /// try JSONPath("$.items[*].id").result(in: ["items": [["id": 7]]])   // [7]
    /// try JSONPath("$.items[0].id").result(in: ["items": [["id": 7]]])   // 7
    /// try JSONPath("$.items[9].id").result(in: ["items": []])            // nil
    /// ```
    public func result(in root: JSONValue) throws(JSONPathRegexTooExpensive) -> JSONValue? {
        let evaluator = JSONPathEvaluator(root: root)
        let values = evaluator.select(query, from: root, trackPaths: false).map(\.value)
        if let exceeded = evaluator.regexBudgetExceeded { throw exceeded }
        return Self.shape(values, singular: isSingular)
    }

    /// The shaping of ``result(in:)`` for values already selected.
    public static func shape(_ values: [JSONValue], singular: Bool) -> JSONValue? {
        singular ? values.first : .array(values)
    }
}
