import CourierDiagnostics

/// A step's `expect:` block (spec section 7): its expectations in the order of
/// ``ExpectationKind/all`` (the status first), each kind's entries in file order.
package struct Expectations: Sendable {
    package var items: [Expectation]
    /// The `expect:` mapping, or the step's range when there was none.
    package var range: SourceRange

    package init(_ items: [Expectation] = [], range: SourceRange) {
        self.items = items
        self.range = range
    }

    /// Whether one of them reads the body as received (`bytes: { raw: true }`).
    package var readsRawBytes: Bool {
        items.contains { if case .bytes(_, .raw) = $0.target { true } else { false } }
    }
}

/// One expectation: what of the response it reads and how that is checked.
///
/// Immutable; a class so that checking a step hands each expectation on as one reference, not
/// as a copy of its target's and check's every part.
package final class Expectation: Sendable {
    package let kind: ExpectationKind
    package let target: ResponseTarget
    package let check: ExpectationCheck
    /// Where its passed record points (the matcher, the status, or the `expect:` for a schema).
    package let range: SourceRange

    package init(_ kind: ExpectationKind, target: ResponseTarget, check: ExpectationCheck, range: SourceRange) {
        self.kind = kind
        self.target = target
        self.check = check
        self.range = range
    }
}

/// The part of a response an expectation reads. The engine reads each in one place; a new
/// expectation kind over these parts needs no engine change.
package enum ResponseTarget: Sendable {
    case status
    /// A header by name, the name rendered when checked.
    case header(Template)
    /// A cookie the response sets, by name.
    case cookie(Template)
    /// An attribute of the `Set-Cookie` line that sets a cookie (`cookies: { s: { http_only: true } }`).
    case cookieAttribute(Template, CookieAttribute)
    /// The body as text.
    case body
    /// The value (or, for a non-singular query, the list) a JSONPath gives in the JSON body.
    case json(JSONQuery)
    /// The whole JSON body.
    case document
    /// The response time in milliseconds.
    case durationMilliseconds
    /// A view of the body's bytes (its length, a digest, hex, base64 or the bytes whole),
    /// decoded or as received.
    case bytes(BytesView, BodyBytes)
    /// The response's HTTP version as text: `1.0`, `1.1`, `2` or `3`.
    case httpVersion
    /// The URL of the last hop (libcurl's `CURLINFO_EFFECTIVE_URL`), after redirects.
    case url
    /// How many redirects were followed to reach the response.
    case redirectCount
    /// One part of the redirect hop at `index` (0 is the first redirect response).
    case redirect(index: Int, part: RedirectHopPart)
}

/// What of one redirect hop an expectation reads (`expect.redirects` written as a list).
package enum RedirectHopPart: Sendable {
    /// The redirect's status code (301, 302, …).
    case status
    /// Its `Location` header as the server sent it (relative or absolute).
    case location
    /// The URL this hop requested.
    case url
    /// A parameter of the decoded query of the hop's `Location`, by name (which may hold a template).
    case query(Template)

    /// The part's key in a hop of `expect.redirects` and in `steps.<id>.redirects[n]`.
    package var key: String {
        switch self {
        case .status: "status"
        case .location: "location"
        case .url: "url"
        case .query: "query"
        }
    }
}

/// How an expectation checks what it read.
package enum ExpectationCheck: Sendable {
    case matcher(Matcher)
    /// Any of these codes or classes (`200`, `[200, 201]`, `"2xx"`, `"{{ code }}"`).
    case statusCodes([StatusPattern])
    case schema(SchemaSource)
    /// The bytes equal a file's (`bytes: { equals_file: path }`); the target is
    /// ``ResponseTarget/bytes(_:_:)`` with ``BytesView/content``.
    case equalsFile(BytesFile)
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
