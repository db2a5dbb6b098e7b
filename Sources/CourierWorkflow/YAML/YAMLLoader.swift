import CYAML
import CourierDiagnostics
import CourierJSON

/// Loads one YAML document into a ``YAMLNode`` tree through libyaml's event API.
///
/// libyaml only tokenises: it types nothing, applies no merge keys, accepts
/// duplicate keys and expands aliases without limit. The loader adds all four
/// (core schema, `<<`, duplicate-key errors, a bound on alias expansion) and
/// converts libyaml's 0-based marks to 1-based ``SourceLocation``s.
package struct YAMLLoader {
    /// The most nodes aliases may add in total before loading stops ("billion laughs").
    package var maxAliasExpansion = YAMLLoader.defaultMaxAliasNodes

    /// The most scalar text (UTF-8 bytes) aliases may add in total: a few
    /// aliases of one large string cost as much to decode as many small nodes.
    package var maxAliasBytes = YAMLLoader.defaultMaxAliasBytes

    /// The deepest collection nesting accepted (the shared ``NestingLimit``).
    package var maxDepth = NestingLimit.maxDepth

    /// 100,000 nodes added by aliases, the documented default.
    package static let defaultMaxAliasNodes = 100_000
    /// 10 MiB of scalar text added by aliases, the documented default.
    package static let defaultMaxAliasBytes = 10 * 1024 * 1024

    package init() {}

    /// The result of loading: the root (nil for an empty stream) and every problem found.
    package struct Output: Sendable {
        package var root: YAMLNode?
        package var diagnostics: [Diagnostic]
    }

    /// Parses `text`, naming positions after `file`.
    package func load(_ text: String, file: String) -> Output {
        // A byte order mark is no content (``SourceFile`` drops it too, so columns agree).
        if text.unicodeScalars.first == "\u{FEFF}" {
            return load(String(text.unicodeScalars.dropFirst()), file: file)
        }
        var builder = TreeBuilder(file: file, maxAliasExpansion: maxAliasExpansion, maxAliasBytes: maxAliasBytes, maxDepth: maxDepth)
        // libyaml only reads the input: parse a native string's UTF-8 in place
        // rather than copying the whole file first.
        let parsedInPlace: Void? = text.utf8.withContiguousStorageIfAvailable { builder.run($0) }
        if parsedInPlace == nil {
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { builder.run($0) }
        }
        return Output(root: builder.root, diagnostics: builder.diagnostics)
    }
}

