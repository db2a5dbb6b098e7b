import CourierDiagnostics

/// Turns a YAML tree into the workflow model, collecting every problem it
/// finds instead of stopping at the first: users fix a file in one round.
///
/// Decoding methods return nil (or a harmless placeholder) after recording a
/// diagnostic, so the caller carries on with the rest of the tree.
final class WorkflowDecoder {
    var diagnostics: [Diagnostic] = []
    /// Step ids seen so far in this file, for duplicate-id errors.
    var stepIDs: [String: SourceRange] = [:]
    /// The directory of the file being decoded: relative paths in it resolve here.
    var directory = "."
    /// Set when the decoder may look at files: literal includes are loaded and
    /// literal paths checked. Nil for text decoded on its own.
    var loading: LoadingContext?
    /// Templates parsed so far, by node: an alias repeats its anchor's node, and a string
    /// aliased 10,000 times was parsed (and its errors reported) 10,000 times.
    /// The node is kept with its template so its identity cannot be reused by a new node.
    private var templates: [ObjectIdentifier: (node: YAMLNode, template: Template)] = [:]
    /// Schemas decoded so far, by node, for the same reason: an aliased schema is compiled once.
    var schemas: [ObjectIdentifier: (node: YAMLNode, source: SchemaSource?)] = [:]
    /// Whether the nodes being decoded may be repeated by an alias, so `templates` and
    /// `schemas` must remember them. False for a streamed step no anchor can reach: keeping
    /// its nodes would keep the whole tree alive that streaming frees.
    var remembersNodes = true
    /// The top-level steps decoded while the file was read (``StreamedSteps``), if any.
    var streamed: StreamedSteps.Taken?

    init(directory: String = ".", loading: LoadingContext? = nil) {
        self.directory = directory
        self.loading = loading
    }

    func error(_ message: String, at range: SourceRange, notes: [Diagnostic] = []) {
        diagnostics.append(.error(message, at: range, notes: notes))
    }

    // MARK: - Mappings with known keys

    /// A mapping's pairs by key, after checking every key is known in `context`.
    struct Fields {
        let range: SourceRange
        /// Linear storage: these mappings have a handful of keys, and a
        /// dictionary per mapping cost more than the scans it saves.
        private var entries: [(name: String, key: YAMLNode, value: YAMLNode)] = []

        init(range: SourceRange) { self.range = range }

        var order: [String] { entries.map(\.name) }

        mutating func add(_ name: String, key: YAMLNode, value: YAMLNode) {
            entries.append((name, key, value))
        }

        subscript(name: String) -> YAMLNode? { entries.first { isSameKey($0.name, name) }?.value }

        func key(_ name: String) -> YAMLNode? { entries.first { isSameKey($0.name, name) }?.key }

        func has(_ name: String) -> Bool { entries.contains { isSameKey($0.name, name) } }

        /// Whether any of `names` is here: lets a decoder skip a group of keys (the request
        /// options, the body keys) that most mappings do not have, one scan for the group.
        func hasAny(of names: [String]) -> Bool {
            entries.contains { entry in names.contains { isSameKey($0, entry.name) } }
        }
    }

    /// `a == b`, rejecting different lengths first: key lookups compare many
    /// short names that differ, and a full string comparison of unequal strings
    /// takes a slow path (it checks for canonically equivalent spellings). The
    /// names compared are lower-case ASCII, which no other spelling is equivalent to.
    @inline(__always)
    static func isSameKey(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a == b
    }

    /// Checks that `node` is a mapping whose keys are all in `allowed`.
    ///
    /// Unknown keys are reported (`unknown key 'hedaers' in request; did you
    /// mean 'headers'?`) and skipped; `hints` adds a specific message for keys
    /// that are known to belong elsewhere.
    func fields(_ node: YAMLNode, in context: String, allowed: [String], hints: [String: String] = [:]) -> Fields? {
        guard case .mapping(let pairs) = node.kind else {
            error("expected a mapping for \(context), found \(node.kindDescription)", at: node.range)
            return nil
        }
        var fields = Fields(range: node.range)
        for pair in pairs {
            guard let name = scalarKey(pair.key, in: context) else { continue }
            if allowed.contains(where: { Self.isSameKey($0, name) }) {
                fields.add(name, key: pair.key, value: pair.value)
            } else if let hint = hints[name] {
                error(hint, at: pair.key.range)
            } else {
                error("unknown key '\(name)' in \(context)\(keyHint(name, allowed))", at: pair.key.range)
            }
        }
        return fields
    }

    private func keyHint(_ name: String, _ allowed: [String]) -> String {
        if let match = suggestion(for: name, among: allowed) { return "; did you mean '\(match)'?" }
        return "; valid keys are " + allowed.map { "'\($0)'" }.joined(separator: ", ")
    }

    /// The text of a mapping key, which must be a scalar.
    func scalarKey(_ key: YAMLNode, in context: String) -> String? {
        guard let scalar = key.scalar else {
            error("expected a plain key in \(context), found \(key.kindDescription) used as a key", at: key.range)
            return nil
        }
        return scalar.text
    }

    /// A mapping's pairs with scalar keys (for user-named entries such as headers or vars).
    func namedEntries(_ node: YAMLNode, for context: String) -> [(name: String, key: YAMLNode, value: YAMLNode)]? {
        guard case .mapping(let pairs) = node.kind else {
            if node.isNull { return [] }
            error("expected a mapping for \(context), found \(node.kindDescription)", at: node.range)
            return nil
        }
        return pairs.compactMap { pair in
            scalarKey(pair.key, in: context).map { ($0, pair.key, pair.value) }
        }
    }

