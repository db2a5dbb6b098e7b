/// How bad a diagnostic is.
package enum Severity: String, Sendable, Hashable {
    case error
    case warning
    case note
}

/// A problem found in user input, with the place it points at.
///
/// Messages are lower-case, quote the culprit and suggest a fix:
/// `unknown key 'hedaers' in request; did you mean 'headers'?`.
/// Notes point at related places (the first of two duplicate keys, say).
package struct Diagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    package var severity: Severity
    package var message: String
    package var range: SourceRange?
    package var notes: [Diagnostic]

    package init(_ severity: Severity, _ message: String, at range: SourceRange?, notes: [Diagnostic] = []) {
        self.severity = severity
        self.message = message
        self.range = range
        self.notes = notes
    }

    package static func error(_ message: String, at range: SourceRange?, notes: [Diagnostic] = []) -> Diagnostic {
        Diagnostic(.error, message, at: range, notes: notes)
    }

    package static func warning(_ message: String, at range: SourceRange?, notes: [Diagnostic] = []) -> Diagnostic {
        Diagnostic(.warning, message, at: range, notes: notes)
    }

    package static func note(_ message: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic(.note, message, at: range)
    }

    /// One line without the source excerpt: `file:line:col: error: message`.
    package var description: String {
        if let range {
            return "\(range.start): \(severity.rawValue): \(message)"
        }
        return "\(severity.rawValue): \(message)"
    }
}

/// Every diagnostic found in one pass, so users fix them all at once.
package struct DiagnosticList: Error, Sendable, CustomStringConvertible {
    package var diagnostics: [Diagnostic]

    package init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    package var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// Diagnostics in source order (those without a location first), stable for equal positions.
    package var sorted: [Diagnostic] {
        diagnostics.enumerated().sorted { a, b in
            switch (a.element.range?.start, b.element.range?.start) {
            case (nil, nil): return a.offset < b.offset
            case (nil, _): return true
            case (_, nil): return false
            case let (x?, y?): return x == y ? a.offset < b.offset : x < y
            }
        }.map(\.element)
    }

    package var description: String { diagnostics.map(\.description).joined(separator: "\n") }

    /// The most diagnostics shown for one file; the rest are summed up in one note.
    ///
    /// A generated file can hold tens of thousands of mistakes; each rendered
    /// diagnostic quotes its source line, so showing them all cost minutes.
    package static let maxPerFile = 100

    /// ``sorted``, keeping the first ``maxPerFile`` diagnostics of each file and
    /// then one note per file: "and 11,900 more diagnostics in this file".
    package var sortedAndLimited: [Diagnostic] {
        var shown: [Diagnostic] = []
        var counts: [String: Int] = [:]
        var omitted: [(file: String, count: Int, first: SourceRange?)] = []
        // Repeated warnings first become one each (see ``groupingWarnings(_:)``), so the
        // count they show is the file's, not that of the first hundred.
        for diagnostic in Self.groupingWarnings(sorted) {
            let file = diagnostic.range?.file ?? ""
            let count = counts[file, default: 0] + 1
            counts[file] = count
            if count <= Self.maxPerFile {
                shown.append(diagnostic)
            } else if let index = omitted.firstIndex(where: { $0.file == file }) {
                omitted[index].count += 1
            } else {
                omitted.append((file, 1, diagnostic.range))
            }
        }
        for (_, count, first) in omitted {
            shown.append(.note("and \(Self.grouped(count)) more diagnostics in this file; only the first \(Self.maxPerFile) are shown", at: first))
        }
        return shown
    }

    /// `11900` as `11,900`.
    package static func grouped(_ number: Int) -> String {
        var digits = Array(String(number))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return String(digits)
    }
}
