import Foundation

extension String {
    var lines: [String] { components(separatedBy: "\n") }

    /// The first line containing every one of `parts`.
    func line(containing parts: String...) -> String? {
        lines.first { line in parts.allSatisfy { line.contains($0) } }
    }

    /// (line, column), both 1-based, of the first occurrence of `needle` inside the first line
    /// that contains `lineMarker` — where Courier should point its diagnostics.
    func position(of needle: String, inLineContaining lineMarker: String) -> (line: Int, column: Int)? {
        for (index, line) in lines.enumerated() where line.contains(lineMarker) {
            guard let range = line.range(of: needle) else { return nil }
            return (index + 1, line.distance(from: line.startIndex, to: range.lowerBound) + 1)
        }
        return nil
    }

    /// True when some line of `self` shows `sourceLine` (as `  N | source`) and the next line
    /// has a caret (`^`) under the first character of `pointedAt` in it, followed by `~` for
    /// the rest of `pointedAt` (when `underlineLength` is given).
    func hasCaret(under pointedAt: String, inSourceLine sourceLine: String, underlineLength: Int? = nil) -> Bool {
        let all = lines
        for (index, line) in all.enumerated() where line.hasSuffix(sourceLine) && line.contains("|") && index + 1 < all.count {
            guard let target = line.range(of: pointedAt, options: .backwards) else { continue }
            let column = line.distance(from: line.startIndex, to: target.lowerBound)
            let caretLine = Array(all[index + 1])
            guard let caret = caretLine.firstIndex(of: "^"), caretLine.contains("|") else { continue }
            guard caret == column else { continue }
            if let underlineLength {
                let marks = caretLine[caret...].prefix { $0 == "^" || $0 == "~" }
                guard marks.count == underlineLength else { continue }
            }
            return true
        }
        return false
    }

    /// The forms a secret could leak in: as is, base64, and URL-encoded (%20 and + for space).
    static func leakForms(of secret: String) -> [String] {
        var forms = [secret, Data(secret.utf8).base64EncodedString()]
        let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        if let percent = secret.addingPercentEncoding(withAllowedCharacters: unreserved) {
            forms.append(percent)
            forms.append(percent.replacingOccurrences(of: "%20", with: "+"))
        }
        return Array(Set(forms.filter { !$0.isEmpty }))
    }
}
