import CourierDiagnostics
import CourierJSON
import CourierWorkflow

/// Evaluates every expectation of a step and reports every failure, not just the first.
struct ExpectationChecker {
    let renderer: TemplateRenderer

    func check(_ expect: Expectations, response: ResponseView, stepRange: SourceRange) -> [AssertionFailure] {
        var failures: [AssertionFailure] = []
        let matchers = MatcherEvaluator(renderer: renderer)

        failures += checkStatus(expect.status, response: response, stepRange: stepRange, matchers: matchers)

        for header in expect.headers {
            guard let name = renderedName(header, kind: "header", failures: &failures) else { continue }
            let actual = response.header(name)
            let subject = "header \(name)"
            if case .equals(let expected) = header.matcher, let actual {
                // Header values are text: `Content-Length: 42` in YAML means the text "42".
                failures += textEquality(expected, actual: actual, subject: subject)
            } else {
                failures += matchers.check(header.matcher, actual: actual, subject: subject)
            }
        }

        if !expect.json.isEmpty {
            switch response.json() {
            case .success(let root):
                for expectation in expect.json {
                    failures += checkJSON(expectation, root: root, matchers: matchers)
                }
            case .failure(let error):
                failures.append(AssertionFailure(
                    location: expect.json[0].path.range, subject: "json",
                    message: ResponseView.notJSON(error) + "; json expectations cannot be checked",
                    expected: "a JSON body", actual: Self.preview(response.text)))
            }
        }

        if let body = expect.body {
            failures += matchers.check(body, actual: .string(response.text), subject: "body")
        }
        if let schema = expect.schema {
            switch response.json() {
            case .success(let root):
                failures += SchemaChecker(renderer: renderer).check(schema, instance: root, subject: "schema")
            case .failure(let error):
                failures.append(AssertionFailure(
                    location: expect.range, subject: "schema",
                    message: "schema: " + ResponseView.notJSON(error),
                    expected: "a JSON body", actual: Self.preview(response.text)))
            }
        }
        if let duration = expect.duration {
            var durationMatchers = matchers
            durationMatchers.durationOperands = true
            failures += durationMatchers.check(duration, actual: .number(JSONNumber(response.durationMilliseconds)), subject: "duration (ms)")
        }
        for cookie in expect.cookies {
            guard let name = renderedName(cookie, kind: "cookie", failures: &failures) else { continue }
            failures += matchers.check(cookie.matcher, actual: response.cookie(name).map(JSONValue.string), subject: "cookie \(name)")
        }
        return failures
    }

    /// A header or cookie name, rendered when it holds a template; nil after recording why not.
    private func renderedName(_ named: NamedMatcher, kind: String, failures: inout [AssertionFailure]) -> String? {
        if let literal = named.literalName { return literal }
        do { return try renderer.string(named.name) } catch {
            failures.append(AssertionFailure(location: error.range ?? named.range, subject: kind, message: "\(kind) name: \(error.message)"))
            return nil
        }
    }

    // MARK: - Status

    private func checkStatus(_ status: StatusExpectation?, response: ResponseView, stepRange: SourceRange, matchers: MatcherEvaluator) -> [AssertionFailure] {
        let actual = response.status
        guard let status else {
            // Without expect.status an error status fails the step: a smoke test
            // that "passes" on a 500 helps nobody.
            guard actual >= 400 else { return [] }
            return [AssertionFailure(location: stepRange, subject: "status",
                                     message: "status \(actual) is an error; add 'expect: { status: \(actual) }' to the step if that is what you want",
                                     expected: "a status below 400 (no expect.status given)", actual: String(actual))]
        }
        switch status.kind {
        case .oneOf(let written):
            let patterns: [StatusPattern]
            do throws(AssertionFailure) {
                patterns = try written.map { (pattern: StatusPattern) throws(AssertionFailure) in try rendered(pattern) }
            } catch {
                return [error]
            }
            if patterns.contains(where: { $0.matches(actual) }) { return [] }
            let names = patterns.map { pattern in
                switch pattern {
                case .code(let code): String(code)
                case .statusClass(let c): "\(c)xx"
                case .template(let t): t.literalText ?? "?"
                }
            }
            let expected = names.count == 1 ? names[0] : "one of " + names.joined(separator: ", ")
            return [AssertionFailure(location: status.range, subject: "status",
                                     message: "status: expected \(expected), got \(actual)",
                                     expected: expected, actual: String(actual))]
        case .matcher(let matcher):
            return matchers.check(matcher, actual: .number(JSONNumber(actual)), subject: "status")
        }
    }

    /// A `"{{ code }}"` status rendered to the code or class it names.
    private func rendered(_ pattern: StatusPattern) throws(AssertionFailure) -> StatusPattern {
        guard case .template(let template) = pattern else { return pattern }
        let value: JSONValue
        do { value = try renderer.value(template) } catch {
            throw AssertionFailure(location: error.range, subject: "status", message: "status: \(error.message)")
        }
        let resolved: StatusPattern? = switch value {
        // `201`, not `201.0` or `2.01e2`: a status is written as a whole number.
        case .number(let number): number.text.allSatisfy { $0.isASCII && $0.isNumber } ? StatusPattern(text: number.text) : nil
        case .string(let text): StatusPattern(text: text)
        default: nil
        }
        guard let resolved else {
            let shown = Self.preview(value.serialized())
            throw AssertionFailure(location: template.range, subject: "status",
                                   message: "status: the template gave \(shown), not a code from 100 to 599 or a class like '2xx'",
                                   expected: "a status code or class", actual: shown)
        }
        return resolved
    }

    // MARK: - JSON

    private func checkJSON(_ expectation: JSONExpectation, root: JSONValue, matchers: MatcherEvaluator) -> [AssertionFailure] {
        let subject = "json \(expectation.path.text)"
        switch JSONQueryEvaluation(renderer: renderer).result(expectation.path, in: root) {
        case .success(let result):
            // A singular query gives its value or nothing; any other always a list.
            return matchers.check(expectation.matcher, actual: result.value, subject: subject, nodelist: !expectation.path.isSingular)
        case .failure(let failure):
            return [AssertionFailure(location: failure.range, subject: subject, message: "\(subject): \(failure.message)")]
        }
    }

    private func textEquality(_ expected: TemplateValue, actual: JSONValue, subject: String) -> [AssertionFailure] {
        let expectedText: String
        do { expectedText = TemplateRenderer.interpolation(try renderer.value(expected)) } catch {
            return [AssertionFailure(location: error.range, subject: subject, message: "\(subject): \(error.message)")]
        }
        let actualText = TemplateRenderer.interpolation(actual)
        if case .array(let values) = actual, values.contains(.string(expectedText)) { return [] }
        if actualText == expectedText { return [] }
        return [AssertionFailure(location: expected.range, subject: subject,
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