    // MARK: - Scalars

    /// A string scalar (quoted or plain text that is not a number, bool or null).
    func string(_ node: YAMLNode, for key: String) -> Located<String>? {
        guard let scalar = node.scalar, case .string = scalar.value else {
            error("expected a string for '\(key)', found \(node.kindDescription)", at: node.range)
            return nil
        }
        return Located(scalar.text, range: node.range)
    }

    /// Any non-null scalar as text (`X-Count: 5`, `limit: 10` in a query).
    func scalarText(_ node: YAMLNode, for key: String) -> String? {
        guard let scalar = node.scalar, scalar.value != .null else {
            error("expected a string for '\(key)', found \(node.kindDescription)", at: node.range)
            return nil
        }
        return scalar.text
    }

    /// A string that may hold `{{ }}`; numbers and booleans are accepted as their text.
    func template(_ node: YAMLNode, for key: String) -> Template? {
        guard let text = scalarText(node, for: key) else { return nil }
        return parseTemplate(text, node)
    }

    /// `text` (the text of scalar `node`) as a template, parsed once per node.
    func parseTemplate(_ text: String, _ node: YAMLNode) -> Template {
        // Plain text needs no cache: the parser returns at once.
        guard text.containsUTF8Byte(UInt8(ascii: "{")) else {
            return TemplateParser.parse(text, positions: TextPositions(node: node), range: node.range, diagnostics: &diagnostics)
        }
        guard remembersNodes else {
            return TemplateParser.parse(text, positions: TextPositions(node: node), range: node.range, diagnostics: &diagnostics)
        }
        if let known = templates[node.identity] { return known.template }
        let template = TemplateParser.parse(text, positions: TextPositions(node: node), range: node.range, diagnostics: &diagnostics)
        templates[node.identity] = (node, template)
        return template
    }

    func bool(_ node: YAMLNode, for key: String) -> Bool? {
        guard let scalar = node.scalar, case .bool(let value) = scalar.value else {
            var message = "expected true or false for '\(key)', found \(node.kindDescription)"
            if let text = node.scalar?.text, ["yes", "no", "on", "off", "y", "n"].contains(text.lowercased()) {
                message += " ('\(text)' is a string in YAML 1.2; write true or false)"
            }
            error(message, at: node.range)
            return nil
        }
        return value
    }

    func int(_ node: YAMLNode, for key: String, minimum: Int? = nil) -> Int? {
        guard let scalar = node.scalar, case .integer(let text) = scalar.value, let value = Int(text) else {
            error("expected an integer for '\(key)', found \(node.kindDescription)", at: node.range)
            return nil
        }
        if let minimum, value < minimum {
            error("'\(key)' must be at least \(minimum), found \(value)", at: node.range)
            return nil
        }
        return value
    }

    func number(_ node: YAMLNode, for key: String) -> Double? {
        guard let scalar = node.scalar else {
            error("expected a number for '\(key)', found \(node.kindDescription)", at: node.range)
            return nil
        }
        switch scalar.value {
        case .integer(let text), .float(let text):
            if let value = Double(text), value.isFinite { return value }
        default: break
        }
        error("expected a number for '\(key)', found \(node.kindDescription)", at: node.range)
        return nil
    }

    /// `250ms`, `2s`, `1.5s`, `1m`, or a bare number of seconds.
    func duration(_ node: YAMLNode, for key: String) -> Duration? {
        guard let scalar = node.scalar, scalar.value != .null, scalar.value != .bool(true), scalar.value != .bool(false),
              let value = Duration.parse(scalar.text) else {
            let found = node.scalar.map { "'\($0.text)'" } ?? node.kindDescription
            error("invalid duration \(found) for '\(key)'; write e.g. 250ms, 2s, 1.5s, 1m or a number of seconds", at: node.range)
            return nil
        }
        guard value >= Duration.shortestAllowed else {
            error("duration '\(scalar.text)' for '\(key)' is shorter than 1ms; write at least 1ms (0 would mean no limit)", at: node.range)
            return nil
        }
        guard value <= Duration.longestAllowed else {
            error("duration '\(scalar.text)' for '\(key)' is longer than \(Duration.longestAllowedText), the longest Courier accepts", at: node.range)
            return nil
        }
        return value
    }

    /// A value from a fixed set of words, with a did-you-mean.
    func choice<T>(_ node: YAMLNode, for key: String, _ options: [(String, T)]) -> T? {
        let names = options.map(\.0)
        guard let text = node.scalar?.text, node.scalar?.value != .null, let match = options.first(where: { $0.0 == text }) else {
            let found = node.scalar.map { "'\($0.text)'" } ?? node.kindDescription
            let hint = node.scalar.flatMap { suggestion(for: $0.text, among: names) }.map { "; did you mean '\($0)'?" }
                ?? "; expected one of " + names.map { "'\($0)'" }.joined(separator: ", ")
            error("invalid value \(found) for '\(key)'\(hint)", at: node.range)
            return nil
        }
        return match.1
    }

    /// The items of a sequence (a lone scalar is not silently promoted).
    func sequence(_ node: YAMLNode, for key: String) -> [YAMLNode]? {
        guard case .sequence(let items) = node.kind else {
            error("expected a sequence for '\(key)', found \(node.kindDescription)", at: node.range)
            return nil
        }
        return items
    }
}
