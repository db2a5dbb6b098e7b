/// Header fields in the order they were given or received.
///
/// Names compare case-insensitively; order and repeated fields are kept because
/// reports show exactly what went over the wire.
///
/// ```swift
/// var headers: HTTPHeaders = ["Accept": "application/json"]
/// headers.add(name: "X-Trace", value: "1")
/// headers["accept"]  // "application/json"
/// ```
public struct HTTPHeaders: Sendable, Equatable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public private(set) var fields: [Field]

    public init(_ fields: [Field] = []) { self.fields = fields }

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    // A collection, not only a sequence: `map` and friends then size their result once
    // (mapping a Sequence grew it step by step, a visible cost on every response recorded).
    public var startIndex: Int { fields.startIndex }
    public var endIndex: Int { fields.endIndex }
    public subscript(position: Int) -> Field { fields[position] }
    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The first value of the field `name`, case-insensitively.
    public subscript(name: String) -> String? {
        // By index: `first(where:)` handed every field over as a copy (two strings retained).
        for index in fields.indices where fields[index].name.caseInsensitiveEquals(name) { return fields[index].value }
        return nil
    }

    /// Every value of the field `name`, in order (`Set-Cookie` comes several times).
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field `name` with one field, keeping the position of the first.
    public mutating func set(name: String, value: String) {
        if let index = fields.firstIndex(where: { $0.name.caseInsensitiveEquals(name) }) {
            fields[index] = Field(name: name, value: value)
            fields = fields.enumerated().filter { $0.offset == index || !$0.element.name.caseInsensitiveEquals(name) }.map(\.element)
        } else {
            add(name: name, value: value)
        }
    }

    public mutating func remove(name: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    /// A field holding CR, LF or NUL: libcurl copies it into the request as it is, so
    /// a value with a line break would add header lines (or a body) of its own. The
    /// value is never quoted: it may be a secret.
    package static func lineBreakProblem(_ field: HTTPHeaders.Field) -> HTTPError? {
        func breaks(_ text: String) -> Bool {
            text.utf8.contains { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") || $0 == 0 }
        }
        if breaks(field.name) {
            return HTTPError(kind: .invalidHeader, message: "a header name holds a line break or NUL; nothing was sent")
        }
        guard breaks(field.value) else { return nil }
        return HTTPError(kind: .invalidHeader,
                         message: "the value of the header '\(field.name)' holds a line break or NUL; nothing was sent",
                         hint: "a header field is one line (RFC 9110 §5.5): remove the line break, or send the value in the body")
    }
}

extension String {
    /// ASCII case-insensitive comparison, as HTTP field names need.
    package func caseInsensitiveEquals(_ other: String) -> Bool {
        // Lengths first, before the views are kept: most names compared differ in length.
        guard utf8.count == other.utf8.count else { return false }
        let a = utf8, b = other.utf8
        // Native strings hand over their bytes directly: the generic zip over two
        // UTF8Views cost more than the lookups that call this once per header.
        if let equal = a.withContiguousStorageIfAvailable({ x in
            b.withContiguousStorageIfAvailable { y in Self.asciiCaseInsensitiveEqual(x, y) }
        }), let equal { return equal }
        return zip(a, b).allSatisfy { x, y in Self.asciiCaseInsensitiveEqual(x, y) }
    }

    private static func asciiCaseInsensitiveEqual(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in 0..<x.count where !asciiCaseInsensitiveEqual(x[index], y[index]) { return false }
        return true
    }

    private static func asciiCaseInsensitiveEqual(_ x: UInt8, _ y: UInt8) -> Bool {
        x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A)
    }
}
