@testable import CourierWorkflow

/// The decoded expectations of each kind, for assertions: the model keeps one list, in
/// ``ExpectationKind/all`` order.
extension Expectations {
    /// The expectations of one kind, in file order.
    func items(_ kind: ExpectationKind) -> [Expectation] { items.filter { $0.kind === kind } }

    /// The status codes, or nil when the status is absent or a predicate map.
    var statusCodes: [StatusPattern]? {
        guard case .statusCodes(let codes)? = items(ExpectationKind.status).first?.check else { return nil }
        return codes
    }

    var json: [(path: JSONQuery, matcher: Matcher)] {
        items(ExpectationKind.json).compactMap { item in
            guard case .json(let query) = item.target, let matcher = item.matcher else { return nil }
            return (query, matcher)
        }
    }

    var headerNames: [String?] { items(ExpectationKind.headers).map(Self.literalName) }
    var cookieNames: [String?] { items(ExpectationKind.cookies).map(Self.literalName) }
    var body: Matcher? { items(ExpectationKind.body).first?.matcher }
    var duration: Matcher? { items(ExpectationKind.duration).first?.matcher }

    var schema: SchemaSource? {
        guard case .schema(let source)? = items(ExpectationKind.schema).first?.check else { return nil }
        return source
    }

    private static func literalName(_ item: Expectation) -> String? {
        switch item.target {
        case .header(let name), .cookie(let name): name.literalText
        default: nil
        }
    }
}

extension Expectation {
    /// The matcher, for expectations checked by one.
    var matcher: Matcher? {
        if case .matcher(let m) = check { return m }
        return nil
    }
}
