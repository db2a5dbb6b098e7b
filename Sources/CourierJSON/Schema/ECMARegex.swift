/// JSON Schema's `pattern` and `patternProperties` regular expressions (ECMA-262, with the `u`
/// flag's reading of the pattern), translated to Swift `Regex` syntax.
///
/// Swift's engine understands most ECMA-262 syntax, but several constructs mean something else
/// there, so the translation rewrites them explicitly:
/// - `\d`, `\w` and their negations are ASCII-only in ECMA-262 (`[0-9]`, `[A-Za-z0-9_]`); `\s`
///   is ECMA-262's own whitespace list (including U+FEFF);
/// - `.` matches anything but the four line terminators; `^` and `$` anchor at the start and
///   the very end of the string (`\A`, `\z`), never before a trailing newline;
/// - every literal other than ASCII letters and digits is written `\x{…}`, so characters that
///   are plain in ECMA-262 but special to the engine (`&&`, `--` and `[` inside classes, `#`…)
///   stay literal; `\uXXXX` (surrogate pairs combined), `\u{…}`, `\xXX`, `\cX` become scalars;
/// - a `{` that does not start a quantifier is a literal, as browsers read it;
/// - `[]` matches nothing and `[^]` anything.
/// Matching runs on Unicode scalars, not grapheme clusters.
struct ECMARegex: @unchecked Sendable {
    // `@unchecked Sendable`: `Regex` is an immutable value; matching does not mutate it. (Its
    // `AnyRegexOutput` output type is what keeps the compiler from proving that.)
    private let regex: Regex<AnyRegexOutput>
    /// The pattern as written in the schema.
    let source: String

    /// Compiles `pattern`; throws a message when it is not a valid regular expression.
    init(_ pattern: String) throws(JSONSchemaError) {
        var translator = ECMARegexTranslator(Array(pattern.unicodeScalars))
        guard let translated = translator.translate() else {
            throw JSONSchemaError("invalid regular expression '\(pattern)'")
        }
        do {
            regex = try Regex(translated).matchingSemantics(.unicodeScalar)
                .asciiOnlyWordCharacters().wordBoundaryKind(.simple)
        } catch {
            throw JSONSchemaError("invalid regular expression '\(pattern)': \(error)")
        }
        source = pattern
    }

    /// Whether the pattern matches anywhere in `subject` (patterns are not implicitly anchored).
    func matches(_ subject: String) -> Bool {
        (try? regex.firstMatch(in: subject)) != nil
    }
}

// MARK: - Translation

private struct ECMARegexTranslator {
    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var output = ""

    init(_ scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    private static let digit = "0-9"
    private static let word = "A-Za-z0-9_"
    private static let space =
        "\\x{9}-\\x{d}\\x{20}\\x{a0}\\x{1680}\\x{2000}\\x{2001}\\x{2002}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}"

    private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        position + ahead < scalars.count ? scalars[position + ahead] : nil
    }

    mutating func translate() -> String? {
        var depth = 0
        while let c = peek() {
            switch c {
            case "\\":
                guard escapeOutsideClass() else { return nil }
            case "[":
                guard characterClass() else { return nil }
            case "(":
                position += 1
                depth += 1
                guard depth <= 256 else { return nil }
                output += "("
                if peek() == "?" {
                    // (?: (?= (?! (?<= (?<! (?<name> pass through as written.
                    var prefix = "?"
                    position += 1
                    while let p = peek(), p != ">" && p != ":" && p != "=" && p != "!" {
                        guard prefix.unicodeScalars.count < 64 else { return nil }
                        prefix.unicodeScalars.append(p)
                        position += 1
                    }
                    guard let last = peek() else { return nil }
                    prefix.unicodeScalars.append(last)
                    position += 1
                    output += prefix
                }
            case ")":
                position += 1
                depth -= 1
                guard depth >= 0 else { return nil }
                output += ")"
            case "|", "*", "+", "?":
                position += 1
                output.unicodeScalars.append(c)
            case "{":
                if let quantifier = braceQuantifier() {
                    output += quantifier
                } else {
                    position += 1
                    appendLiteral(c)
                }
            case ".":
                position += 1
                output += "[^\\n\\r\\x{2028}\\x{2029}]"
            case "^":
                position += 1
                output += "\\A"
            case "$":
                position += 1
                output += "\\z"
            default:
                position += 1
                appendLiteral(c)
            }
        }
        return depth == 0 ? output : nil
    }

