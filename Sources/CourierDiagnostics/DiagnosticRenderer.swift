/// Turns diagnostics into compiler-style text:
///
/// ```
/// Workflows/login.yaml:14:7: error: unknown key 'hedaers' in request; did you mean 'headers'?
///    14 |       hedaers:
///       |       ^~~~~~~
/// ```
///
/// The one place that formats diagnostics, so every command looks the same.
/// Colour is used only when asked for (the CLI decides: TTY, `--color`, `NO_COLOR`).
package struct DiagnosticRenderer: Sendable {
    package var sources: SourceStore
    package var color: Bool
    /// Tabs in quoted source lines are expanded to this width so the caret lines up.
    package var tabWidth = 4
    /// Source lines longer than this are shown as a window around the caret.
    package var maxLineWidth = 120

    package init(sources: SourceStore, color: Bool) {
        self.sources = sources
        self.color = color
    }

    /// The diagnostic, its excerpt and its notes, ending with a newline, for the
    /// console: its text (messages, the quoted source line) is text the console's door
    /// escapes; only the colour is a control (``TerminalText``).
    package func styled(_ diagnostic: Diagnostic) -> TerminalText {
        var out = TerminalText()
        append(diagnostic, to: &out)
        return out
    }

    /// Several diagnostics, in the order given; a warning repeated in one file is shown once
    /// with its count (``DiagnosticList/groupingWarnings(_:)``).
    package func styled(_ diagnostics: [Diagnostic]) -> TerminalText {
        DiagnosticList.groupingWarnings(diagnostics).map(styled).reduce(TerminalText(), +)
    }

    /// ``styled(_:)`` as one string, as a terminal would get it (control characters of
    /// the text escaped): for reports and tests. The console writes ``styled(_:)``.
    package func render(_ diagnostic: Diagnostic) -> String {
        styled(diagnostic).written { $0 }
    }

    package func render(_ diagnostics: [Diagnostic]) -> String {
        styled(diagnostics).written { $0 }
    }

    // MARK: - Pieces

    private func append(_ diagnostic: Diagnostic, to out: inout TerminalText) {
        if let range = diagnostic.range {
            out += style("\(range.start): ", .bold)
        }
        out += severityLabel(diagnostic.severity)
        out += style(diagnostic.message, .bold)
        out += "\n"
        if let range = diagnostic.range {
            appendExcerpt(range, to: &out)
        }
        for note in diagnostic.notes {
            append(note, to: &out)
        }
    }

    private func severityLabel(_ severity: Severity) -> TerminalText {
        switch severity {
        case .error: return style("error: ", .boldRed)
        case .warning: return style("warning: ", .boldMagenta)
        case .note: return style("note: ", .boldCyan)
        }
    }

    private func appendExcerpt(_ range: SourceRange, to out: inout TerminalText) {
        guard let file = sources.fileIfAvailable(range.start.file),
              let line = file.line(range.start.line) else { return }
        // On a very long line only a stretch around the caret is looked at: a
        // file with many diagnostics on one long line took seconds per excerpt.
        var scalars: [Unicode.Scalar]
        var skipped = 0
        var cutAfter = false
        if line.utf8.count > maxLineWidth * 4 {
            let all = line.unicodeScalars
            skipped = max(0, range.start.column - 1 - maxLineWidth)
            let low = all.index(all.startIndex, offsetBy: skipped, limitedBy: all.endIndex) ?? all.endIndex
            let high = all.index(low, offsetBy: maxLineWidth * 2, limitedBy: all.endIndex) ?? all.endIndex
            scalars = Array(all[low..<high])
            cutAfter = high < all.endIndex
        } else {
            scalars = Array(line.unicodeScalars)
        }
        // Columns of the range on this line (0-based scalar offsets), clamped to the text.
        let startOffset = max(0, min(range.start.column - 1 - skipped, scalars.count))
        var endOffset: Int
        if range.end.line == range.start.line, range.end.file == range.start.file {
            endOffset = min(max(range.end.column - 1 - skipped, startOffset), scalars.count)
        } else {
            // A multi-line range: underline to the end of its first line, trailing blanks excluded.
            endOffset = scalars.count
            while endOffset > startOffset, scalars[endOffset - 1] == " " || scalars[endOffset - 1] == "\t" {
                endOffset -= 1
            }
        }

        // Display cells: tabs expanded, other control characters shown as spaces.
        var cells: [Unicode.Scalar] = []
        var caretStart = 0
        var caretEnd = 0
        for (index, scalar) in scalars.enumerated() {
            if index == startOffset { caretStart = cells.count }
            if index == endOffset { caretEnd = cells.count }
            if scalar == "\t" {
                cells += repeatElement(" ", count: tabWidth - cells.count % tabWidth)
            } else {
                cells.append(scalar.value < 0x20 ? " " : scalar)
            }
        }
        if startOffset >= scalars.count { caretStart = cells.count }
        if endOffset >= scalars.count { caretEnd = cells.count }

        // A long line (minified JSON is one line) is shown as a window around the caret.
        if cells.count > maxLineWidth || skipped > 0 || cutAfter {
            let window = min(maxLineWidth - 6, cells.count)
            let from = max(0, min(caretStart - window / 2, cells.count - window))
            let to = min(cells.count, from + window)
            let prefix: [Unicode.Scalar] = from > 0 || skipped > 0 ? [".", ".", "."] : []
            let suffix: [Unicode.Scalar] = to < cells.count || cutAfter ? [".", ".", "."] : []
            cells = prefix + cells[from..<to] + suffix
            caretStart = caretStart - from + prefix.count
            caretEnd = min(caretEnd - from + prefix.count, prefix.count + (to - from))
        }
        var display = ""
        display.unicodeScalars.append(contentsOf: cells)

        let number = String(range.start.line)
        let gutterWidth = max(5, number.count + 1)
        let gutter = String(repeating: " ", count: gutterWidth - number.count) + number
        let blank = String(repeating: " ", count: gutterWidth)
        out += style(gutter + " | ", .blue)
        out += display
        out += "\n"
        let tildes = max(0, caretEnd - caretStart - 1)
        out += style(blank + " | ", .blue)
        out += String(repeating: " ", count: caretStart)
        out += style("^" + String(repeating: "~", count: tildes), .boldGreen)
        out += "\n"
    }

    // MARK: - Colour

    private func style(_ text: String, _ style: TerminalControl) -> TerminalText {
        .styled(TerminalText(text), style, when: color)
    }
}
