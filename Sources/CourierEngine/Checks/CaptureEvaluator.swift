import CourierDiagnostics
import CourierJSON
import CourierResults
import CourierSecrets
import CourierWorkflow
import Foundation

/// Reads captures (spec section 8) from a response.
struct CaptureEvaluator {
    let renderer: TemplateRenderer
    /// The run's secrets, for a `jwt` predicate in a capture's `expect:` (a `secret: true`
    /// capture's token is registered before its checks, so its claims are only named).
    var secrets: SecretRegistry?

    /// A value a capture gives its variable.
    struct Captured {
        let value: JSONValue
        /// Read from the response, not a `default` standing in for nothing: only such a value
        /// is held to the capture's `expect:`.
        let isFromResponse: Bool
    }

    /// The captured value, or the failure to report; a `default` stands in for nothing.
    func capture(_ capture: Capture, from response: ResponseView) -> Result<Captured, ExpectationResult> {
        let name = capture.name.value
        let found: JSONValue?
        var nothingBecause: String
        switch capture.source {
        case .json(let query):
            switch response.json() {
            case .success(let root):
                switch JSONQueryEvaluation(renderer: renderer).result(query, in: root) {
                case .success(let result):
                    // A query that is not singular captures a list, even of 0 or 1 values.
                    found = result.value
                    nothingBecause = "\(result.ran.text) matched nothing"
                case .failure(let failure):
                    return .failure(ExpectationResult.failure(location: failure.range, subject: "capture \(name)",
                                                     message: "capture '\(name)': \(query.text): \(failure.message)"))
                }
            case .failure(let error):
                found = nil
                nothingBecause = ResponseView.notJSON(error)
            }
        case .header(let header):
            found = response.header(header)
            nothingBecause = "the response has no header '\(header)'"
        case .cookie(let cookie):
            found = response.cookie(cookie).map(JSONValue.string)
            nothingBecause = "the response sets no cookie '\(cookie)'"
        case .regex(let pattern, let subject):
            let text: String?
            switch subject {
            case .body:
                text = response.text
                nothingBecause = "the body does not match /\(pattern.value.source)/"
            case .header(let header):
                text = response.header(header).map(TemplateRenderer.interpolation)
                nothingBecause = "header '\(header)' does not match /\(pattern.value.source)/"
            case .json(let query):
                switch jsonValue(query, in: response) {
                case .found(let value):
                    text = TemplateRenderer.interpolation(value)
                    nothingBecause = "\(query.text) does not match /\(pattern.value.source)/"
                case .none(let why):
                    text = nil
                    nothingBecause = why
                }
            }
            switch text.map({ Self.firstGroup(pattern.value, in: $0) }) {
            case .success(let group)?:
                found = group.map(JSONValue.string)
            case .failure(let exceeded)?:
                return .failure(ExpectationResult.failure(location: pattern.range, subject: "capture \(name)",
                                                 message: "capture '\(name)': regex: \(exceeded)"))
            case nil:
                found = nil
            }
        case .status, .body, .duration, .url, .redirects:
            found = Self.alwaysThere(capture.source, in: response)
            nothingBecause = ""
        case .bytes(let view, let which):
            found = response.bytesValue(view, which)
            nothingBecause = ""
        }
        if let found { return .success(Captured(value: found, isFromResponse: true)) }
        if let fallback = capture.defaultValue {
            do { return .success(Captured(value: try renderer.value(fallback), isFromResponse: false)) } catch {
                return .failure(ExpectationResult.failure(location: error.range, subject: "capture \(name)", message: "capture '\(name)': \(error.message)"))
            }
        }
        return .failure(ExpectationResult.failure(location: capture.range, subject: "capture \(name)",
                                         message: "capture '\(name)': \(nothingBecause); add 'default:' to make it optional",
                                         expected: "a value", actual: "(nothing)"))
    }

    /// The capture's records: one passed one, with what `expect:` asked when it has one, or the
    /// ways the value fails its `expect:`. The renderer's scope holds the value by its name.
    func records(_ capture: Capture, _ captured: Captured) -> [ExpectationResult] {
        let subject = "capture \(capture.name.value)"
        let actual: CheckedValue = capture.secret ? .words(MaskingPolicy.mask) : .value(captured.value)
        guard let expect = capture.expect, captured.isFromResponse else {
            return [.passed(location: capture.range, subject: subject, expected: nil, actual: actual)]
        }
        let evaluator = MatcherEvaluator(renderer: renderer, secrets: secrets)
        let failures = evaluator.check(expect, actual: captured.value, subject: subject)
        guard failures.isEmpty else { return failures }
        return [.passed(location: expect.range, subject: subject, expected: evaluator.expected(expect), actual: actual)]
    }

    private enum JSONReading {
        case found(JSONValue)
        case none(why: String)
    }

    /// The value a singular query finds, or why there is none.
    private func jsonValue(_ query: JSONQuery, in response: ResponseView) -> JSONReading {
        switch response.json() {
        case .success(let root):
            switch JSONQueryEvaluation(renderer: renderer).result(query, in: root) {
            case .success(let result): return result.value.map(JSONReading.found) ?? .none(why: "\(query.text) matched nothing")
            case .failure(let failure): return .none(why: "\(query.text): \(failure.message)")
            }
        case .failure(let error):
            return .none(why: ResponseView.notJSON(error))
        }
    }

    /// What a source that every response has reads.
    private static func alwaysThere(_ source: CaptureSource, in response: ResponseView) -> JSONValue? {
        switch source {
        case .status: .number(JSONNumber(response.status))
        case .body: .string(response.text)
        case .duration: .number(JSONNumber(response.durationMilliseconds))
        case .url: .string(response.url)
        case .redirects: response.redirectList
        case .json, .header, .cookie, .regex, .bytes: nil
        }
    }

    /// The first capture group, or the whole match when the pattern has none; `nil` when
    /// there is no match or the first group did not take part.
    static func firstGroup(_ regex: RegexPattern, in text: String) -> Result<String?, RegexBudgetExceeded> {
        switch regex.firstMatch(in: text) {
        case .match(let match): .success(match[regex.groupCount > 0 ? 1 : 0])
        case .noMatch: .success(nil)
        case .tooExpensive(let exceeded): .failure(exceeded)
        }
    }
}
