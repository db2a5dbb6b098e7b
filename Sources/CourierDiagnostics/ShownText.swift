import Foundation

/// Bounds on values shown to people: failure messages, diffs, report text.
///
/// A failing expectation may hold a 20 MB body; printing it whole floods the
/// console and the reports. Every shown value is cut to a budget and ends in
/// a marker that says how much was left out.
package enum ShownText {
    /// Bytes of one expected or actual value in the console: 4 KiB.
    package static let consoleLimit = 4 * 1024
    /// Bytes of one expected or actual value in results and reports (JUnit, JSON): 64 KiB.
    package static let reportLimit = 64 * 1024
    /// Lines of one diff shown before "… N more lines".
    package static let diffLineLimit = 200

    /// `text` cut to at most `maxBytes` UTF-8 bytes on a character boundary,
    /// followed by "… (N more bytes)" when anything was cut.
    package static func cut(_ text: String, maxBytes: Int) -> String {
        let utf8 = text.utf8
        guard utf8.count > maxBytes else { return text }
        var end = utf8.index(utf8.startIndex, offsetBy: max(0, maxBytes))
        // Back off to the start of a character (never split a UTF-8 sequence or a grapheme).
        while end > utf8.startIndex, String.Index(end, within: text) == nil {
            end = utf8.index(before: end)
        }
        let kept = String(text[..<end])
        return kept + marker(omitted: utf8.count - kept.utf8.count + earlierCut(text))
    }

    /// What an earlier cut left out, when `text` already ends in a marker (a
    /// value cut for the report and again for the console counts both cuts).
    private static func earlierCut(_ text: String) -> Int {
        guard text.hasSuffix(" more bytes)"), let open = text.range(of: "… (", options: .backwards) else { return 0 }
        let digits = text[open.upperBound...].prefix { $0.isASCII && $0.isNumber }
        return Int(digits) ?? 0
    }

    /// The marker after a cut value.
    package static func marker(omitted: Int) -> String {
        "… (\(omitted) more bytes)"
    }
}
