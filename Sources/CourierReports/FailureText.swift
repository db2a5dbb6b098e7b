import CourierDiagnostics
import CourierResults
import CourierSecrets

/// Plain-text rendering of one assertion failure, shared by the console and reports.
package enum FailureText {
    /// `file:line:col: subject: message` then expected and actual values.
    ///
    /// Each value is masked, then cut to `maxValueBytes` (reports show more than the console).
    package static func describe(_ failure: ExpectationResult, policy: MaskingPolicy,
                                 maxValueBytes: Int = ShownText.reportLimit) -> String {
        var text = ""
        if let location = failure.location {
            text += "\(location.start.file):\(location.start.line):\(location.start.column): "
        }
        text += failure.message
        text += "\n" + comparison(expected: failure.expected?.rendered, actual: failure.actual?.rendered, policy: policy,
                                  maxValueBytes: maxValueBytes).joined(separator: "\n")
        return text
    }

    /// The expected and actual values as indented lines: one line each when
    /// short, else a line diff (`-` expected, `+` actual).
    ///
    /// Each value is masked, then cut to `maxValueBytes` on a character boundary
    /// before it is shown or diffed (so no cut leaves part of a secret), and a
    /// diff shows at most ``ShownText/diffLineLimit`` lines.
    package static func comparison(expected: String?, actual: String?, policy: MaskingPolicy,
                                   maxValueBytes: Int = ShownText.consoleLimit) -> [String] {
        let expected = expected.map { MaskedCut.cut($0, maxBytes: maxValueBytes, policy: policy) }
        let actual = actual.map { MaskedCut.cut($0, maxBytes: maxValueBytes, policy: policy) }
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
