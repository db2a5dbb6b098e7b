import CourierDiagnostics
import CourierEngine

/// Plain-text rendering of one assertion failure, shared by the console and reports.
package enum FailureText {
    /// `file:line:col: subject: message` then expected and actual values.
    ///
    /// Each value is cut to `maxValueBytes` (reports show more than the console).
    package static func describe(_ failure: AssertionFailure, masker: SecretMasker? = nil,
                                 maxValueBytes: Int = ShownText.reportLimit) -> String {
        var failure = failure
        if let masker {
            failure.message = masker.mask(failure.message)
            failure.expected = failure.expected.map(masker.mask)
            failure.actual = failure.actual.map(masker.mask)
        }
        var text = ""
        if let location = failure.location {
            text += "\(location.start.file):\(location.start.line):\(location.start.column): "
        }
        text += failure.message
        text += "\n" + comparison(expected: failure.expected, actual: failure.actual, maxValueBytes: maxValueBytes).joined(separator: "\n")
        return text
    }

    /// The expected and actual values as indented lines: one line each when
    /// short, else a line diff (`-` expected, `+` actual). Mask the values first.
    ///
    /// Each value is cut to `maxValueBytes` on a character boundary before it is
    /// shown or diffed, and a diff shows at most ``ShownText/diffLineLimit`` lines.
    package static func comparison(expected: String?, actual: String?, maxValueBytes: Int = ShownText.consoleLimit) -> [String] {
        let expected = expected.map { ShownText.cut($0, maxBytes: maxValueBytes) }
        let actual = actual.map { ShownText.cut($0, maxBytes: maxValueBytes) }
        if let expected, let actual, LineDiff.isLong(expected, actual),
           let diff = LineDiff.unified(expected: expected, actual: actual) {
            return ["  diff (- expected, + actual):"] + diff.split(separator: "\n", omittingEmptySubsequences: false).map { "    \($0)" }
        }
        var lines: [String] = []
        if let expected { lines.append("  expected: " + hanging(expected)) }
        if let actual { lines.append("  actual:   " + hanging(actual)) }
        return lines
    }

    /// Continuation lines of a multi-line value line up under its first line.
    private static func hanging(_ text: String) -> String {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: "\n            ")
    }
}
