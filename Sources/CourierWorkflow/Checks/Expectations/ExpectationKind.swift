import CourierDiagnostics

/// One key of `expect:` (spec section 7): its shape, what of the response it reads and how it
/// is decoded, declared together in ``ExpectationKind/all``.
///
/// The engine checks every kind the same way: it reads the expectation's ``ResponseTarget``
/// and runs its ``ExpectationCheck``; the name checker walks targets and checks, so the
/// templates of a new kind are checked without touching either.
package final class ExpectationKind: Sendable {
    package let shape: CheckShape
    /// Values compared for equality as text: a header is text, so `Content-Length: 42` means "42".
    package let comparesAsText: Bool
    /// Operands of ordering predicates are durations, in milliseconds.
    package let readsDurations: Bool
    /// The expectations `value` (this kind's value, inside the `expect:` at `expect`) holds.
    let decode: @Sendable (_ decoder: WorkflowDecoder, _ kind: ExpectationKind, _ value: YAMLNode, _ expect: SourceRange) -> [Expectation]

    init(_ shape: CheckShape, comparesAsText: Bool = false, readsDurations: Bool = false,
         decode: @escaping @Sendable (WorkflowDecoder, ExpectationKind, YAMLNode, SourceRange) -> [Expectation]) {
        self.shape = shape
        self.comparesAsText = comparesAsText
        self.readsDurations = readsDurations
        self.decode = decode
    }
}

extension ExpectationKind {
    /// Every kind, in the order a step's expectations are checked and reported (the status
    /// first: the others' results are appended to its list).
    package static let all: [ExpectationKind] = [status, headers, json, body, bytes, schema, duration, cookies, httpVersion, url, redirects]

    /// The keys of `expect:`, for the decoder's did-you-mean.
    package static let keys: [String] = all.map(\.shape.key)

    static let status = ExpectationKind(
        CheckShape(key: "status", operand: .status,
                   description: "The status code: a code, a class like 2xx, a list of them, a template or a predicate map. "
                       + "Without it a status of 400 or more fails the step.",
                   example: "status: [200, 201]")
    ) { decoder, kind, value, _ in
        decoder.statusCheck(value).map { [Expectation(kind, target: .status, check: $0, range: value.range)] } ?? []
    }

    static let headers = ExpectationKind(
        CheckShape(key: "headers", operand: .named(.matcher(.values)),
                   description: "Response headers by name (any case), each a value (compared as text) or predicates.",
                   example: "headers: { Content-Type: { starts_with: application/json } }"),
        comparesAsText: true
    ) { decoder, kind, value, _ in
        decoder.namedMatchers(value, for: "'headers'") { kind.expecting(.header($0), $1) }
    }

    static let json = ExpectationKind(
        CheckShape(key: "json", operand: .paths(.matcher(.valuesOrObjects)),
                   description: "Values in the JSON body by JSONPath (RFC 9535), each a value or predicates.",
                   example: "json: { $.id: { type: integer }, $.items: { length: { gte: 1 } } }")
    ) { decoder, kind, value, _ in
        decoder.pathMatchers(value) { kind.expecting(.json($0), $1) }
    }

    static let body = ExpectationKind(
        CheckShape(key: "body", operand: .matcher(.values), description: "The body as text, a value or predicates.",
                   example: "body: { contains: ok }")
    ) { decoder, kind, value, _ in
        decoder.matcher(value, .init(allowsObjectEquality: false)).map { [kind.expecting(.body, $0)] } ?? []
    }

    static let bytes = ExpectationKind(
        CheckShape(key: "bytes", operand: .fields(bytesFields),
                   description: "The body's bytes after Content-Encoding is undone, or as received with `raw: true`: "
                       + "their length, SHA-256, MD5, hex or base64 (each a value or predicates), or a file they equal.",
                   example: "bytes: { length: { gt: 0 }, sha256: 2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae }")
    ) { decoder, kind, value, _ in
        decoder.bytesExpectations(value, kind)
    }

