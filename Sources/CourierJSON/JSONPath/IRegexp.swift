/// I-Regexp (RFC 9485) for the `match` and `search` functions.
///
/// An I-Regexp is checked against the RFC's grammar and rewritten in the ECMA-262 syntax of
/// Courier's own engine (``RegexPattern``), evaluated on Unicode scalars (not grapheme
/// clusters, which would make `.` match `e` + combining accent as one character) with a step
/// budget:
/// - `.` becomes `[^\n\r]` (RFC 9485 §5.3: dot matches anything but line feed and carriage return);
/// - every literal other than ASCII letters and digits is written `\u{…}`, so characters that
///   are plain in I-Regexp but special to ECMA-262 (`/`, `$` inside classes…) stay literal;
/// - `^` and `$` outside classes anchor at the start and end of the string, as the
///   compliance suite expects;
/// - `\p{…}` / `\P{…}` keep their general-category names;
/// - `match` is anchored as `^(?:…)$`; `search` looks for a match anywhere.
/// Patterns outside I-Regexp (backreferences, lazy quantifiers, `\d`, `(?:`, lookaround…)
/// are invalid, and `match`/`search` then return false as RFC 9535 requires. So does a match
/// that runs out of budget; ``JSONPath/evaluateCheckingRegexBudget(_:)`` reports it instead.
enum IRegexp {
    /// The engine pattern for `pattern`, or `nil` when `pattern` is not an I-Regexp.
    static func translate(_ pattern: String) -> String? {
        var translator = IRegexpTranslator(Array(pattern.unicodeScalars))
        return translator.translate()
    }
}

/// A compiled `match`/`search` pattern.
final class CompiledIRegexp {
    private let regex: RegexPattern
    private let budget: RegexBudget
    /// Set once a match ran out of budget; later calls then answer false at once, so a filter
    /// over many nodes pays for the budget once.
    private(set) var exceeded: RegexBudgetExceeded?

    init?(pattern: String, anchored: Bool, budget: RegexBudget) {
        guard let translated = IRegexp.translate(pattern) else { return nil }
        let source = anchored ? "^(?:\(translated))$" : translated
        guard let regex = try? RegexPattern(source, dialect: .ecma262) else { return nil }
        self.regex = regex
        self.budget = budget
    }

    func matches(_ subject: String) -> Bool {
        guard exceeded == nil else { return false }
        do {
            return try regex.matches(subject, budget: budget)
        } catch {
            exceeded = error
            return false
        }
    }
}

/// Compiled patterns for one evaluation; patterns usually repeat for every candidate node.
final class IRegexpCache {
    private var compiled: [String: CompiledIRegexp?] = [:]
    /// The first `match()`/`search()` call of the evaluation that ran out of budget.
    private(set) var firstExceeded: JSONPathRegexTooExpensive?
    private let budget: RegexBudget

    init(budget: RegexBudget = .default) {
        self.budget = budget
    }

    func regex(for pattern: String, anchored: Bool) -> CompiledIRegexp? {
        let key = (anchored ? "m:" : "s:") + pattern
        if let cached = compiled[key] { return cached }
        let regex = CompiledIRegexp(pattern: pattern, anchored: anchored, budget: budget)
        compiled[key] = regex
        return regex
    }

    /// `regex.matches(subject)`, remembering the first call that ran out of budget.
    func matches(_ regex: CompiledIRegexp, _ subject: String, pattern: String, anchored: Bool) -> Bool {
        let found = regex.matches(subject)
        if firstExceeded == nil, let exceeded = regex.exceeded {
            firstExceeded = JSONPathRegexTooExpensive(function: anchored ? "match" : "search", pattern: pattern, exceeded: exceeded)
        }
        return found
    }
}

// MARK: - Translation

/// Parses RFC 9485 §3's grammar and writes the equivalent engine pattern.
private struct IRegexpTranslator {
    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var output = ""
    private var depth = 0

    init(_ scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    mutating func translate() -> String? {
        guard regexp(), position == scalars.count else { return nil }
        return output
    }

    private func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        position + ahead < scalars.count ? scalars[position + ahead] : nil
    }

    /// `i-regexp = branch *( "|" branch )`
    private mutating func regexp() -> Bool {
        guard branch() else { return false }
        while peek() == "|" {
            position += 1
            output += "|"
            guard branch() else { return false }
        }
        return true
    }

    /// `branch = *piece`, `piece = atom [ quantifier ]`
    private mutating func branch() -> Bool {
        while let c = peek(), c != "|", c != ")" {
            guard atom(), quantifier() else { return false }
        }
        return true
    }

    private mutating func quantifier() -> Bool {
        switch peek() {
        case "*", "+", "?":
            output.unicodeScalars.append(scalars[position])
            position += 1
        case "{":
            position += 1
            guard let low = quantity() else { return false }
            var text = "{\(low)"
            if peek() == "," {
                position += 1
                text += ","
                if let c = peek(), ("0"..."9").contains(c) {
                    guard let high = quantity(), high >= low else { return false }
                    text += "\(high)"
                }
            }
            guard peek() == "}" else { return false }
            position += 1
            output += text + "}"
        default:
            break
        }
        return true
    }

