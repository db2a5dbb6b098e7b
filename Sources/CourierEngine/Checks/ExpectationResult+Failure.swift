import CourierDiagnostics
import CourierResults

extension ExpectationResult {
    /// A failure whose expected and actual values are words, not JSON values
    /// (`a JSON body`, a schema violation, a header's text): shown as they are.
    static func failure(location: SourceRange?, subject: String, message: String,
                        expected: String? = nil, actual: String? = nil) -> ExpectationResult {
        ExpectationResult(location: location, subject: subject, message: message,
                          expected: expected.map(CheckedValue.words), actual: actual.map(CheckedValue.words))
    }

    /// A failure with values.
    static func failure(location: SourceRange?, subject: String, message: String,
                        expectedValue: CheckedValue?, actualValue: CheckedValue?) -> ExpectationResult {
        ExpectationResult(location: location, subject: subject, message: message, expected: expectedValue, actual: actualValue)
    }
}
