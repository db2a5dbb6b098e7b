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
    ///
    /// With `steps`, each item of the root mapping's `steps:` sequence goes to it as soon as
    /// it is complete and is left out of the tree (whose `steps:` is then an empty
    /// sequence): a large workflow is decoded step by step while it is read, so its tree
    /// never exists whole (see ``YAMLStepStream``).
    package func load(_ text: String, file: String, steps: (any YAMLStepStream)? = nil) -> Output {
        // A byte order mark is no content (``SourceFile`` drops it too, so columns agree).
        if text.unicodeScalars.first == "\u{FEFF}" {
            return load(String(text.unicodeScalars.dropFirst()), file: file, steps: steps)
        }
        // libyaml only reads the input: parse a native string's UTF-8 in place
        // rather than copying the whole file first.
        if let output = text.utf8.withContiguousStorageIfAvailable({ load($0, file: file, steps: steps) }) { return output }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { load($0, file: file, steps: steps) }
    }

    private func load(_ input: UnsafeBufferPointer<UInt8>, file: String, steps: (any YAMLStepStream)?) -> Output {
        // Everyday workflow files take the fast reader; it declines anything outside the
        // plain subset it knows (anchors, tags, block scalars, multi-line scalars…), and
        // whatever yields a diagnostic is read again by libyaml, whose words and positions
        // the contract's error messages are.
        var fast = TreeBuilder(file: file, input: input, maxAliasExpansion: maxAliasExpansion, maxAliasBytes: maxAliasBytes, maxDepth: maxDepth)
        fast.steps = steps
        if CommonYAMLReader.read(input, into: &fast), fast.diagnostics.isEmpty, fast.root != nil {
            return Output(root: fast.root, diagnostics: [])
        }
        // What the fast reader streamed before it declined is read again.
        if fast.streamedSteps > 0 { steps?.restart() }
        var builder = TreeBuilder(file: file, input: input, maxAliasExpansion: maxAliasExpansion, maxAliasBytes: maxAliasBytes, maxDepth: maxDepth)
        builder.steps = steps
        switch LibYAMLEvents.read(input, file: file, into: &builder) {
        case .finished:
            break
        case .stopped:
            builder.root = nil
        case .invalid(let diagnostic):
            builder.diagnostics.append(diagnostic)
            builder.root = nil
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
    let kind: YAMLCollectionKind
    let start: YAMLMark
    let tag: String?
    let anchor: String?
    /// Index of this collection's first item on the node stack.
    let firstItem: Int
    /// The root mapping's `steps:` sequence while steps are streamed: its items go to the
    /// stream instead of onto the node stack.
    var streamsItems = false
    /// Nodes in this subtree, counted for the alias-expansion bound.
    var size = 1
    /// Scalar text bytes in this subtree, counted for the alias-expansion bound.
    var bytes = 0
}

/// Builds the tree from a stream's events (libyaml's or the fast reader's).
///
/// A struct driven from one local variable, so its state needs no dynamic
/// exclusivity checks (a class's stored properties did, on every event).
private struct TreeBuilder: YAMLEventSink {
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
    /// The bytes being parsed, for the unquoted-template diagnostic.
    private let input: UnsafeBufferPointer<UInt8>
    private var documents = 0
    /// Where the items of the root mapping's `steps:` go, when they are streamed.
    var steps: (any YAMLStepStream)?
    private(set) var streamedSteps = 0

    init(file: String, input: UnsafeBufferPointer<UInt8>, maxAliasExpansion: Int, maxAliasBytes: Int, maxDepth: Int) {
        self.file = file
        self.input = input
        self.maxAliasExpansion = maxAliasExpansion
        self.maxAliasBytes = maxAliasBytes
        self.maxDepth = maxDepth
        frames.reserveCapacity(16)
        nodes.reserveCapacity(64)
    }

    func range(_ start: YAMLMark, _ end: YAMLMark) -> SourceRange {
        SourceRange(file: file, startLine: start.line + 1, startColumn: start.column + 1,
                    endLine: end.line + 1, endColumn: end.column + 1)
    }

    // MARK: Events

    mutating func documentStart(start: YAMLMark, end: YAMLMark) -> Bool {
        documents += 1
        if documents > 1 {
            diagnostics.append(.error(
                "a workflow file holds one YAML document; found a second one here (remove this '---' or split the file)",
                at: range(start, end)))
            return false
        }
        return true
    }

    mutating func scalar(_ text: String, style: YAMLScalar.Style, tag: String?, anchor: String?, byteCount: Int,
                         start: YAMLMark, end: YAMLMark) -> Bool {
        let nodeRange = range(start, end)
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
        return add(node, size: 1, bytes: byteCount, anchor: anchor)
    }

    mutating func collectionStart(_ kind: YAMLCollectionKind, flow: Bool, tag: String?, anchor: String?,
                                  start: YAMLMark, end: YAMLMark) -> Bool {
        if kind == .mapping, flow, let mistake = unquotedTemplate(at: start) {
            // `url: {{ base }}` parses as a mapping whose key is a mapping: never meant.
            diagnostics.append(mistake)
            return false
        }
        let expectedTag = kind == .sequence ? CoreSchema.seqTag : CoreSchema.mapTag
        if let tag, tag != expectedTag, tag != "!" {
            diagnostics.append(.error("unsupported tag '\(shortTag(tag))' on a \(kind == .sequence ? "sequence" : "mapping")",
                                      at: range(start, end)))
        }
        guard enterCollection(start, end) else { return false }
        var frame = Frame(kind: kind, start: start, tag: tag, anchor: anchor, firstItem: nodes.count)
        frame.streamsItems = kind == .sequence && anchor == nil && isRootStepsValue()
        frames.append(frame)
        return true
    }

    /// Whether a collection opening now is the value of the root mapping's `steps` key.
    private func isRootStepsValue() -> Bool {
        guard steps != nil, frames.count == 1, let root = frames.first, root.kind == .mapping,
              (nodes.count - root.firstItem) % 2 == 1, let key = nodes.last?.scalar else { return false }
        return key.text.utf8.count == 5 && key.text == "steps"
    }

    mutating func collectionEnd(start: YAMLMark, end: YAMLMark) -> Bool {
        guard let frame = frames.popLast() else { return true }
        let nodeRange = range(frame.start, end)
        let kind: YAMLNode.Kind
        if frame.kind == .sequence {
            kind = .sequence(Array(nodes[frame.firstItem...]))
        } else {
            kind = .mapping(finishMapping(nodes[frame.firstItem...]))
        }
        nodes.removeSubrange(frame.firstItem...)
        return add(YAMLNode(kind: kind, range: nodeRange, tag: frame.tag), size: frame.size, bytes: frame.bytes, anchor: frame.anchor)
    }

    mutating func alias(_ name: String, start: YAMLMark, end: YAMLMark) -> Bool {
        let aliasRange = range(start, end)
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
    }

    /// Puts a finished node into the open collection (or makes it the root).
    private mutating func add(_ node: YAMLNode, size: Int, bytes: Int, anchor: String?) -> Bool {
        if let anchor {
            anchors[anchor] = (node, size, bytes)
        }
        if frames.isEmpty {
            root = node
        } else if frames[frames.count - 1].streamsItems, let steps {
            // Once a step is complete no later alias can reach into it unless an anchor
            // was set by then: the decoder needs to remember its nodes only in that case.
            steps.step(node, mayBeAliased: !anchors.isEmpty)
            streamedSteps += 1
            frames[frames.count - 1].size += size
            frames[frames.count - 1].bytes += bytes
        } else {
            nodes.append(node)
            frames[frames.count - 1].size += size
            frames[frames.count - 1].bytes += bytes
        }
        return true
    }

    /// The error for a flow mapping opened right after another one (`{{`) that has no
    /// items yet: a template written as a plain value.
    private func unquotedTemplate(at start: YAMLMark) -> Diagnostic? {
        guard let outer = frames.last, outer.kind == .mapping,
              outer.firstItem == nodes.count, outer.start.line == start.line,
              outer.start.column + 1 == start.column else { return nil }
        let line = outer.start.line + 1
        return UnquotedTemplate.diagnostic(in: input, lines: line...line, before: (line, outer.start.column + 1), file: file)
    }

    /// Checks the depth before a collection opens. Loading stops at the first
    /// collection past the limit: every later stage recurses over the tree,
    /// and libyaml's scanner does quadratic work on long runs of open `[`.
    private mutating func enterCollection(_ start: YAMLMark, _ end: YAMLMark) -> Bool {
        guard frames.count >= maxDepth else { return true }
        diagnostics.append(.error(
            "\(NestingLimit.message): this collection is \(frames.count + 1) levels deep; flatten the document or move the data into a file",
            at: range(start, end)))
        return false
    }

    // MARK: Mappings: merge keys and duplicates

    /// Pairs the alternating key/value items, reports duplicate keys and applies `<<`.
    private mutating func finishMapping(_ items: ArraySlice<YAMLNode>) -> [YAMLPair] {
        var pairs: [YAMLPair] = []
        pairs.reserveCapacity(items.count / 2)
        var mergeSources: [(index: Int, value: YAMLNode)] = []
        // Most mappings are small: a scan of the pairs kept so far beats hashing every
        // key into a fresh dictionary (which dominated load time on large files).
        var large: [String: SourceRange]? = items.count / 2 > 16 ? Dictionary(minimumCapacity: items.count / 2) : nil
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
                if let first = large != nil ? large?[text] : Self.firstRange(of: text, in: pairs) {
                    diagnostics.append(.error(
                        "duplicate key '\(text)'; each key may appear once in a mapping",
                        at: key.range,
                        notes: [.note("'\(text)' was first defined here", at: first)]))
                    continue
                }
                large?[text] = key.range
            }
            pairs.append(YAMLPair(key: key, value: value))
        }
        guard !mergeSources.isEmpty else { return pairs }

        var firstByKey = KeyIndex(expectedCount: pairs.count)
        for pair in pairs {
            if let text = pair.key.scalar?.text { firstByKey.insert(text, pair.key.range) }
        }
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

    /// The range of the first key `text` among `pairs`.
    private static func firstRange(of text: String, in pairs: [YAMLPair]) -> SourceRange? {
        let length = text.utf8.count
        for pair in pairs {
            guard let other = pair.key.scalar?.text, other.utf8.count == length, other == text else { continue }
            return pair.key.range
        }
        return nil
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

    // MARK: Helpers

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