    private mutating func quantity() -> Int? {
        var value = 0
        var digits = 0
        while let c = peek(), ("0"..."9").contains(c) {
            value = min(value * 10 + Int(c.value - 0x30), 100_000)
            digits += 1
            position += 1
        }
        return digits > 0 ? value : nil
    }

    /// `atom = NormalChar / charClass / ( "(" i-regexp ")" )`
    private mutating func atom() -> Bool {
        guard let c = peek() else { return false }
        switch c {
        case "(":
            position += 1
            depth += 1
            defer { depth -= 1 }
            // Deeper groups are treated as invalid rather than risking the stack.
            guard depth <= 128 else { return false }
            output += "(?:"
            guard regexp(), peek() == ")" else { return false }
            position += 1
            output += ")"
            return true
        case ".":
            position += 1
            output += "[^\\n\\r]"
            return true
        case "[":
            return characterClassExpression()
        case "\\":
            if let property = categoryEscape() {
                output += property
                return true
            }
            guard let escaped = singleCharacterEscape() else { return false }
            appendLiteral(escaped)
            return true
        case "^":
            // NormalChar in RFC 9485's grammar, but the compliance suite (and the usual
            // translations to PCRE/ECMAScript) treat `^` and `$` as anchors.
            position += 1
            output += "^"
            return true
        case "$":
            position += 1
            output += "$"
            return true
        case ")", "*", "+", "?", "]", "{", "|", "}":
            return false
        default:
            position += 1
            appendLiteral(c)
            return true
        }
    }

    /// `charClassExpr = "[" [ "^" ] ( "-" / CCE1 ) *CCE1 [ "-" ] "]"`
    private mutating func characterClassExpression() -> Bool {
        position += 1
        output += "["
        if peek() == "^" {
            position += 1
            output += "^"
        }
        var first = true
        while true {
            guard let c = peek() else { return false }
            if c == "]" {
                guard !first else { return false }
                position += 1
                output += "]"
                return true
            }
            if c == "-" {
                // Only first or last in the class.
                guard first || peek(1) == "]" else { return false }
                position += 1
                appendLiteral("-")
                first = false
                continue
            }
            guard classElement() else { return false }
            first = false
        }
    }

    /// `CCE1 = ( CCchar [ "-" CCchar ] ) / charClassEsc`
    private mutating func classElement() -> Bool {
        if let property = categoryEscape() {
            output += property
            return true
        }
        guard let low = classCharacter() else { return false }
        if peek() == "-", let after = peek(1), after != "]" {
            position += 1
            guard let high = classCharacter(), low.value <= high.value else { return false }
            appendLiteral(low)
            output += "-"
            appendLiteral(high)
        } else {
            appendLiteral(low)
        }
        return true
    }

    /// `CCchar = ( %x00-2C / %x2E-5A / %x5E-D7FF / %xE000-10FFFF ) / SingleCharEsc`
    private mutating func classCharacter() -> Unicode.Scalar? {
        guard let c = peek() else { return nil }
        switch c {
        case "\\": return singleCharacterEscape()
        case "-", "[", "]": return nil
        default:
            position += 1
            return c
        }
    }

    /// `SingleCharEsc = "\" ( %x28-2B / "-" / "." / "?" / %x5B-5E / "n" / "r" / "t" / %x7B-7D )`
    private mutating func singleCharacterEscape() -> Unicode.Scalar? {
        guard peek() == "\\", let e = peek(1) else { return nil }
        let result: Unicode.Scalar
        switch e {
        case "(", ")", "*", "+", "-", ".", "?", "[", "\\", "]", "^", "{", "|", "}": result = e
        case "n": result = "\n"
        case "r": result = "\r"
        case "t": result = "\t"
        default: return nil
        }
        position += 2
        return result
    }

    /// `catEsc = "\p{" charProp "}"`, `complEsc = "\P{" charProp "}"`, general categories only.
    private mutating func categoryEscape() -> String? {
        guard peek() == "\\", let p = peek(1), p == "p" || p == "P", peek(2) == "{" else { return nil }
        var end = position + 3
        var name = ""
        while end < scalars.count, scalars[end] != "}" {
            name.unicodeScalars.append(scalars[end])
            end += 1
        }
        guard end < scalars.count, IRegexpTranslator.categories.contains(name) else { return nil }
        position = end + 1
        return "\\\(p){\(name)}"
    }

    private static let categories: Set<String> = [
        "L", "Lu", "Ll", "Lt", "Lm", "Lo", "M", "Mn", "Mc", "Me", "N", "Nd", "Nl", "No",
        "P", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Z", "Zs", "Zl", "Zp",
        "S", "Sm", "Sc", "Sk", "So", "C", "Cc", "Cf", "Co", "Cn",
    ]

    private mutating func appendLiteral(_ c: Unicode.Scalar) {
        if c.properties.isASCIIHexDigit || ("g"..."z").contains(c) || ("G"..."Z").contains(c) {
            output.unicodeScalars.append(c)
        } else {
            output += "\\u{\(String(c.value, radix: 16))}"
        }
    }
}
