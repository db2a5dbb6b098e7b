/// A node while evaluating: its value and, when paths are tracked, where it is.
struct EvaluationNode {
    var value: JSONValue
    var path: PathLink?
}

/// What a descendant walk does with the nodes its selectors pick, and how it follows where it is.
protocol DescentOutput {
    /// The walk enters the child reached by `step`.
    mutating func push(_ step: PathLink.Step)
    /// The walk leaves the child it last entered.
    mutating func pop()
    /// `found` are children of the node the walk is at.
    mutating func emit(_ found: [JSONPathEvaluator.Found])
}

/// Collects `EvaluationNode`s. With paths enabled, the current path is kept as steps below
/// `base`, with links created only on demand and reused while the walk stays below them.
struct LinkedOutput: DescentOutput {
    /// The path of the node the walk started from; set it before each walk.
    var base: PathLink?
    let enabled: Bool
    var nodes: [EvaluationNode] = []
    private var steps: [PathLink.Step] = []
    private var links: [PathLink] = []

    init(enabled: Bool) {
        self.enabled = enabled
    }

    @inline(__always)
    mutating func push(_ step: PathLink.Step) {
        if enabled { steps.append(step) }
    }

    @inline(__always)
    mutating func pop() {
        guard enabled else { return }
        steps.removeLast()
        if links.count > steps.count { links.removeLast() }
    }

    mutating func emit(_ found: [JSONPathEvaluator.Found]) {
        guard enabled else {
            for item in found { nodes.append(EvaluationNode(value: item.value, path: nil)) }
            return
        }
        while links.count < steps.count {
            links.append(PathLink(parent: links.last ?? base, step: steps[links.count]))
        }
        let parent = links.last ?? base
        for item in found {
            nodes.append(EvaluationNode(value: item.value, path: PathLink(parent: parent, step: item.step)))
        }
    }
}

/// Collects `JSONPathNode`s of a query's last segment, rendering each path straight into
/// shared `PathBytes`: no `PathLink` or String per node. The current path is kept as steps;
/// their text is rendered only when a node below them is selected, and reused while the walk
/// stays below them.
struct RenderedOutput: DescentOutput {
    var nodes: [JSONPathNode] = []
    private var writer = PathWriter()
    private var steps: [PathLink.Step] = []
    /// The rendered path of the node the walk started from, followed by the text of the first
    /// `ends.count` steps.
    private var text: [UInt8] = [UInt8(ascii: "$")]
    /// Where the text of each rendered step ends.
    private var ends: [Int] = []
    private var baseCount = 1

    /// Starts a walk from the node at `base`; the walk before it must have returned.
    mutating func start(at base: PathLink?) {
        text = NormalizedPath.bytes(base)
        baseCount = text.count
    }

    @inline(__always)
    mutating func push(_ step: PathLink.Step) {
        steps.append(step)
    }

    @inline(__always)
    mutating func pop() {
        steps.removeLast()
        if ends.count > steps.count {
            ends.removeLast()
            text.removeSubrange((ends.last ?? baseCount)...)
        }
    }

    mutating func emit(_ found: [JSONPathEvaluator.Found]) {
        while ends.count < steps.count {
            NormalizedPath.append(steps[ends.count], to: &text)
            ends.append(text.count)
        }
        let parentCount = text.count
        for item in found {
            NormalizedPath.append(item.step, to: &text)
            let location = writer.store(text[...])
            text.removeSubrange(parentCount...)
            nodes.append(JSONPathNode(value: item.value, location: location))
        }
    }
}

/// Evaluates parsed queries (RFC 9535 §2.3–2.6). One evaluator serves one `evaluate` call.
struct JSONPathEvaluator {
    let root: JSONValue
    private let regexes = IRegexpCache()

    init(root: JSONValue) {
        self.root = root
    }

    /// The first `match()`/`search()` of this evaluation that ran out of budget (it counted as false).
    var regexBudgetExceeded: JSONPathRegexTooExpensive? { regexes.firstExceeded }

    func select(_ query: PathQuery, from start: JSONValue, trackPaths: Bool) -> [EvaluationNode] {
        select(query.segments[...], from: start, trackPaths: trackPaths)
    }

    private func select(_ segments: ArraySlice<PathSegment>, from start: JSONValue, trackPaths: Bool) -> [EvaluationNode] {
        var nodes = [EvaluationNode(value: start, path: nil)]
        var found: [Found] = []
        for segment in segments {
            var next: [EvaluationNode] = []
            switch segment {
            case .child(let selectors):
                for node in nodes {
                    found.removeAll(keepingCapacity: true)
                    for selector in selectors { collect(selector, from: node.value, into: &found) }
                    for item in found {
                        next.append(EvaluationNode(value: item.value, path: trackPaths ? PathLink(parent: node.path, step: item.step) : nil))
                    }
                }
            case .descendant(let selectors):
                var output = LinkedOutput(enabled: trackPaths)
                for node in nodes {
                    found.removeAll(keepingCapacity: true)
                    output.base = node.path
                    descend(node.value, selectors, found: &found, into: &output)
                }
                next = output.nodes
            }
            nodes = next
            if nodes.isEmpty { break }
        }
        return nodes
    }