extension YAMLLoader {
    /// The 1-based line and column (in Unicode scalars, as libyaml counts) of byte `offset`.
    ///
    /// Counts only valid lead bytes, so an invalid sequence at `offset` still
    /// gets the column of the first bad byte.
    package static func location(ofByte offset: Int, in input: UnsafeBufferPointer<UInt8>, file: String) -> SourceLocation {
        var line = 1
        var column = 1
        var index = 0
        let end = min(offset, input.count)
        while index < end {
            let byte = input[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte == UInt8(ascii: "\r") {
                // CRLF counts once; a lone CR ends a line too (as libyaml reads it).
                if index + 1 < end, input[index + 1] == UInt8(ascii: "\n") { index += 1 }
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return SourceLocation(file: file, line: line, column: column)
    }

    /// The position of byte `offset` of `text`.
    package static func location(ofByte offset: Int, in text: String, file: String) -> SourceLocation {
        var text = text
        return text.withUTF8 { location(ofByte: offset, in: $0, file: file) }
    }
}

// MARK: - Builder

/// An open collection: where its items start on the builder's node stack.
///
/// Frames hold no arrays of their own. Finished nodes go onto one flat stack
/// and a collection takes its items off the top when it ends, so each
/// sequence or mapping allocates exactly one array of the right size (nested
/// per-frame arrays, as class objects or worse as value types inside enum
/// payloads, were the loader's main cost).
private struct Frame {
    enum Kind { case sequence, mapping }
    let kind: Kind
    let start: yaml_mark_t
    let tag: String?
    let anchor: String?
    /// Index of this collection's first item on the node stack.
    let firstItem: Int
    /// Nodes in this subtree, counted for the alias-expansion bound.
    var size = 1
    /// Scalar text bytes in this subtree, counted for the alias-expansion bound.
    var bytes = 0
}

/// A struct driven from one local variable, so its state needs no dynamic
/// exclusivity checks (a class's stored properties did, on every event).
private struct TreeBuilder {
    let file: String
    let maxAliasExpansion: Int
    let maxAliasBytes: Int
    let maxDepth: Int
    var root: YAMLNode?
    var diagnostics: [Diagnostic] = []
    private var frames: [Frame] = []
    /// Finished nodes of all open collections, innermost last.
    private var nodes: [YAMLNode] = []
    private var anchors: [String: (node: YAMLNode, size: Int, bytes: Int)] = [:]
    private var expanded = 0
    private var expandedBytes = 0
    /// The bytes being parsed, for turning a reader error's byte offset into a position.
    private var input = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    private var documents = 0
    private var rootSize = 0

    init(file: String, maxAliasExpansion: Int, maxAliasBytes: Int, maxDepth: Int) {
        self.file = file
        self.maxAliasExpansion = maxAliasExpansion
        self.maxAliasBytes = maxAliasBytes
        self.maxDepth = maxDepth
        frames.reserveCapacity(16)
        nodes.reserveCapacity(64)
    }

    func location(_ mark: yaml_mark_t) -> SourceLocation {
        SourceLocation(file: file, line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    func range(_ start: yaml_mark_t, _ end: yaml_mark_t) -> SourceRange {
        SourceRange(file: file, startLine: Int(start.line) + 1, startColumn: Int(start.column) + 1,
                    endLine: Int(end.line) + 1, endColumn: Int(end.column) + 1)
    }

    // MARK: Event loop

    mutating func run(_ input: UnsafeBufferPointer<UInt8>) {
        guard let base = input.baseAddress else {
            // libyaml asserts a non-null input, which an empty buffer may not have.
            let placeholder: [UInt8] = [0]
            placeholder.withUnsafeBufferPointer { run(UnsafeBufferPointer(start: $0.baseAddress, count: 0)) }
            return
        }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) != 0 else {
            diagnostics.append(.error("cannot initialise the YAML parser (out of memory?)", at: nil))
            return
        }
        defer { yaml_parser_delete(&parser) }
        self.input = input
        yaml_parser_set_input_string(&parser, base, input.count)
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)

        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(&parser, &event) != 0 else {
                diagnostics.append(parserError(parser))
                root = nil
                return
            }
            let type = event.type
            let keepGoing = handle(&event)
            yaml_event_delete(&event)
            if !keepGoing {
                root = nil
                return
            }
            if type == YAML_STREAM_END_EVENT { return }
        }
    }

    /// Handles one event; false stops loading (a fatal problem was recorded).
    private mutating func handle(_ event: inout yaml_event_t) -> Bool {
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                diagnostics.append(.error(
                    "a workflow file holds one YAML document; found a second one here (remove this '---' or split the file)",
                    at: range(event.start_mark, event.end_mark)))
                return false
            }
            return true

        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            let text = data.value.map { String(decoding: UnsafeBufferPointer(start: $0, count: data.length), as: UTF8.self) } ?? ""
            let style: YAMLScalar.Style
            switch data.style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
            case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
            case YAML_LITERAL_SCALAR_STYLE: style = .literal
            case YAML_FOLDED_SCALAR_STYLE: style = .folded
            default: style = .plain
            }
            let tag = cString(data.tag)
            let nodeRange = range(event.start_mark, event.end_mark)
            let value: YAMLScalarValue
            if tag == nil {
                // The common case, without building a Result.
                value = style == .plain ? CoreSchema.resolvePlain(text) : .string
            } else {
                switch CoreSchema.resolve(text, style: style, tag: tag) {
                case .success(let v):
                    value = v
                case .failure(.mismatch(let expected)):
                    diagnostics.append(.error("'\(text)' is not \(expected), but it is tagged '\(shortTag(tag))'", at: nodeRange))
                    value = .string
                case .failure(.unsupported):
                    diagnostics.append(.error("unsupported YAML tag '\(shortTag(tag))'; use '!!str', '!!int', '!!float', '!!bool' or '!!null'", at: nodeRange))
                    value = .string
                }
            }
            let node = YAMLNode(kind: .scalar(YAMLScalar(text: text, style: style, value: value)), range: nodeRange, tag: tag)
            return add(node, size: 1, bytes: data.length, anchor: cString(data.anchor))

        case YAML_SEQUENCE_START_EVENT:
            let data = event.data.sequence_start
            let tag = cString(data.tag)
            if let tag, tag != CoreSchema.seqTag, tag != "!" {
                diagnostics.append(.error("unsupported tag '\(shortTag(tag))' on a sequence", at: range(event.start_mark, event.end_mark)))
            }
            guard enterCollection(event) else { return false }
            frames.append(Frame(kind: .sequence, start: event.start_mark, tag: tag, anchor: cString(data.anchor), firstItem: nodes.count))
            return true

        case YAML_MAPPING_START_EVENT:
            let data = event.data.mapping_start
            if let mistake = unquotedTemplate(event) {
                // `url: {{ base }}` parses as a mapping whose key is a mapping: never meant.
                diagnostics.append(mistake)
                return false
            }
            let tag = cString(data.tag)
            if let tag, tag != CoreSchema.mapTag, tag != "!" {
                diagnostics.append(.error("unsupported tag '\(shortTag(tag))' on a mapping", at: range(event.start_mark, event.end_mark)))
            }
            guard enterCollection(event) else { return false }
            frames.append(Frame(kind: .mapping, start: event.start_mark, tag: tag, anchor: cString(data.anchor), firstItem: nodes.count))
            return true

        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let frame = frames.popLast() else { return true }
            let nodeRange = range(frame.start, event.end_mark)
            let kind: YAMLNode.Kind
            if frame.kind == .sequence {
                kind = .sequence(Array(nodes[frame.firstItem...]))
            } else {
                kind = .mapping(finishMapping(nodes[frame.firstItem...]))
            }
            nodes.removeSubrange(frame.firstItem...)
            return add(YAMLNode(kind: kind, range: nodeRange, tag: frame.tag), size: frame.size, bytes: frame.bytes, anchor: frame.anchor)

        case YAML_ALIAS_EVENT:
            let name = cString(event.data.alias.anchor) ?? ""
            let aliasRange = range(event.start_mark, event.end_mark)
            guard let target = anchors[name] else {
                diagnostics.append(.error("unknown anchor '\(name)'; define it with '&\(name)' before using '*\(name)'", at: aliasRange))
                return add(YAMLNode(kind: .scalar(YAMLScalar(text: "", style: .plain, value: .null)), range: aliasRange), size: 1, bytes: 0, anchor: nil)
            }
            expanded += target.size
            expandedBytes += target.bytes
            if expanded > maxAliasExpansion {
                diagnostics.append(.error(
                    "too many alias expansions (more than \(maxAliasExpansion) nodes); is this a recursive or exponential alias structure?",
                    at: aliasRange))
                return false
            }
            if expandedBytes > maxAliasBytes {
                diagnostics.append(.error(
                    "aliases expand to too much text (more than \(byteText(maxAliasBytes)) of scalars); anchor smaller values or write them out",
                    at: aliasRange))
                return false
            }
            return add(target.node, size: target.size, bytes: target.bytes, anchor: nil)

        default:
            return true
        }
    }

    /// Puts a finished node into the open collection (or makes it the root).
    private mutating func add(_ node: YAMLNode, size: Int, bytes: Int, anchor: String?) -> Bool {
        if let anchor {
            anchors[anchor] = (node, size, bytes)
        }
        if frames.isEmpty {
            root = node
            rootSize = size
        } else {
            nodes.append(node)
            frames[frames.count - 1].size += size
            frames[frames.count - 1].bytes += bytes
        }
        return true
    }

    /// The error for a flow mapping opened right after another one (`{{`) that has no
    /// items yet: a template written as a plain value.
    private func unquotedTemplate(_ event: yaml_event_t) -> Diagnostic? {
        guard event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE, let outer = frames.last, outer.kind == .mapping,
              outer.firstItem == nodes.count, outer.start.line == event.start_mark.line,
              outer.start.column + 1 == event.start_mark.column else { return nil }
        let line = Int(outer.start.line) + 1
        return UnquotedTemplate.diagnostic(in: input, lines: line...line, before: (line, Int(outer.start.column) + 1), file: file)
    }

    /// Checks the depth before a collection opens. Loading stops at the first
    /// collection past the limit: every later stage recurses over the tree,
    /// and libyaml's scanner does quadratic work on long runs of open `[`.
    private mutating func enterCollection(_ event: yaml_event_t) -> Bool {
        guard frames.count >= maxDepth else { return true }
        diagnostics.append(.error(
            "\(NestingLimit.message): this collection is \(frames.count + 1) levels deep; flatten the document or move the data into a file",
            at: range(event.start_mark, event.end_mark)))
        return false
    }

    // MARK: Mappings: merge keys and duplicates

    /// Pairs the alternating key/value items, reports duplicate keys and applies `<<`.
    private mutating func finishMapping(_ items: ArraySlice<YAMLNode>) -> [YAMLPair] {
        var pairs: [YAMLPair] = []
        pairs.reserveCapacity(items.count / 2)
        var mergeSources: [(index: Int, value: YAMLNode)] = []
        // Most mappings are small: a linear scan beats hashing every key into a
        // fresh dictionary (which dominated load time on large files).
        var firstByKey = KeyIndex(expectedCount: items.count / 2)
        var index = items.startIndex
        while index + 1 < items.endIndex {
            let key = items[index]
            let value = items[index + 1]
            index += 2
            // Length first: comparing unequal strings takes String's slow path.
            if let scalar = key.scalar, scalar.style == .plain, scalar.text.utf8.count == 2, scalar.text == "<<", key.tag == nil {
                mergeSources.append((pairs.count, value))
                continue
            }
            if let text = key.scalar?.text {
                if let first = firstByKey.range(of: text) {
                    diagnostics.append(.error(
                        "duplicate key '\(text)'; each key may appear once in a mapping",
                        at: key.range,
                        notes: [.note("'\(text)' was first defined here", at: first)]))
                    continue
                }
                firstByKey.insert(text, key.range)
            }
            pairs.append(YAMLPair(key: key, value: value))
        }
        guard !mergeSources.isEmpty else { return pairs }

        // Explicit keys win over merged ones; among merged maps the first listed wins.
        var result: [YAMLPair] = []
        var inserted = 0
        for (position, source) in mergeSources {
            var maps: [YAMLNode] = []
            switch source.kind {
            case .mapping: maps = [source]
            case .sequence(let elements):
                for element in elements {
                    if case .mapping = element.kind { maps.append(element) } else {
                        diagnostics.append(.error("a '<<' merge list holds mappings only; found \(element.kindDescription)", at: element.range))
                    }
                }
            default:
                diagnostics.append(.error("'<<' merges a mapping or a list of mappings; found \(source.kindDescription)", at: source.range))
            }
            while inserted < position {
                result.append(pairs[inserted])
                inserted += 1
            }
            for map in maps {
                for pair in map.mapping ?? [] {
                    guard let text = pair.key.scalar?.text else { continue }
                    if firstByKey.range(of: text) != nil { continue }
                    firstByKey.insert(text, pair.key.range)
                    result.append(pair)
                }
            }
        }
        result.append(contentsOf: pairs[inserted...])
        return result
    }

    /// Key → first range, linear for small mappings and hashed for large ones.
    private struct KeyIndex {
        private var small: [(String, SourceRange)] = []
        private var large: [String: SourceRange]?

        init(expectedCount: Int) {
            if expectedCount > 16 { large = Dictionary(minimumCapacity: expectedCount) } else { small.reserveCapacity(expectedCount) }
        }

        func range(of key: String) -> SourceRange? {
            if let large { return large[key] }
            for (k, r) in small where k == key { return r }
            return nil
        }

        mutating func insert(_ key: String, _ range: SourceRange) {
            if large != nil { large?[key] = range } else { small.append((key, range)) }
        }
    }

    // MARK: Errors and helpers

    private func parserError(_ parser: yaml_parser_t) -> Diagnostic {
        let problem = cString(parser.problem) ?? "unknown error"
        let context = cString(parser.context)
        if parser.error == YAML_READER_ERROR {
            // Reader errors (bad encoding, control characters) carry a byte offset, not a mark.
            let at = SourceRange(at: YAMLLoader.location(ofByte: Int(parser.problem_offset), in: input, file: file))
            return .error("invalid YAML input: \(problem) (byte \(parser.problem_offset))", at: at)
        }
        let at = SourceRange(at: location(parser.problem_mark))
        // `url: {{ base }}/health`: say what to do instead of what libyaml expected. Only the
        // problem's line and its context's are looked at: a `{{` lines before it may sit in a
        // block scalar (`body: |`), where it is text.
        let contextLine = Int(parser.context_mark.line) + 1
        for line in [at.start.line] + (context != nil && contextLine < at.start.line ? [contextLine] : []) {
            if let mistake = UnquotedTemplate.diagnostic(in: input, lines: line...line, before: (at.start.line, at.start.column), file: file) {
                return mistake
            }
        }
        var notes: [Diagnostic] = []
        if let context {
            let contextLocation = location(parser.context_mark)
            if contextLocation != at.start {
                notes.append(.note("\(context) that started here", at: SourceRange(at: contextLocation)))
            }
        }
        var message = "invalid YAML: \(problem)"
        if let context { message += " (\(context))" }
        return .error(message, at: at, notes: notes)
    }

    private func cString(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }

    private func cString(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }

    /// `10 MiB` for whole mebibytes, else a number of bytes.
    private func byteText(_ count: Int) -> String {
        count % (1024 * 1024) == 0 ? "\(count / (1024 * 1024)) MiB" : "\(count) bytes"
    }

    private func shortTag(_ tag: String?) -> String {
        guard let tag else { return "" }
        let prefix = "tag:yaml.org,2002:"
        return tag.hasPrefix(prefix) ? "!!" + tag.dropFirst(prefix.count) : tag
    }
}
