import CourierDiagnostics
import Foundation

/// The literal values a workflow file writes under its top-level `secrets:` and
/// under any `tls: { password: … }`, also when the file does not load.
///
/// A file that fails to load is shown back to its author in diagnostics (the source
/// line under each error, the `validate` case of a JUnit report), and a secret
/// written on that line, or near it, would be printed with it. Nothing of the file
/// is trusted to be well-formed here, so the values come from three readings, all
/// kept: the node tree when libyaml builds one (a decode error leaves it intact), the
/// tree of the lines before a syntax error (libyaml stops at the first one), and a
/// lenient scan of the lines themselves.
///
/// A templated value gives its literal pieces of at least ``SecretLength/minimum``
/// characters (`"sk-live-{{ id }}"` gives `sk-live-`); values nested in lists and
/// maps under `secrets:` are all returned. Empty values are left out.
///
/// ```swift
/// declaredSecretLiterals(in: "secrets:\n  key: s3cr3t\nsteps: [ {")  // ["s3cr3t"]
/// ```
package func declaredSecretLiterals(in text: String) -> [String] {
    guard mayDeclareSecrets(text) else { return [] }
    var collector = SecretLiteralCollector()
    var source = text
    // Each round parses a shorter prefix: the lines before the previous syntax error.
    for _ in 0..<8 {
        let loaded = YAMLLoader().load(source, file: "")
        if let root = loaded.root { collector.collect(root) }
        guard loaded.root == nil || loaded.diagnostics.contains(where: { $0.severity == .error }),
              let line = loaded.diagnostics.compactMap({ $0.range?.start.line }).min(), line > 1 else { break }
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        guard line - 1 < lines.count else { break }
        source = lines[..<(line - 1)].joined(separator: "\n")
    }
    collector.scanLines(of: text)
    return collector.values
}

/// Whether `text` can hold a `secrets:` or `password:` key at all. Without either word a
/// key could only be spelled with an escape (`"pass\x77ord"`, or a line break escaped
/// inside a quoted key), and escapes need a backslash: a file with none of the three
/// declares nothing, and is neither parsed again nor scanned (a long generated workflow
/// with warnings paid both, twice the time of its loading).
private func mayDeclareSecrets(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
        bytes.contains(UInt8(ascii: "\\")) || bytes.containsRun(of: "secrets".utf8) || bytes.containsRun(of: "password".utf8)
    }
}

private extension UnsafeBufferPointer<UInt8> {
    /// Whether `word` occurs in these bytes.
    func containsRun(of word: String.UTF8View) -> Bool {
        let word = Array(word)
        guard let first = word.first, word.count <= count else { return word.isEmpty }
        var start = startIndex
        let last = endIndex - word.count
        while start <= last {
            guard let at = self[start...last].firstIndex(of: first) else { return false }
            if self[at..<(at + word.count)].elementsEqual(word) { return true }
            start = at + 1
        }
        return false
    }
}

/// Gathers secret literals from node trees and from raw lines, without duplicates.
private struct SecretLiteralCollector {
    private(set) var values: [String] = []
    private var seen: Set<String> = []

    mutating func add(_ text: String) {
        guard !text.isEmpty else { return }
        if text.contains("{{") {
            // A template: its literal pieces are written secrets, the expressions are not.
            for piece in Self.literalPieces(of: text) where piece.count >= SecretLength.minimum { add(piece) }
            return
        }
        if seen.insert(text).inserted { values.append(text) }
    }

    // MARK: - From a node tree

    mutating func collect(_ root: YAMLNode) {
        if let secrets = root.mapping?.first(where: { $0.key.scalar?.text == "secrets" })?.value {
            addScalars(under: secrets)
        }
        // `tls: { password: … }` may sit in `defaults`, in any request, in an include's steps.
        var pending = [root]
        while let node = pending.popLast() {
            switch node.kind {
            case .scalar: break
            // Children pushed last-first, so values come out in document order.
            case .sequence(let items): pending += items.reversed()
            case .mapping(let pairs):
                for pair in pairs where pair.key.scalar?.text == "tls" {
                    if let password = pair.value["password"]?.scalar { add(password.text) }
                }
                pending += pairs.map(\.value).reversed()
            }
        }
    }

    private mutating func addScalars(under node: YAMLNode) {
        var pending = [node]
        while let node = pending.popLast() {
            switch node.kind {
            case .scalar(let scalar): add(scalar.text)
            case .sequence(let items): pending += items.reversed()
            case .mapping(let pairs): pending += pairs.map(\.value).reversed()
            }
        }
    }

    // MARK: - From the lines