    /// `{n}`, `{n,}` or `{n,m}` at the current position, consumed, or `nil` (nothing consumed).
    private mutating func braceQuantifier() -> String? {
        var i = position + 1
        var text = "{"
        func digits() -> String {
            var d = ""
            while i < scalars.count, ("0"..."9").contains(scalars[i]) {
                d.unicodeScalars.append(scalars[i])
                i += 1
            }
            return d
        }
        let low = digits()
        guard !low.isEmpty else { return nil }
        text += low
        if i < scalars.count, scalars[i] == "," {
            i += 1
            text += "," + digits()
        }
        guard i < scalars.count, scalars[i] == "}" else { return nil }
        position = i + 1
        return text + "}"
    }

    private mutating func escapeOutsideClass() -> Bool {
        guard let e = peek(1) else { return false }
        switch e {
        case "d": output += "[\(Self.digit)]"
        case "D": output += "[^\(Self.digit)]"
        case "w": output += "[\(Self.word)]"
        case "W": output += "[^\(Self.word)]"
        case "s": output += "[\(Self.space)]"
        case "S": output += "[^\(Self.space)]"
        case "b": output += "\\b"
        case "B": output += "\\B"
        case "1"..."9":
            position += 1
            var number = ""
            while let d = peek(), ("0"..."9").contains(d) {
                number.unicodeScalars.append(d)
                position += 1
            }
            output += "\\g{\(number)}"
            return true
        case "k":
            guard peek(2) == "<" else { return false }
            position += 2
            output += "\\k"
            while let c = peek(), c != ">" {
                output.unicodeScalars.append(c)
                position += 1
            }
            guard peek() == ">" else { return false }
            position += 1
            output += ">"
            return true
        case "p", "P":
            return propertyEscape()
        default:
            guard let scalar = characterEscape() else { return false }
            appendLiteral(scalar)
            return true
        }
        position += 2
        return true
    }

    /// `\p{…}` / `\P{…}`, copied as written.
    private mutating func propertyEscape() -> Bool {
        guard peek(2) == "{" else { return false }
        var text = "\\"
        text.unicodeScalars.append(scalars[position + 1])
        position += 2
        while let c = peek(), c != "}" {
            text.unicodeScalars.append(c)
            position += 1
        }
        guard peek() == "}" else { return false }
        position += 1
        output += text + "}"
        return true
    }

    /// A character escape (`\n`, `\u0041`, `\x41`, `\cJ`, `\0`, identity escapes), consumed.
    private mutating func characterEscape() -> Unicode.Scalar? {
        guard peek() == "\\", let e = peek(1) else { return nil }
        position += 2
        switch e {
        case "t": return "\t"
        case "n": return "\n"
        case "v": return "\u{0B}"
        case "f": return "\u{0C}"
        case "r": return "\r"
        case "0": return "\0"
        case "c":
            guard let letter = peek(), letter.isASCII, letter.properties.isAlphabetic else { return nil }
            position += 1
            return Unicode.Scalar(letter.value % 32)
        case "x":
            guard let value = hexValue(count: 2) else { return nil }
            return Unicode.Scalar(value)
        case "u":
            if peek() == "{" {
                position += 1
                var value: UInt32 = 0
                var digits = 0
                while let c = peek(), c != "}" {
                    guard let d = UInt32(String(c), radix: 16), digits < 8 else { return nil }
                    value = value * 16 + d
                    digits += 1
                    position += 1
                }
                guard peek() == "}", digits > 0 else { return nil }
                position += 1
                return Unicode.Scalar(value)
            }
            guard let high = hexValue(count: 4) else { return nil }
            if (0xD800...0xDBFF).contains(high), peek() == "\\", peek(1) == "u" {
                let saved = position
                position += 2
                if let low = hexValue(count: 4), (0xDC00...0xDFFF).contains(low) {
                    return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                }
                position = saved
            }
            // A lone surrogate cannot occur in a Swift string, so it matches nothing useful;
            // U+FFFD keeps the pattern valid.
            return Unicode.Scalar(high) ?? "\u{FFFD}"
        default:
            // Identity escape: `\.`, `\/`, `\-` and so on.
            return e.properties.isAlphabetic && e.isASCII ? nil : e
        }
    }

