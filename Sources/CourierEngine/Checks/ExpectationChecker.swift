import CourierDiagnostics
import CourierJSON
import CourierResults
import CourierWorkflow

/// Evaluates every expectation of a step and records each one with its outcome:
/// every failure (not just the first) and, for each expectation that held, one
/// passed record with the expected and actual values.
struct ExpectationChecker {
    let renderer: TemplateRenderer

    func check(_ expect: Expectations, response: ResponseView, stepRange: SourceRange) -> [ExpectationResult] {
        // Made when an expectation needs it: a step checking a literal status does not.
        lazy var matchers = MatcherEvaluator(renderer: renderer)
        // The status comes first: its list is the one the others are appended to.
        var results: [ExpectationResult]
        if let passed = Self.passedLiteralStatus(expect.status, actual: response.status) {
            results = [passed]
        } else {
            results = checkStatus(expect.status, response: response, stepRange: stepRange, matchers: matchers)
        }
        /// The failures of one expectation, or its passed record when there are none.
        func record(_ failures: [ExpectationResult], subject: String, location: SourceRange?,
                    expected: @autoclosure () -> CheckedValue?, actual: JSONValue?) {
            if failures.isEmpty {
                results.append(.passed(location: location, subject: subject, expected: expected(),
                                       actual: actual.map { .value($0) } ?? .nothing))
            } else {
                results += failures
            }
        }

        for header in expect.headers {
            guard let name = renderedName(header, kind: "header", failures: &results) else { continue }
            let actual = response.header(name)
            let subject = "header \(name)"
            if case .equals(let expected) = header.matcher, let actual {
                // Header values are text: `Content-Length: 42` in YAML means the text "42".
                record(textEquality(expected, actual: actual, subject: subject), subject: subject, location: header.matcher.range,
                       expected: matchers.expected(header.matcher), actual: actual)
            } else {
                record(matchers.check(header.matcher, actual: actual, subject: subject), subject: subject,
                       location: header.matcher.range, expected: matchers.expected(header.matcher), actual: actual)
            }
        }

        if !expect.json.isEmpty {
            switch response.json() {
            case .success(let root):
                for expectation in expect.json {
                    results += checkJSON(expectation, root: root, matchers: matchers)
                }
            case .failure(let error):
                results.append(ExpectationResult.failure(
                    location: expect.json[0].path.range, subject: "json",
                    message: ResponseView.notJSON(error) + "; json expectations cannot be checked",
                    expected: "a JSON body", actual: Self.preview(response.text)))
            }
        }

        if let body = expect.body {
            let actual = JSONValue.string(response.text)
            record(matchers.check(body, actual: actual, subject: "body"), subject: "body", location: body.range,
                   expected: matchers.expected(body), actual: actual)
        }
        if let schema = expect.schema {
            switch response.json() {
            case .success(let root):
                record(SchemaChecker(renderer: renderer).check(schema, instance: root, subject: "schema"), subject: "schema",
                       location: expect.range, expected: .words("valid against the schema"), actual: root)
            case .failure(let error):
                results.append(ExpectationResult.failure(
                    location: expect.range, subject: "schema",
                    message: "schema: " + ResponseView.notJSON(error),
                    expected: "a JSON body", actual: Self.preview(response.text)))
            }
        }
        if let duration = expect.duration {
            var durationMatchers = matchers
            durationMatchers.durationOperands = true
            let actual = JSONValue.number(JSONNumber(response.durationMilliseconds))
            record(durationMatchers.check(duration, actual: actual, subject: "duration (ms)"), subject: "duration (ms)",
                   location: duration.range, expected: durationMatchers.expected(duration), actual: actual)
        }
        for cookie in expect.cookies {
            guard let name = renderedName(cookie, kind: "cookie", failures: &results) else { continue }
            let actual = response.cookie(name).map(JSONValue.string)
            record(matchers.check(cookie.matcher, actual: actual, subject: "cookie \(name)"), subject: "cookie \(name)",
                   location: cookie.matcher.range, expected: matchers.expected(cookie.matcher), actual: actual)
        }
        return results
    }

    /// A header or cookie name, rendered when it holds a template; nil after recording why not.
    private func renderedName(_ named: NamedMatcher, kind: String, failures: inout [ExpectationResult]) -> String? {
        if let literal = named.literalName { return literal }
        do { return try renderer.string(named.name) } catch {
            failures.append(ExpectationResult.failure(location: error.range ?? named.range, subject: kind, message: "\(kind) name: \(error.message)"))
            return nil
        }
    }

    // MARK: - Status

    private func checkStatus(_ status: StatusExpectation?, response: ResponseView, stepRange: SourceRange, matchers: MatcherEvaluator) -> [ExpectationResult] {
        let actual = response.status
        let actualValue = CheckedValue.value(.number(JSONNumber(actual)))
        guard let status else {
            // Without expect.status an error status fails the step: a smoke test
            // that "passes" on a 500 helps nobody.
            let implicit = CheckedValue.words("a status below 400 (no expect.status given)")
            guard actual >= 400 else {
                return [.passed(location: stepRange, subject: "status", expected: implicit, actual: actualValue)]
            }
            return [ExpectationResult.failure(location: stepRange, subject: "status",
                                     message: "status \(actual) is an error; add 'expect: { status: \(actual) }' to the step if that is what you want",
                                     expectedValue: implicit, actualValue: actualValue)]
        }
        switch status.kind {
        case .oneOf(let written):
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
        case .matcher(let matcher):
            let failures = matchers.check(matcher, actual: .number(JSONNumber(actual)), subject: "status")
            guard failures.isEmpty else { return failures }
            return [.passed(location: matcher.range, subject: "status", expected: matchers.expected(matcher), actual: actualValue)]
        }
    }

    /// A literal code that matched (`status: 200`), what most steps check: the code is both
    /// the expected and the actual value, made once, with no rendering and no list of patterns.
    /// Nil for anything else (``checkStatus(_:response:stepRange:matchers:)`` decides).
    private static func passedLiteralStatus(_ status: StatusExpectation?, actual: Int) -> ExpectationResult? {
        guard let status, case .oneOf(let written) = status.kind, written.count == 1, case .code(let code) = written[0],
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

    // MARK: - JSON

    private func checkJSON(_ expectation: JSONExpectation, root: JSONValue, matchers: MatcherEvaluator) -> [ExpectationResult] {
        let subject = "json \(expectation.path.text)"
        switch JSONQueryEvaluation(renderer: renderer).result(expectation.path, in: root) {
        case .success(let result):
            // A singular query gives its value or nothing; any other always a list.
            let failures = matchers.check(expectation.matcher, actual: result.value, subject: subject, nodelist: !expectation.path.isSingular)
            guard failures.isEmpty else { return failures }
            return [.passed(location: expectation.matcher.range, subject: subject, expected: matchers.expected(expectation.matcher),
                            actual: result.value.map { .value($0) } ?? .nothing)]
        case .failure(let failure):
            return [ExpectationResult.failure(location: failure.range, subject: subject, message: "\(subject): \(failure.message)")]
        }
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
