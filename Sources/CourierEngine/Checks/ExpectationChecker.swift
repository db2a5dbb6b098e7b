import CourierDiagnostics
import CourierJSON
import CourierResults
import CourierSecrets
import CourierWorkflow

/// Evaluates every expectation of a step and records each one with its outcome:
/// every failure (not just the first) and, for each expectation that held, one
/// passed record with the expected and actual values.
struct ExpectationChecker {
    let renderer: TemplateRenderer
    /// The run's secrets, which the `jwt` predicate reads and adds a secret token to.
    var secrets: SecretRegistry?

    init(renderer: TemplateRenderer, secrets: SecretRegistry? = nil) {
        self.renderer = renderer
        self.secrets = secrets
    }

    func check(_ expect: Expectations, response: ResponseView, stepRange: SourceRange) -> [ExpectationResult] {
        // Made when an expectation needs it: a step checking a literal status does not.
        lazy var matchers = MatcherEvaluator(renderer: renderer, secrets: secrets)
        var items = expect.items[...]
        // The status comes first: its list is the one the others are appended to.
        var results: [ExpectationResult] = []
        if let first = items.first, case .status = first.target {
            if let passed = Self.passedLiteralStatus(first, actual: response.status) {
                results = [passed]
                items = items.dropFirst()
            }
        } else {
            results = Self.implicitStatus(response.status, stepRange: stepRange)
        }
        // A body that is not JSON is reported once for all the JSONPath expectations.
        var notJSONReported = false
        for item in items {
            guard let (subject, actual, nodelist) = read(item, response: response, results: &results, notJSONReported: &notJSONReported) else {
                continue
            }
            let failures: [ExpectationResult]
            let expected: CheckedValue?
            switch item.check {
            case .matcher(let matcher):
                var evaluator = matchers
                evaluator.durationOperands = item.kind.readsDurations
                evaluator.comparesAsText = item.kind.comparesAsText
                if item.kind.comparesAsText, case .equals(let value) = matcher, let actual {
                    failures = textEquality(value, actual: actual, subject: subject)
                } else {
                    failures = evaluator.check(matcher, actual: actual, subject: subject, nodelist: nodelist)
                }
                expected = failures.isEmpty ? evaluator.expected(matcher) : nil
            case .schema(let source):
                failures = actual.map { SchemaChecker(renderer: renderer).check(source, instance: $0, subject: subject) } ?? []
                expected = .words("valid against the schema")
            case .statusCodes(let codes):
                results += checkCodes(codes, item, actual: response.status)
                continue
            case .equalsFile(let file):
                results.append(compare(file, item, response: response))
                continue
            }
            if failures.isEmpty {
                results.append(.passed(location: item.range, subject: subject, expected: expected, actual: actual.map { .value($0) } ?? .nothing))
            } else {
                results += failures
            }
        }
        return results
    }

    // MARK: - Reading the response

