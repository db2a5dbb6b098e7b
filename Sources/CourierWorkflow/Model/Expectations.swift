import CourierDiagnostics

/// A step's `expect:` block (spec section 7).
package struct Expectations: Sendable {
    package var status: StatusExpectation?
    package var headers: [NamedMatcher]
    /// JSONPath → matcher, in file order.
    package var json: [JSONExpectation]
    package var body: Matcher?
    package var schema: SchemaSource?
    /// Operands of ordering predicates are milliseconds (normalised at decode time).
    package var duration: Matcher?
    package var cookies: [NamedMatcher]
    /// The `expect:` mapping, or the step's range when there was none.
    package var range: SourceRange

    package init(status: StatusExpectation? = nil, headers: [NamedMatcher] = [], json: [JSONExpectation] = [],
                 body: Matcher? = nil, schema: SchemaSource? = nil, duration: Matcher? = nil,
                 cookies: [NamedMatcher] = [], range: SourceRange) {
        self.status = status
        self.headers = headers
        self.json = json
        self.body = body
        self.schema = schema
        self.duration = duration
        self.cookies = cookies
        self.range = range
    }
}

/// `status: 200`, `[200, 201]`, `"2xx"`, `[200, "3xx"]`, `"{{ code }}"` or a predicate map.
package struct StatusExpectation: Sendable {
    package enum Kind: Sendable {
        /// Any of these codes or classes.
        case oneOf([StatusPattern])
        case matcher(Matcher)
    }

    package var kind: Kind
    package var range: SourceRange

    package init(_ kind: Kind, range: SourceRange) {
        self.kind = kind
        self.range = range
    }
}

package enum StatusPattern: Sendable {
    case code(Int)
    /// `2xx` → 2.
    case statusClass(Int)
    /// `"{{ code }}"`: rendered when the status is checked, to a code or a class
    /// (see ``init(text:)``); anything else fails the step at the template.
    case template(Template)

    /// A code from 100 to 599 (`"201"` too) or a class like `2xx`, from its text.
    package init?(text: String) {
        if let code = Int(text), (100...599).contains(code) {
            self = .code(code)
            return
        }
        let lower = text.lowercased()
        if lower.count == 3, lower.hasSuffix("xx"), let digit = Int(lower.prefix(1)), (1...5).contains(digit) {
            self = .statusClass(digit)
            return
        }
        return nil
    }

    /// Whether `status` matches; a template matches nothing until it is rendered.
    package func matches(_ status: Int) -> Bool {
        switch self {
        case .code(let code): return status == code
        case .statusClass(let c): return status / 100 == c
        case .template: return false
        }
    }
}

/// A header or cookie expectation; the name may hold a template, rendered when checked.
package struct NamedMatcher: Sendable {
    package var name: Template
    package var matcher: Matcher
    /// The name's range.
    package var range: SourceRange

    package init(name: Template, matcher: Matcher, range: SourceRange) {
        self.name = name
        self.matcher = matcher
        self.range = range
    }

    /// The name when it holds no template.
    package var literalName: String? { name.literalText }
}

/// `$.path: matcher` under `expect.json`.
package struct JSONExpectation: Sendable {
    /// Compiled at load; its range is the key's.
    package var path: JSONQuery
    package var matcher: Matcher

    package init(path: JSONQuery, matcher: Matcher) {
        self.path = path
        self.matcher = matcher
    }
}
