/// A JSON object: members in document order, with fast lookup by key.
///
/// Keys compare by their exact Unicode scalars (no normalization), as JSON requires: `"é"`
/// written precomposed and decomposed are two different keys.
///
/// **Duplicate keys: the last value wins, at the position of the first occurrence** (what
/// JavaScript's `JSON.parse` does). RFC 8259 leaves the behaviour open.
///
/// Small objects (up to 8 members) are searched linearly; larger ones carry a hash index.
///
/// ```swift
/// let object: JSONObject = ["id": 1, "name": "Ada"]
/// object["name"]   // .string("Ada")
/// object.keys      // ["id", "name"]
/// ```
public struct JSONObject: Sendable, Equatable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Element = (key: String, value: JSONValue)

    /// Above this many members a hash index is kept.
    static let indexThreshold = 8

    @usableFromInline var members: [Element]
    private var index: [ExactKey: Int]?

    public init() {
        members = []
        index = nil
    }

    /// Creates an object from key-value pairs in order; for a duplicate key the last value wins,
    /// kept at the position of the key's first occurrence.
    public init(_ pairs: [(key: String, value: JSONValue)]) {
        self.init(parsedMembers: pairs)
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(parsedMembers: elements.map { (key: $0.0, value: $0.1) })
    }

    /// Adopts `members` (as produced by the parser), resolving duplicate keys.
    init(parsedMembers: [Element]) {
        let count = parsedMembers.count
        if count > JSONObject.indexThreshold {
            var built = [ExactKey: Int](minimumCapacity: count)
            for i in 0..<count where built.updateValue(i, forKey: ExactKey(parsedMembers[i].key)) != nil {
                self = JSONObject.resolvingDuplicates(parsedMembers)
                return
            }
            members = parsedMembers
            index = built
            return
        }
        if count > 1 {
            for i in 1..<count {
                for j in 0..<i where exactlyEqual(parsedMembers[i].key, parsedMembers[j].key) {
                    self = JSONObject.resolvingDuplicates(parsedMembers)
                    return
                }
            }
        }
        members = parsedMembers
        index = nil
    }

    private static func resolvingDuplicates(_ pairs: [Element]) -> JSONObject {
        var object = JSONObject()
        object.members.reserveCapacity(pairs.count)
        for pair in pairs { object[pair.key] = pair.value }
        return object
    }

    // MARK: - Access

    /// The value of member `key`, or `nil`. Setting `nil` removes the member; setting a new key
    /// appends it.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let i = position(of: key) else { return nil }
            return members[i].value
        }
        set {
            if let i = position(of: key) {
                if let newValue {
                    members[i].value = newValue
                } else {
                    members.remove(at: i)
                    rebuildIndex()
                }
            } else if let newValue {
                members.append((key: key, value: newValue))
                if index != nil {
                    index![ExactKey(key)] = members.count - 1
                } else if members.count > JSONObject.indexThreshold {
                    rebuildIndex()
                }
            }
        }
    }

    /// The keys in document order.
    public var keys: [String] { members.map(\.key) }

    /// The values in document order.
    public var values: [JSONValue] { members.map(\.value) }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }

    public func makeIterator() -> IndexingIterator<[Element]> {
        members.makeIterator()
    }

    private func position(of key: String) -> Int? {
        if let index { return index[ExactKey(key)] }
        for i in members.indices where exactlyEqual(members[i].key, key) { return i }
        return nil
    }

    private mutating func rebuildIndex() {
        guard members.count > JSONObject.indexThreshold else {
            index = nil
            return
        }
        var built = [ExactKey: Int](minimumCapacity: members.count)
        for (i, member) in members.enumerated() { built[ExactKey(member.key)] = i }
        index = built
    }

    // MARK: - Equality

    /// JSON equality: the same keys with equal values; member order is ignored.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (i, member) in lhs.members.enumerated() {
            // Same order is the common case; fall back to lookup.
            if i < rhs.members.count, exactlyEqual(rhs.members[i].key, member.key) {
                if rhs.members[i].value != member.value { return false }
            } else {
                guard let other = rhs[member.key], other == member.value else { return false }
            }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent: combine per-member hashes commutatively.
        var combined = 0
        for member in members {
            var h = Hasher()
            h.combine(ExactKey(member.key))
            h.combine(member.value)
            combined ^= h.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}

// MARK: - Exact string comparison

/// Equality on Unicode scalars (Swift's `==` on `String` uses canonical equivalence).
@inline(__always)
func exactlyEqual(_ a: String, _ b: String) -> Bool {
    // Canonically different strings cannot have equal bytes, and `==` is fast when they differ.
    a == b && a.utf8.elementsEqual(b.utf8)
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