    /// What `item` reads, with the subject its results name; nil after recording why it cannot be read.
    private func read(_ item: Expectation, response: ResponseView, results: inout [ExpectationResult],
                      notJSONReported: inout Bool) -> (subject: String, actual: JSONValue?, nodelist: Bool)? {
        switch item.target {
        case .status:
            return ("status", .number(JSONNumber(response.status)), false)
        case .header(let template):
            guard let name = renderedName(template, kind: "header", failures: &results) else { return nil }
            return ("header \(name)", response.header(name), false)
        case .cookie(let template):
            guard let name = renderedName(template, kind: "cookie", failures: &results) else { return nil }
            return ("cookie \(name)", response.cookie(name).map(JSONValue.string), false)
        case .cookieAttribute(let template, let attribute):
            guard let name = renderedName(template, kind: "cookie", failures: &results) else { return nil }
            return ("cookie \(name) \(attribute.rawValue)", response.setCookie(name)?.read(attribute), false)
        case .body:
            return ("body", .string(response.text), false)
        case .durationMilliseconds:
            return ("duration (ms)", .number(JSONNumber(response.durationMilliseconds)), false)
        case .bytes(.content, let which):
            // Read by `compare`, from the bytes themselves.
            return (Self.bytesSubject(which), nil, false)
        case .bytes(let view, let which):
            return (Self.bytesSubject(which) + " " + view.key, response.bytesValue(view, which), false)
        case .httpVersion:
            return ("http_version", .string(response.response.httpVersion), false)
        case .url:
            return ("url", .string(response.url), false)
        case .redirectCount:
            return ("redirects", .number(JSONNumber(response.response.redirects.count)), false)
        case .redirect(let index, .query(let template)):
            guard let name = renderedName(template, kind: "query parameter", failures: &results) else { return nil }
            return ("redirects[\(index)].query.\(name)", response.redirectQuery(index, name: name), false)
        case .redirect(let index, let part):
            return ("redirects[\(index)].\(part.key)", response.redirect(index, part), false)
        case .json(let query):
            let subject = "json \(query.text)"
            switch response.json() {
            case .success(let root):
                switch JSONQueryEvaluation(renderer: renderer).result(query, in: root) {
                case .success(let result):
                    // A singular query gives its value or nothing; any other always a list.
                    return (subject, result.value, !query.isSingular)
                case .failure(let failure):
                    results.append(ExpectationResult.failure(location: failure.range, subject: subject, message: "\(subject): \(failure.message)"))
                    return nil
                }
            case .failure(let error):
                if !notJSONReported {
                    notJSONReported = true
                    results.append(ExpectationResult.failure(
                        location: query.range, subject: "json",
                        message: ResponseView.notJSON(error) + "; json expectations cannot be checked",
                        expected: "a JSON body", actual: Self.preview(response.text)))
                }
                return nil
            }
        case .document:
            let subject = item.kind.shape.key
            switch response.json() {
            case .success(let root):
                return (subject, root, false)
            case .failure(let error):
                results.append(ExpectationResult.failure(
                    location: item.range, subject: subject,
                    message: "\(subject): " + ResponseView.notJSON(error),
                    expected: "a JSON body", actual: Self.preview(response.text)))
                return nil
            }
        }
    }

    /// A header or cookie name, rendered when it holds a template; nil after recording why not.
    private func renderedName(_ name: Template, kind: String, failures: inout [ExpectationResult]) -> String? {
        if let literal = name.literalText { return literal }
        do { return try renderer.string(name) } catch {
            failures.append(ExpectationResult.failure(location: error.range ?? name.range, subject: kind, message: "\(kind) name: \(error.message)"))
            return nil
        }
    }

    // MARK: - Status

    /// Without expect.status an error status fails the step: a smoke test that "passes" on a
    /// 500 helps nobody.
    private static func implicitStatus(_ actual: Int, stepRange: SourceRange) -> [ExpectationResult] {
        let actualValue = CheckedValue.value(.number(JSONNumber(actual)))
        let implicit = CheckedValue.words("a status below 400 (no expect.status given)")
        guard actual >= 400 else {
            return [.passed(location: stepRange, subject: "status", expected: implicit, actual: actualValue)]
        }
        return [ExpectationResult.failure(location: stepRange, subject: "status",
                                 message: "status \(actual) is an error; add 'expect: { status: \(actual) }' to the step if that is what you want",
                                 expectedValue: implicit, actualValue: actualValue)]
    }