    /// Reads `secrets:` blocks and `password:` under `tls:` line by line, as a person
    /// would: by indentation, in block or flow style, whatever else is broken.
    mutating func scanLines(of text: String) {
        var inSecrets = false
        /// Keys of the enclosing block mappings with their indentation, innermost last.
        var parents: [(indent: Int, key: Substring)] = []
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let indent = rawLine.prefix { $0 == " " }.count
            var content = rawLine.dropFirst(indent)
            if content.hasPrefix("- ") { content = content.dropFirst(2).drop { $0 == " " } }
            guard !content.isEmpty, !content.hasPrefix("#") else { continue }

            while let last = parents.last, last.indent >= indent { parents.removeLast() }
            let (key, value) = Self.split(content)

            if indent == 0 {
                inSecrets = key == "secrets"
                if inSecrets, let value { addAll(in: value) }
            } else if inSecrets {
                if let value { addAll(in: value) } else if key == nil { addAll(in: content) }
            }
            if key == "tls", let value, value.hasPrefix("{") {
                for (innerKey, innerValue) in Self.flowPairs(value) where innerKey == "password" { add(Self.unquoted(innerValue)) }
            }
            if key == "password", let value, parents.last?.key == "tls" { add(Self.unquoted(value)) }
            if let key, value == nil { parents.append((indent, key)) }
        }
    }

    /// Every scalar of a value written on one line: plain, quoted, or a flow collection.
    private mutating func addAll(in value: Substring) {
        // Block scalar indicators, anchors, aliases and tags are syntax, not values.
        if let first = value.first, "|>&*!".contains(first), !value.contains(" ") { return }
        if value.hasPrefix("{") || value.hasPrefix("[") {
            for (_, item) in Self.flowPairs(value) { add(Self.unquoted(item)) }
        } else {
            add(Self.unquoted(value))
        }
    }

    /// `key: value # comment` → (`key`, `value`); `key:` → (`key`, nil); a bare value → (nil, nil).
    private static func split(_ content: Substring) -> (key: Substring?, value: Substring?) {
        guard !content.hasPrefix("\""), !content.hasPrefix("'"), !content.hasPrefix("{"), !content.hasPrefix("["),
              let colon = content.firstIndex(of: ":") else { return (nil, nil) }
        let after = content[content.index(after: colon)...]
        guard after.isEmpty || after.first == " " || after.first == "\t" else { return (nil, nil) }
        let key = content[..<colon].trimmingSpaces
        let value = withoutComment(after).trimmingSpaces
        return (key, value.isEmpty ? nil : value)
    }

    /// The items of a one-line flow collection, nested ones flattened: `{ a: x, b: [y, z] }` →
    /// (`a`, `x`), (nil, `y`), (nil, `z`). Commas inside quotes do not split.
    private static func flowPairs(_ text: Substring) -> [(key: Substring?, value: Substring)] {
        var items: [Substring] = []
        var start = text.startIndex
        var quote: Character? = nil
        var index = text.startIndex
        while index < text.endIndex {
            let c = text[index]
            if let open = quote {
                if c == "\\", open == "\"", text.index(after: index) < text.endIndex {
                    index = text.index(after: index)  // `\"` does not close the quote
                } else if c == open {
                    quote = nil
                }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "," || c == "{" || c == "}" || c == "[" || c == "]" {
                items.append(text[start..<index])
                start = text.index(after: index)
            } else if c == "#", index > text.startIndex, text[text.index(before: index)] == " " {
                break
            }
            index = text.index(after: index)
        }
        items.append(text[start..<index])
        return items.compactMap { item in
            let item = item.trimmingSpaces
            guard !item.isEmpty else { return nil }
            if !item.hasPrefix("\""), !item.hasPrefix("'"), let colon = item.firstIndex(of: ":") {
                let value = item[item.index(after: colon)...].trimmingSpaces
                return value.isEmpty ? nil : (item[..<colon].trimmingSpaces, value)
            }
            return (nil, item)
        }
    }

    /// Drops a ` # comment` that is not inside quotes.
    private static func withoutComment(_ text: Substring) -> Substring {
        var quote: Character? = nil
        var previous: Character = " "
        var escaped = false
        for index in text.indices {
            let c = text[index]
            if let open = quote {
                if escaped {
                    escaped = false
                } else if c == "\\", open == "\"" {
                    escaped = true  // `\"` does not close the quote
                } else if c == open {
                    quote = nil
                }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "#", previous == " " || previous == "\t" {
                return text[..<index]
            }
            previous = c
        }
        return text
    }

    /// The value a quoted scalar stands for, up to its closing quote (whatever broken syntax
    /// follows it on the line: `pw: "s3cr\"t" ]`), with YAML's escapes decoded (`\"`, `\\`,
    /// `\n`, `\t`, `\xXX`, `\uXXXX`, `\UXXXXXXXX` in double quotes; `''` in single quotes).
    /// An unterminated quote yields the rest of the line: the file is broken anyway.
    private static func unquoted(_ value: Substring) -> String {
        let value = value.trimmingSpaces
        guard let quote = value.first, quote == "\"" || quote == "'" else { return String(value) }
        var out = ""
        var scalars = value.unicodeScalars.dropFirst()[...]
        while let c = scalars.popFirst() {
            if quote == "'" {
                guard c == "'" else { out.unicodeScalars.append(c); continue }
                guard scalars.first == "'" else { break }
                scalars.removeFirst()
                out += "'"
                continue
            }
            if c == "\"" { break }
            guard c == "\\", let escape = scalars.popFirst() else { out.unicodeScalars.append(c); continue }
            switch escape {
            case "n": out += "\n"
            case "t": out += "\t"
            case "r": out += "\r"
            case "0": out += "\u{0}"
            case "x", "u", "U":
                let digits = escape == "x" ? 2 : escape == "u" ? 4 : 8
                let hex = String(String.UnicodeScalarView(scalars.prefix(digits)))
                if hex.count == digits, let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) {
                    out.unicodeScalars.append(scalar)
                    scalars.removeFirst(digits)
                } else {
                    out.unicodeScalars.append(escape)
                }
            default: out.unicodeScalars.append(escape)  // \" \\ \/ and the rest stand for themselves
            }
        }
        return out
    }

    /// The text outside `{{ … }}`, piece by piece, trimmed.
    private static func literalPieces(of text: String) -> [String] {
        var pieces: [String] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            pieces.append(String(rest[..<open.lowerBound].trimmingSpaces))
            guard let close = rest[open.upperBound...].range(of: "}}") else { return pieces }
            rest = rest[close.upperBound...]
        }
        pieces.append(String(rest.trimmingSpaces))
        return pieces
    }
}

private extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while let c = text.first, c == " " || c == "\t" { text.removeFirst() }
        while let c = text.last, c == " " || c == "\t" { text.removeLast() }
        return text
    }
}
