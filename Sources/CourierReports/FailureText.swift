import CourierEngine

/// Plain-text rendering of one assertion failure, shared by the console and reports.
package enum FailureText {
    /// `file:line:col: subject: message` then expected and actual values.
    package static func describe(_ failure: AssertionFailure) -> String {
        var text = ""
        if let location = failure.location {
            text += "\(location.start.file):\(location.start.line):\(location.start.column): "
        }
        text += failure.message
        if let expected = failure.expected { text += "\n  expected: \(expected)" }
        if let actual = failure.actual { text += "\n  actual:   \(actual)" }
        return text
    }
}