    private func checkCodes(_ written: [StatusPattern], _ status: Expectation, actual: Int) -> [ExpectationResult] {
        let actualValue = CheckedValue.value(.number(JSONNumber(actual)))
        let patterns: [StatusPattern]
        do throws(ExpectationResult) {
            patterns = try written.map { (pattern: StatusPattern) throws(ExpectationResult) in try rendered(pattern) }
        } catch {
            return [error]
        }
        // One code is a value (201); classes and lists are words (`2xx`, `one of 200, 204`).
        let expectedValue: CheckedValue
        if patterns.count == 1, case .code(let code) = patterns[0] {
            expectedValue = .value(.number(JSONNumber(code)))
        } else {
            let names = patterns.map { pattern in
                switch pattern {
                case .code(let code): String(code)
                case .statusClass(let c): "\(c)xx"
                case .template(let t): t.literalText ?? "?"
                }
            }
            expectedValue = .words(names.count == 1 ? names[0] : "one of " + names.joined(separator: ", "))
        }
        if patterns.contains(where: { $0.matches(actual) }) {
            return [.passed(location: status.range, subject: "status", expected: expectedValue, actual: actualValue)]
        }
        return [ExpectationResult.failure(location: status.range, subject: "status",
                                 message: "status: expected \(expectedValue.rendered), got \(actual)",
                                 expectedValue: expectedValue, actualValue: actualValue)]
    }

    /// A literal code that matched (`status: 200`), what most steps check: the code is both
    /// the expected and the actual value, made once, with no rendering and no list of patterns.
    /// Nil for anything else (``checkCodes(_:_:actual:)`` decides).
    private static func passedLiteralStatus(_ status: Expectation, actual: Int) -> ExpectationResult? {
        guard case .statusCodes(let written) = status.check, written.count == 1, case .code(let code) = written[0],
              code == actual else { return nil }
        let value = CheckedValue.value(.number(JSONNumber(code)))
        return .passed(location: status.range, subject: "status", expected: value, actual: value)
    }

    /// A `"{{ code }}"` status rendered to the code or class it names.
    private func rendered(_ pattern: StatusPattern) throws(ExpectationResult) -> StatusPattern {
        guard case .template(let template) = pattern else { return pattern }
        let value: JSONValue
        do { value = try renderer.value(template) } catch {
            throw ExpectationResult.failure(location: error.range, subject: "status", message: "status: \(error.message)")
        }
        let resolved: StatusPattern? = switch value {
        // `201`, not `201.0` or `2.01e2`: a status is written as a whole number.
        case .number(let number): number.text.allSatisfy { $0.isASCII && $0.isNumber } ? StatusPattern(text: number.text) : nil
        case .string(let text): StatusPattern(text: text)
        default: nil
        }
        guard let resolved else {
            let shown = Self.preview(value.serialized())
            throw ExpectationResult.failure(location: template.range, subject: "status",
                                   message: "status: the template gave \(shown), not a code from 100 to 599 or a class like '2xx'",
                                   expected: "a status code or class", actual: shown)
        }
        return resolved
    }

    private func textEquality(_ expected: TemplateValue, actual: JSONValue, subject: String) -> [ExpectationResult] {
        let expectedText: String
        do { expectedText = TemplateRenderer.interpolation(try renderer.value(expected)) } catch {
            return [ExpectationResult.failure(location: error.range, subject: subject, message: "\(subject): \(error.message)")]
        }
        let actualText = TemplateRenderer.interpolation(actual)
        if case .array(let values) = actual, values.contains(.string(expectedText)) { return [] }
        if actualText == expectedText { return [] }
        return [ExpectationResult.failure(location: expected.range, subject: subject,
                                 message: "\(subject): expected \"\(Self.preview(expectedText))\", got \"\(Self.preview(actualText))\"",
                                 expected: ShownText.cut(expectedText, maxBytes: ShownText.reportLimit),
                                 actual: ShownText.cut(actualText, maxBytes: ShownText.reportLimit))]
    }

    static func preview(_ text: String) -> String {
        // Look at a bounded prefix only: `count` on a 20 MB body walks every character.
        let head = text.utf8.count > 1024 ? ShownText.cut(text, maxBytes: 1024) : text
        return head.count > 200 ? String(head.prefix(200)) + "…" : head
    }
}