    /// The keys of `expect.bytes`, in ``BytesView`` order.
    private static let bytesFields: [FieldShape] = [
        FieldShape(key: "length", operand: .matcher(.values), isRequired: false,
                   description: "The number of bytes (UTF-8 bytes for UTF-8 text; `body: { length: }` counts characters)."),
        FieldShape(key: "sha256", operand: .matcher(.values), isRequired: false, description: "The SHA-256 digest in hex."),
        FieldShape(key: "md5", operand: .matcher(.values), isRequired: false, description: "The MD5 digest in hex."),
        FieldShape(key: "hex", operand: .matcher(.values), isRequired: false, description: "The whole body in lower-case hex."),
        FieldShape(key: "base64", operand: .matcher(.values), isRequired: false, description: "The whole body in base64."),
        FieldShape(key: "equals_file", operand: .value, isRequired: false,
                   description: "A file, relative to the workflow, whose bytes the body equals."),
        FieldShape(key: "raw", operand: .flag, isRequired: false,
                   description: "Check the bytes as received, before gzip, deflate or br is undone."),
    ]

    static let schema = ExpectationKind(
        CheckShape(key: "schema", operand: .schema,
                   description: "The JSON body is valid against a JSON Schema, a file path or an inline mapping.",
                   example: "schema: schemas/user.json")
    ) { decoder, kind, value, expect in
        decoder.schemaSource(value).map { [Expectation(kind, target: .document, check: .schema($0), range: expect)] } ?? []
    }

    static let duration = ExpectationKind(
        CheckShape(key: "duration", operand: .matcher(.values),
                   description: "The response time in milliseconds; ordering operands may be durations like 500ms or 2s.",
                   example: "duration: { lt: 500ms }"),
        readsDurations: true
    ) { decoder, kind, value, _ in
        decoder.matcher(value, .init(allowsObjectEquality: false, isDuration: true)).map { [kind.expecting(.durationMilliseconds, $0)] } ?? []
    }

    static let cookies = ExpectationKind(
        CheckShape(key: "cookies", operand: .named(.matcher(.values)),
                   description: "Cookies the response sets, by name, each a value or predicates for its value, "
                       + "or a map of its value and attributes (value, path, domain, expires, max_age, secure, http_only, same_site).",
                   example: "cookies: { session: { value: { exists: true }, http_only: true, same_site: Lax } }")
    ) { decoder, kind, value, _ in
        decoder.cookieExpectations(value) { name, attribute, matcher in
            kind.expecting(attribute == .value ? .cookie(name) : .cookieAttribute(name, attribute), matcher)
        }
    }

    static let httpVersion = ExpectationKind(
        CheckShape(key: "http_version", operand: .matcher(.values),
                   description: "The HTTP version of the response, compared as text: 1.0, 1.1, 2 (or 2.0) or 3, or predicates.",
                   example: "http_version: \"2\""),
        comparesAsText: true
    ) { decoder, kind, value, _ in
        decoder.matcher(value, .init(allowsObjectEquality: false)).flatMap(decoder.knownHTTPVersion).map { [kind.expecting(.httpVersion, $0)] } ?? []
    }

    static let url = ExpectationKind(
        CheckShape(key: "url", operand: .matcher(.values),
                   description: "The final URL, the last hop's after redirects were followed; a value or predicates.",
                   example: "url: { ends_with: /welcome }")
    ) { decoder, kind, value, _ in
        decoder.matcher(value, .init(allowsObjectEquality: false)).map { [kind.expecting(.url, $0)] } ?? []
    }

    /// The parts of one hop of `redirects:` written as a list.
    static let redirectHop: [FieldShape] = [
        FieldShape(key: "status", operand: .matcher(.values), isRequired: false, description: "the redirect's status code"),
        FieldShape(key: "location", operand: .matcher(.values), isRequired: false,
                   description: "its Location header, as the server sent it"),
        FieldShape(key: "url", operand: .matcher(.values), isRequired: false, description: "the URL the hop requested"),
        FieldShape(key: "query", operand: .named(.matcher(.values)), isRequired: false,
                   description: "parameters of its Location's decoded query, by name"),
    ]

    static let redirects = ExpectationKind(
        CheckShape(key: "redirects", operand: .redirects(hops: redirectHop),
                   description: "The redirects followed: how many (a number, a template or predicates), or the list of hops, "
                       + "each with its `status`, `location`, `url` and decoded `query` parameters, every one a value or predicates.",
                   example: "redirects: [{ status: 302, location: { starts_with: /login } }, { status: 301 }]")
    ) { decoder, kind, value, _ in
        decoder.redirectChecks(value, hops: redirectHop) { kind.expecting($0, $1) }
    }

    /// An expectation of this kind checked by a matcher, its passed record at the matcher.
    private func expecting(_ target: ResponseTarget, _ matcher: Matcher) -> Expectation {
        Expectation(self, target: target, check: .matcher(matcher), range: matcher.range)
    }
}
