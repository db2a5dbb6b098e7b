/// Shell quoting of `--curl` arguments: literal text single-quoted, secrets' variables double-quoted.
extension CurlCommand {
    /// One piece of an argument: literal text or a secret's variable.
    enum Segment: Equatable {
        case text(String)
        case variable(String)
    }

    /// `text` cut where a secret's value occurs, each occurrence a variable.
    static func segments(of text: String, substitutions: [(value: String, variable: String)]) -> [Segment] {
        var segments: [Segment] = [.text(text)]
        for substitution in substitutions {
            segments = segments.flatMap { segment -> [Segment] in
                guard case .text(let text) = segment, text.contains(substitution.value) else { return [segment] }
                var pieces: [Segment] = []
                for (index, piece) in text.split(separator: substitution.value, omittingEmptySubsequences: false).enumerated() {
                    if index > 0 { pieces.append(.variable(substitution.variable)) }
                    if !piece.isEmpty { pieces.append(.text(String(piece))) }
                }
                return pieces
            }
        }
        return segments
    }

    /// Characters that need no quoting in sh.
    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_./:=@,+%".unicodeScalars.contains(scalar))
    }

    /// Text with nothing a double-quoted string treats specially (`!` too: bash's history expansion).
    static func fitsDoubleQuotes(_ text: String) -> Bool {
        !text.unicodeScalars.contains { "$`\"\\!\n".unicodeScalars.contains($0) }
    }

    /// Literal text in single quotes (`'\''` for a quote); variables, and the
    /// literal text around them when it can, in double quotes.
    static func quoted(_ segments: [Segment]) -> String {
        if segments.count == 1, case .text(let text) = segments[0] {
            if !text.isEmpty && text.unicodeScalars.allSatisfy(isPlain) { return text }
            return singleQuoted(text)
        }
        var out = ""
        var double = ""  // the double-quoted run being built
        func closeDouble() {
            if !double.isEmpty { out += "\"" + double + "\"" }
            double = ""
        }
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .variable(let name):
                let next = index + 1 < segments.count ? segments[index + 1] : nil
                var needsBraces = false
                if case .text(let following)? = next, let first = following.unicodeScalars.first {
                    needsBraces = first == "_" || (first.isASCII && (first.properties.isAlphabetic || ("0"..."9").contains(first)))
                }
                double += needsBraces ? "${\(name)}" : "$\(name)"
            case .text(let text):
                if fitsDoubleQuotes(text) {
                    double += text
                } else {
                    closeDouble()
                    out += singleQuoted(text)
                }
            }
        }
        closeDouble()
        return out
    }

    static func singleQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
