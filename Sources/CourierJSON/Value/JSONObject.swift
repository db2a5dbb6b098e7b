/// A JSON object: members in document order, with fast lookup by key.
///
/// Keys compare by their exact Unicode scalars (no normalization), as JSON requires: `"é"`
/// written precomposed and decomposed are two different keys.
///
/// **Duplicate keys: the last value wins, at the position of the first occurrence** (what
/// JavaScript's `JSON.parse` does). RFC 8259 leaves the behaviour open.
///
/// Storage: the keys live in an ``ObjectKeys`` that the parser shares between objects with
/// the same keys in the same order (the rows of an API response), and the values in an array.
/// Objects with more than 8 keys carry a hash index in their keys; smaller ones are searched
/// linearly.
///
/// ```swift
/// let object: JSONObject = ["id": 1, "name": "Ada"]
/// object["name"]   // .string("Ada")
/// object.keys      // ["id", "name"]
/// ```
public struct JSONObject: Sendable, Equatable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Element = (key: String, value: JSONValue)

    @usableFromInline var shape: ObjectKeys
    @usableFromInline var storedValues: [JSONValue]

    public init() {
        shape = ObjectKeys.empty
        storedValues = []
    }

    private init(unchecked shape: ObjectKeys, values: [JSONValue]) {
        self.shape = shape
        self.storedValues = values
    }

    /// Creates an object from key-value pairs in order; for a duplicate key the last value wins,
    /// kept at the position of the key's first occurrence.
    public init(_ pairs: [(key: String, value: JSONValue)]) {
        self.init(keys: pairs.map(\.key), values: pairs.map(\.value))
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(keys: elements.map(\.0), values: elements.map(\.1))
    }

    /// Pairs `keys` with `values` (same count), resolving duplicate keys.
    init(keys: [String], values: [JSONValue]) {
        self.init(shape: ObjectKeys(keys), values: values)
    }

    /// Pairs a (possibly shared) key list with values (same count), resolving duplicate keys.
    init(shape: ObjectKeys, values: [JSONValue]) {
        if shape.hasDuplicates {
            var resolved = JSONObject()
            for (key, value) in zip(shape.keys, values) { resolved[key] = value }
            self = resolved
        } else {
            self = JSONObject(unchecked: shape, values: values)
        }
    }

    // MARK: - Access

    /// The value of member `key`, or `nil`. Setting `nil` removes the member; setting a new key
    /// appends it.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let i = shape.position(of: key) else { return nil }
            return storedValues[i]
        }
        set {
            if let i = shape.position(of: key) {
                if let newValue {
                    storedValues[i] = newValue
                } else {
                    uniqueShape().remove(at: i)
                    storedValues.remove(at: i)
                }
            } else if let newValue {
                uniqueShape().append(key)
                storedValues.append(newValue)
            }
        }
    }

    /// The keys in document order.
    public var keys: [String] { shape.keys }

    /// The values in document order.
    public var values: [JSONValue] { storedValues }

    public var count: Int { storedValues.count }
    public var isEmpty: Bool { storedValues.isEmpty }

    public func makeIterator() -> Iterator {
        Iterator(keys: shape.keys, values: storedValues)
    }

    public struct Iterator: IteratorProtocol {
        private let keys: [String]
        private let values: [JSONValue]
        private var index = 0

        init(keys: [String], values: [JSONValue]) {
            self.keys = keys
            self.values = values
        }

        public mutating func next() -> Element? {
            guard index < values.count else { return nil }
            defer { index += 1 }
            return (keys[index], values[index])
        }
    }

    public var underestimatedCount: Int { count }

    /// The key list, copied first if other objects share it.
    private mutating func uniqueShape() -> ObjectKeys {
        if !isKnownUniquelyReferenced(&shape) || shape === ObjectKeys.empty {
            shape = ObjectKeys(shape.keys)
        }
        return shape
    }

    // MARK: - Equality

    /// JSON equality: the same keys with equal values; member order is ignored.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.shape === rhs.shape { return lhs.storedValues == rhs.storedValues }
        for (i, key) in lhs.shape.keys.enumerated() {
            guard let other = rhs[key], other == lhs.storedValues[i] else { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent: combine per-member hashes commutatively.
        var combined = 0
        for member in self {
            var h = Hasher()
            h.combine(ExactKey(member.key))
            h.combine(member.value)
            combined ^= h.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}

/// The keys of one or more objects, in order, with a hash index above 8 keys.
///
/// `@unchecked Sendable`: an instance is mutated only through ``JSONObject``'s copy-on-write
/// (`uniqueShape()`), that is while exactly one object refers to it; shared instances (the
/// parser's, the empty one) are never mutated.
@usableFromInline
final class ObjectKeys: @unchecked Sendable {
    /// Above this many keys a hash index is kept.
    static let indexThreshold = 8
    static let empty = ObjectKeys([])

    private(set) var keys: [String]
    private var index: [ExactKey: Int]?
    /// Set when `keys` repeats a key; ``JSONObject`` then resolves the members itself.
    private(set) var hasDuplicates = false

    init(_ keys: [String]) {
        self.keys = keys
        if keys.count > ObjectKeys.indexThreshold {
            var built = [ExactKey: Int](minimumCapacity: keys.count)
            for (i, key) in keys.enumerated() where built.updateValue(i, forKey: ExactKey(key)) != nil {
                hasDuplicates = true
                return
            }
            index = built
        } else if keys.count > 1 {
            for i in 1..<keys.count {
                for j in 0..<i where exactlyEqual(keys[i], keys[j]) {
                    hasDuplicates = true
                    return
                }
            }
        }
    }

    func position(of key: String) -> Int? {
        if let index { return index[ExactKey(key)] }
        for i in keys.indices where exactlyEqual(keys[i], key) { return i }
        return nil
    }

    func append(_ key: String) {
        keys.append(key)
        if index != nil {
            index![ExactKey(key)] = keys.count - 1
        } else if keys.count > ObjectKeys.indexThreshold {
            rebuildIndex()
        }
    }

    func remove(at i: Int) {
        keys.remove(at: i)
        rebuildIndex()
    }

    private func rebuildIndex() {
        guard keys.count > ObjectKeys.indexThreshold else {
            index = nil
            return
        }
        var built = [ExactKey: Int](minimumCapacity: keys.count)
        for (i, key) in keys.enumerated() { built[ExactKey(key)] = i }
        index = built
    }
}

// MARK: - Exact string comparison

/// Equality on Unicode scalars (Swift's `==` on `String` uses canonical equivalence).
@inline(__always)
func exactlyEqual(_ a: String, _ b: String) -> Bool {
    // Lengths are O(1); canonically different strings cannot have equal bytes, and `==` is
    // fast when they differ.
    a.utf8.count == b.utf8.count && a == b && a.utf8.elementsEqual(b.utf8)
}

/// A dictionary key comparing strings by their exact UTF-8 bytes.
struct ExactKey: Hashable, Sendable {
    var string: String
    init(_ string: String) { self.string = string }

    static func == (lhs: ExactKey, rhs: ExactKey) -> Bool {
        exactlyEqual(lhs.string, rhs.string)
    }

    func hash(into hasher: inout Hasher) {
        let done: Void? = string.utf8.withContiguousStorageIfAvailable { buffer in
            hasher.combine(bytes: UnsafeRawBufferPointer(buffer))
        }
        if done == nil {
            for byte in string.utf8 { hasher.combine(byte) }
        }
    }
}
