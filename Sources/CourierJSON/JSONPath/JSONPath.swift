/// A compiled RFC 9535 JSONPath query.
///
/// Supports every selector (name, wildcard, index, slice, filter), descendant segments, the
/// comparison and logical operators and the functions `length`, `count`, `match`, `search` and
/// `value`, with the RFC's well-typedness rules checked when the query is parsed.
///
/// ```swift
/// let query = try JSONPath("$.store.book[?@.price < 10].title")
/// for node in query.evaluate(document) {
///     print(node.path, node.value)   // $['store']['book'][0]['title'] "Sayings"
/// }
/// ```
public struct JSONPath: Sendable, CustomStringConvertible {
    /// The query text as given.
    public let text: String
    let query: PathQuery
    /// For a query with values still to come (``init(pieces:)``): how to write it as text.
    let template: PathTemplate?

    /// Parses `query`; throws a ``JSONPathError`` with the offending offset when it is not a
    /// valid RFC 9535 query.
    public init(_ query: String) throws(JSONPathError) {
        var parser = JSONPathParser(query)
        self.query = try parser.parseQuery()
        self.text = query
        self.template = nil
    }

    init(text: String, query: PathQuery) {
        self.text = text
        self.query = query
        self.template = nil
    }

    public var description: String { text }

    /// Whether the query is singular (RFC 9535 §2.3.5.1): only name and index segments, so it
    /// selects at most one node. A value still to come counts as a name or index.
    public var isSingular: Bool { query.isSingular }

    /// The nodelist the query selects in `root`, in RFC 9535 order, with normalized paths.
    public func evaluate(_ root: JSONValue) -> [JSONPathNode] {
        JSONPathEvaluator(root: root).selectWithPaths(query)
    }

    /// The values the query selects in `root`, without computing paths.
    public func values(in root: JSONValue) -> [JSONValue] {
        let evaluator = JSONPathEvaluator(root: root)
        return evaluator.select(query, from: root, trackPaths: false).map(\.value)
    }
}

/// One node of a nodelist: where it is and what it holds.
public struct JSONPathNode: Sendable, Equatable, CustomReflectable {
    /// The normalized path (RFC 9535 §2.7), e.g. `$['a'][0]`.
    ///
    /// The nodes `evaluate` returns keep their paths' UTF-8 in blocks shared by the nodelist;
    /// the String is made when asked for.
    public var path: String {
        get { location.string }
        set { location = PathLocation(newValue) }
    }

    public var value: JSONValue
    private var location: PathLocation

    public init(path: String, value: JSONValue) {
        self.value = value
        self.location = PathLocation(path)
    }

    init(value: JSONValue, location: PathLocation) {
        self.value = value
        self.location = location
    }

    public static func == (lhs: JSONPathNode, rhs: JSONPathNode) -> Bool {
        lhs.location == rhs.location && lhs.value == rhs.value
    }

    public var customMirror: Mirror {
        Mirror(self, children: ["path": path, "value": value])
    }
}
