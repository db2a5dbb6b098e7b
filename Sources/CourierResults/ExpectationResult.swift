import CourierDiagnostics
import CourierJSON

/// One expectation or capture, checked: passed ones are recorded too, with what was
/// expected and what was found, as values (rendered to text only by reporters).
package struct ExpectationResult: Error, Sendable, Codable, Equatable {
    package enum Outcome: String, Sendable, Codable {
        case passed, failed
    }

    /// Where the expectation or capture is written.
    package var location: SourceRange?
    /// What was checked: `status`, `header Content-Type`, `json $.id`, `capture token`.
    package var subject: String
    /// Why it failed, one line (`status: expected 201, got 200`); empty when it passed.
    package var message: String
    package var outcome: Outcome
    package var expected: CheckedValue?
    package var actual: CheckedValue?

    /// A passed expectation.
    package static func passed(location: SourceRange?, subject: String, expected: CheckedValue?,
                               actual: CheckedValue?) -> ExpectationResult {
        ExpectationResult(location: location, subject: subject, outcome: .passed, message: "", expected: expected, actual: actual)
    }

    package var failed: Bool { outcome == .failed }
}

extension ExpectationResult {
    // Here, not in the struct, so that the struct keeps its memberwise initializer (its
    // properties are declared in another order than this one's parameters, or the two
    // would clash): assigning the properties one by one was compiled to build the value
    // in a temporary and copy it out, a retain and a release of everything it holds.
    package init(location: SourceRange?, subject: String, outcome: Outcome = .failed, message: String,
                 expected: CheckedValue? = nil, actual: CheckedValue? = nil) {
        self.init(location: location, subject: subject, message: message, outcome: outcome, expected: expected, actual: actual)
    }
}

/// An expected or actual value: a JSON value, optionally after words that say how
/// it is compared (`≠`, `one of`, `<`), or words alone where there is no value to
/// show (`a UUID`, `(nothing)`, a schema violation, a header's text).
///
/// Values are bounded when recorded (``ShownText/reportLimit``): a larger one is kept
/// as its cut rendering in `text`, with `json` nil, so a 20 MB body costs 64 KiB.
package struct CheckedValue: Sendable, Codable, Equatable {
    package var json: JSONValue?
    /// The words before `json`, or the whole text when `json` is nil.
    package var text: String?

    package init(json: JSONValue?, text: String? = nil) {
        self.json = json
        self.text = text
    }

    /// A value, bounded: past ``ShownText/reportLimit`` serialized bytes only its cut rendering is kept.
    package static func value(_ value: JSONValue, after words: String? = nil) -> CheckedValue {
        // Scalars cannot pass the bound (a string's JSON form is at most 6 bytes per byte
        // plus quotes): recorded without serializing, as every passed status is.
        switch value {
        case .null, .bool, .number:
            return CheckedValue(json: value, text: words)
        case .string(let string) where string.utf8.count * 6 + 2 <= ShownText.reportLimit:
            return CheckedValue(json: value, text: words)
        default:
            break
        }
        let (text, omitted) = value.serialized(pretty: isCollection(value), maxBytes: ShownText.reportLimit)
        guard omitted > 0 else { return CheckedValue(json: value, text: words) }
        let cut = text + ShownText.marker(omitted: omitted)
        return CheckedValue(json: nil, text: words.map { "\($0) \(cut)" } ?? cut)
    }

    /// Words alone: `a UUID`, `valid against the schema`, a header's text.
    package static func words(_ text: String) -> CheckedValue { CheckedValue(json: nil, text: text) }

    /// There is no value (a missing header, a JSONPath that matched nothing).
    package static let nothing = CheckedValue(json: nil, text: "(nothing)")

    /// The text reporters show: arrays and objects pretty-printed, scalars compact,
    /// cut at ``ShownText/reportLimit`` (the same bound the value was recorded with).
    package var rendered: String {
        guard let json else { return text ?? "" }
        let (body, omitted) = json.serialized(pretty: Self.isCollection(json), maxBytes: ShownText.reportLimit)
        let shown = omitted == 0 ? body : body + ShownText.marker(omitted: omitted)
        return text.map { "\($0) \(shown)" } ?? shown
    }

    private static func isCollection(_ value: JSONValue) -> Bool {
        switch value {
        case .array, .object: true
        default: false
        }
    }
}