    /// The nodelist of `query` (evaluated from the root) with normalized paths.
    ///
    /// The segments before the last track paths as `PathLink`s; the last segment renders the
    /// paths of the nodes it selects directly, so the nodes it only passes through cost nothing.
    func selectWithPaths(_ query: PathQuery) -> [JSONPathNode] {
        guard let last = query.segments.last else {
            return [JSONPathNode(path: "$", value: root)]
        }
        let bases = select(query.segments.dropLast(), from: root, trackPaths: true)
        var output = RenderedOutput()
        var found: [Found] = []
        for base in bases {
            found.removeAll(keepingCapacity: true)
            output.start(at: base.path)
            switch last {
            case .child(let selectors):
                for selector in selectors { collect(selector, from: base.value, into: &found) }
                if !found.isEmpty { output.emit(found) }
            case .descendant(let selectors):
                descend(base.value, selectors, found: &found, into: &output)
            }
        }
        return output.nodes
    }

    /// A child a selector picked: how to reach it from its parent, and its value.
    typealias Found = (step: PathLink.Step, value: JSONValue)

    /// Applies `selectors` to `value` and then to each descendant, in document order.
    ///
    /// `output` only records steps while walking; paths (links or text) are only made for the
    /// ancestors of selected nodes, so most of a large document is visited without allocating.
    private func descend<Output: DescentOutput>(
        _ value: JSONValue, _ selectors: [PathSelector], found: inout [Found], into output: inout Output
    ) {
        for selector in selectors { collect(selector, from: value, into: &found) }
        if !found.isEmpty {
            output.emit(found)
            found.removeAll(keepingCapacity: true)
        }
        // Scalars have no children and every selector needs an array or object, so the walk
        // only enters containers.
        switch value {
        case .array(let elements):
            for i in elements.indices where elements[i].isContainer {
                output.push(.index(i))
                descend(elements[i], selectors, found: &found, into: &output)
                output.pop()
            }
        case .object(let object):
            let keys = object.shape.keys
            let values = object.storedValues
            for i in values.indices where values[i].isContainer {
                output.push(.name(keys[i]))
                descend(values[i], selectors, found: &found, into: &output)
                output.pop()
            }
        default:
            break
        }
    }

    /// The children `selector` picks from `value`, in order.
    private func collect(_ selector: PathSelector, from value: JSONValue, into found: inout [Found]) {
        switch selector {
        case .name(let name):
            if case .object(let object) = value, let member = object[name] {
                found.append((.name(name), member))
            }
        case .wildcard:
            switch value {
            case .array(let elements):
                for i in elements.indices { found.append((.index(i), elements[i])) }
            case .object(let object):
                for member in object { found.append((.name(member.key), member.value)) }
            default:
                break
            }
        case .index(let index):
            if case .array(let elements) = value {
                let i = index >= 0 ? index : elements.count + index
                if elements.indices.contains(i) { found.append((.index(i), elements[i])) }
            }
        case .slice(let start, let end, let step):
            if case .array(let elements) = value {
                for i in Self.sliceIndices(count: elements.count, start: start, end: end, step: step) {
                    found.append((.index(i), elements[i]))
                }
            }
        case .filter(let expression):
            switch value {
            case .array(let elements):
                for i in elements.indices where test(expression, current: elements[i]) {
                    found.append((.index(i), elements[i]))
                }
            case .object(let object):
                for member in object where test(expression, current: member.value) {
                    found.append((.name(member.key), member.value))
                }
            default:
                break
            }
        case .placeholder:
            break  // substituted before evaluation (`JSONPath.substituting`)
        }
    }

    /// RFC 9535 §2.3.4.2.2.
    static func sliceIndices(count: Int, start: Int?, end: Int?, step: Int?) -> [Int] {
        let step = step ?? 1
        guard step != 0, count > 0 else { return [] }
        func normalize(_ i: Int) -> Int { i >= 0 ? i : count + i }
        var result: [Int] = []
        if step > 0 {
            let lower = min(max(normalize(start ?? 0), 0), count)
            let upper = min(max(normalize(end ?? count), 0), count)
            var i = lower
            while i < upper {
                result.append(i)
                i += step
            }
        } else {
            let upper = min(max(normalize(start ?? count - 1), -1), count - 1)
            let lower = min(max(end.map(normalize) ?? -1, -1), count - 1)
            var i = upper
            while lower < i {
                result.append(i)
                i += step
            }
        }
        return result
    }