    private mutating func hexValue(count: Int) -> UInt32? {
        guard position + count <= scalars.count else { return nil }
        var text = ""
        for i in 0..<count { text.unicodeScalars.append(scalars[position + i]) }
        guard let value = UInt32(text, radix: 16) else { return nil }
        position += count
        return value
    }

    /// `[…]`, with ECMA-262's meaning of every member.
    private mutating func characterClass() -> Bool {
        position += 1
        var negated = false
        if peek() == "^" {
            negated = true
            position += 1
        }
        if peek() == "]" {
            position += 1
            output += negated ? "[\\x{0}-\\x{10ffff}]" : "(?!)"
            return true
        }
        output += negated ? "[^" : "["
        while true {
            guard let c = peek() else { return false }
            if c == "]" {
                position += 1
                output += "]"
                return true
            }
            // A class escape that is a set (\d, \s, \p{…}) cannot start a range.
            if c == "\\", let e = peek(1), "dDwWsSpP".unicodeScalars.contains(e) {
                switch e {
                case "d": output += Self.digit
                case "D": output += "[^\(Self.digit)]"
                case "w": output += Self.word
                case "W": output += "[^\(Self.word)]"
                case "s": output += Self.space
                case "S": output += "[^\(Self.space)]"
                default:
                    guard propertyEscape() else { return false }
                    continue
                }
                position += 2
                continue
            }
            guard let low = classAtom() else { return false }
            if peek() == "-", let after = peek(1), after != "]" {
                let saved = position
                position += 1
                if peek() == "\\", let e = peek(1), "dDwWsSpP".unicodeScalars.contains(e) {
                    // `[a-\d]`: the dash is a literal (Annex B).
                    position = saved + 1
                    appendLiteral(low)
                    appendLiteral("-")
                    continue
                }
                guard let high = classAtom(), low.value <= high.value else { return false }
                appendRange(low.value, high.value)
            } else {
                appendLiteral(low)
            }
        }
    }

    /// One character inside a class (`\b` is backspace there), consumed.
    private mutating func classAtom() -> Unicode.Scalar? {
        guard let c = peek() else { return nil }
        if c == "\\" {
            if peek(1) == "b" {
                position += 2
                return "\u{08}"
            }
            if peek(1) == "-" {
                position += 2
                return "-"
            }
            return characterEscape()
        }
        position += 1
        return c
    }

    /// `low-high`. The engine compares range bounds as characters, so it rejects a bound whose
    /// canonical form is another character (U+2000 EN QUAD is U+2002): such bounds are listed
    /// on their own and the range shrinks past them.
    private mutating func appendRange(_ low: UInt32, _ high: UInt32) {
        func isStable(_ value: UInt32) -> Bool {
            Unicode.Scalar(value).map { !$0.properties.isFullCompositionExclusion } ?? true
        }
        var low = low
        var high = high
        var singles: [UInt32] = []
        while low <= high && !isStable(low) {
            singles.append(low)
            low += 1
        }
        while high > low && !isStable(high) {
            singles.append(high)
            high -= 1
        }
        if low < high, let l = Unicode.Scalar(low), let h = Unicode.Scalar(high) {
            appendLiteral(l)
            output += "-"
            appendLiteral(h)
        } else if low == high, let l = Unicode.Scalar(low) {
            appendLiteral(l)
        }
        for value in singles {
            if let scalar = Unicode.Scalar(value) { appendLiteral(scalar) }
        }
    }

    private mutating func appendLiteral(_ c: Unicode.Scalar) {
        if c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c)) {
            output.unicodeScalars.append(c)
        } else {
            output += "\\x{\(String(c.value, radix: 16))}"
        }
    }
}
