import CourierDiagnostics

/// One node of a YAML document with the source range it came from.
///
/// Aliases are already expanded and `<<` merge keys applied, so consumers see
/// plain trees. A node reached through an alias keeps the range of the anchored
/// original: that is where its text is.
package struct YAMLNode: Sendable {
    package enum Kind: Sendable {
        case scalar(YAMLScalar)
        case sequence([YAMLNode])
        case mapping([YAMLPair])
    }

    /// The node's fields live in one immutable object: nodes are copied into
    /// frames, pairs, decoder field tables and back out many times per load, and
    /// a single reference copies with one retain where the inline fields (kind
    /// payload, two source locations, tag) took five or six and 128 bytes.
    private final class Storage: Sendable {
        let kind: Kind
        let range: SourceRange
        let tag: String?

        init(kind: Kind, range: SourceRange, tag: String?) {
            self.kind = kind
            self.range = range
            self.tag = tag
        }
    }

    private var storage: Storage

    /// The same for a node and every alias of it (they share storage): lets the decoder
    /// parse an aliased template once instead of once per alias.
    package var identity: ObjectIdentifier { ObjectIdentifier(storage) }

    package var kind: Kind {
        get { storage.kind }
        set { storage = Storage(kind: newValue, range: storage.range, tag: storage.tag) }
    }

    package var range: SourceRange {
        get { storage.range }
        set { storage = Storage(kind: storage.kind, range: newValue, tag: storage.tag) }
    }

    /// The resolved tag (`tag:yaml.org,2002:str`), or nil when none was written.
    package var tag: String? {
        get { storage.tag }
        set { storage = Storage(kind: storage.kind, range: storage.range, tag: newValue) }
    }

    package init(kind: Kind, range: SourceRange, tag: String? = nil) {
        storage = Storage(kind: kind, range: range, tag: tag)
    }

    package var scalar: YAMLScalar? {
        if case .scalar(let s) = kind { return s }
        return nil
    }

    package var sequence: [YAMLNode]? {
        if case .sequence(let items) = kind { return items }
        return nil
    }

    package var mapping: [YAMLPair]? {
        if case .mapping(let pairs) = kind { return pairs }
        return nil
    }

    /// The value for a scalar key with this text (first match), if this is a mapping.
    package subscript(key: String) -> YAMLNode? {
        mapping?.first { $0.key.scalar?.text == key }?.value
    }
}

/// A key/value pair of a mapping, in document order.
package struct YAMLPair: Sendable {
    package var key: YAMLNode
    package var value: YAMLNode

    package init(key: YAMLNode, value: YAMLNode) {
        self.key = key
        self.value = value
    }
}

/// A scalar's text as written (after YAML unescaping) and how it was written.
package struct YAMLScalar: Sendable, Hashable {
    package enum Style: Sendable, Hashable {
        case plain, singleQuoted, doubleQuoted, literal, folded
    }

    package var text: String
    package var style: Style
    /// The core-schema type, resolved once at load time from style, tag and text.
    package var value: YAMLScalarValue

    package init(text: String, style: Style, value: YAMLScalarValue) {
        self.text = text
        self.style = style
        self.value = value
    }
}

/// What a scalar means under the YAML 1.2 core schema.
package enum YAMLScalarValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// An integer; `text` is normalised to decimal digits with an optional `-`
    /// (`0x1F` → `31`, `+007` → `7`) so it is also valid JSON.
    case integer(text: String)
    /// A float; `text` keeps its digits (`1.50` stays `1.50`) but is made
    /// JSON-compatible where that is a pure spelling change (`.5` → `0.5`, `+1.` → `1.0`).
    /// Infinity and NaN keep their YAML spelling (`.inf`, `-.inf`, `.nan`).
    case float(text: String)
    case string

    /// "a string", "a number" … for messages like `expected a mapping, found a string`.
    package var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer, .float: return "a number"
        case .string: return "a string"
        }
    }
}

extension YAMLNode {
    /// "a mapping", "a sequence", "a string" … for type-mismatch messages.
    package var kindDescription: String {
        switch kind {
        case .scalar(let s): return s.value.kindDescription
        case .sequence: return "a sequence"
        case .mapping: return "a mapping"
        }
    }

    /// True for a scalar that resolved to null (`~`, `null`, empty).
    package var isNull: Bool {
        if case .scalar(let s) = kind, case .null = s.value { return true }
        return false
    }
}