    // MARK: - Filters

    private func test(_ expression: FilterExpression, current: JSONValue) -> Bool {
        switch expression {
        case .or(let operands):
            return operands.contains { test($0, current: current) }
        case .and(let operands):
            return operands.allSatisfy { test($0, current: current) }
        case .not(let operand):
            return !test(operand, current: current)
        case .comparison(let left, let op, let right):
            return compare(value(of: left, current: current), op, value(of: right, current: current))
        case .query(let query):
            if query.isSingular { return singularValue(query, current: current) != nil }
            return !select(query, from: query.isRelative ? current : root, trackPaths: false).isEmpty
        case .function(let function, let arguments):
            return logicalResult(of: function, arguments, current: current)
        case .literal, .placeholder:
            return false  // rejected by the parser's type check
        }
    }

    /// The value of a comparable or value-typed argument; `nil` is "Nothing".
    private func value(of expression: FilterExpression, current: JSONValue) -> JSONValue? {
        switch expression {
        case .literal(let value):
            return value
        case .query(let query):
            return singularValue(query, current: current)
        case .function(let function, let arguments):
            return valueResult(of: function, arguments, current: current)
        default:
            return nil
        }
    }

    private func nodes(of expression: FilterExpression, current: JSONValue) -> [EvaluationNode] {
        guard case .query(let query) = expression else { return [] }
        return select(query, from: query.isRelative ? current : root, trackPaths: false)
    }

    private func singularValue(_ query: PathQuery, current: JSONValue) -> JSONValue? {
        var value = query.isRelative ? current : root
        for segment in query.segments {
            guard case .child(let selectors) = segment, let selector = selectors.first else { return nil }
            switch (selector, value) {
            case (.name(let name), .object(let object)):
                guard let member = object[name] else { return nil }
                value = member
            case (.index(let index), .array(let elements)):
                let i = index >= 0 ? index : elements.count + index
                guard elements.indices.contains(i) else { return nil }
                value = elements[i]
            default:
                return nil
            }
        }
        return value
    }

    private func compare(_ left: JSONValue?, _ op: ComparisonOperator, _ right: JSONValue?) -> Bool {
        switch op {
        case .equal: equal(left, right)
        case .notEqual: !equal(left, right)
        case .less: less(left, right)
        case .lessOrEqual: less(left, right) || equal(left, right)
        case .greater: less(right, left)
        case .greaterOrEqual: less(right, left) || equal(left, right)
        }
    }

    private func equal(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
        switch (left, right) {
        case (nil, nil): true
        case (let l?, let r?): l == r
        default: false
        }
    }

    private func less(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
        switch (left, right) {
        case (.number(let l)?, .number(let r)?): l < r
        // UTF-8 byte order is Unicode scalar order.
        case (.string(let l)?, .string(let r)?): l.utf8.lexicographicallyPrecedes(r.utf8)
        default: false
        }
    }

    // MARK: - Functions (RFC 9535 §2.4.4–2.4.8)

    private func valueResult(of function: PathFunction, _ arguments: [FilterExpression], current: JSONValue) -> JSONValue? {
        switch function {
        case .length:
            switch value(of: arguments[0], current: current) {
            case .string(let string)?: return .number(JSONNumber(string.unicodeScalars.count))
            case .array(let elements)?: return .number(JSONNumber(elements.count))
            case .object(let object)?: return .number(JSONNumber(object.count))
            default: return nil
            }
        case .count:
            return .number(JSONNumber(nodes(of: arguments[0], current: current).count))
        case .value:
            let selected = nodes(of: arguments[0], current: current)
            // Not a ternary: with `nil` there, JSONValue's nil literal would make it `.null`.
            guard selected.count == 1 else { return nil }
            return selected[0].value
        case .match, .search:
            return nil
        }
    }

    private func logicalResult(of function: PathFunction, _ arguments: [FilterExpression], current: JSONValue) -> Bool {
        switch function {
        case .match, .search:
            guard case .string(let subject)? = value(of: arguments[0], current: current),
                  case .string(let pattern)? = value(of: arguments[1], current: current),
                  let regex = regexes.regex(for: pattern, anchored: function == .match)
            else { return false }
            return regexes.matches(regex, subject, pattern: pattern, anchored: function == .match)
        case .length, .count, .value:
            return false  // value-typed; rejected as tests by the parser
        }
    }
}

extension JSONValue {
    /// Whether this is an array or an object.
    @inline(__always)
    var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }
}
