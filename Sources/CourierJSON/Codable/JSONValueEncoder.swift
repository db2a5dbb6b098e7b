#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An `Encoder` that builds a ``JSONValue`` directly, keeping object members in the order the
/// type encodes them (its declaration order for synthesized `Codable`), so the result is
/// deterministic, unlike a trip through `JSONEncoder`, whose key order varies between runs.
///
/// Matches `JSONEncoder`'s defaults where Foundation types need them: `Data` as Base64,
/// `URL` as its absolute string, `Decimal` as a number, `Date` through its own `Encodable`
/// (seconds since 2001). Non-finite floating-point values throw `EncodingError.invalidValue`.
struct JSONValueEncoder {
    var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    func encode(_ value: some Encodable) throws -> JSONValue {
        let node = EncodingNode()
        try node.store(value, codingPath: [], userInfo: userInfo)
        return node.finish()
    }
}

/// One value under construction. Containers hand out children that are filled in later,
/// hence a class.
private final class EncodingNode {
    enum Kind {
        case unset
        case value(JSONValue)
        case array([EncodingNode])
        case object(keys: [String], nodes: [EncodingNode])
    }

    var kind = Kind.unset

    func finish() -> JSONValue {
        switch kind {
        case .unset: return .object(JSONObject())
        case .value(let value): return value
        case .array(let nodes): return .array(nodes.map { $0.finish() })
        case .object(let keys, let nodes): return .object(JSONObject(keys: keys, values: nodes.map { $0.finish() }))
        }
    }

    /// The child for `key`, created at the end of the object or reused when the key repeats.
    func child(forKey key: String) -> EncodingNode {
        if case .unset = kind { kind = .object(keys: [], nodes: []) }
        guard case .object(var keys, var nodes) = kind else {
            // A type that mixes container kinds; like JSONEncoder, the last kind wins.
            let node = EncodingNode()
            kind = .object(keys: [key], nodes: [node])
            return node
        }
        if let i = keys.firstIndex(where: { exactlyEqual($0, key) }) { return nodes[i] }
        let node = EncodingNode()
        kind = .unset  // drop the references so appends below do not copy
        keys.append(key)
        nodes.append(node)
        kind = .object(keys: keys, nodes: nodes)
        return node
    }

    func appendChild() -> EncodingNode {
        if case .unset = kind { kind = .array([]) }
        guard case .array(var nodes) = kind else {
            let node = EncodingNode()
            kind = .array([node])
            return node
        }
        let node = EncodingNode()
        kind = .unset
        nodes.append(node)
        kind = .array(nodes)
        return node
    }

    var arrayCount: Int {
        if case .array(let nodes) = kind { return nodes.count }
        return 0
    }

    func store<T: Encodable>(_ value: T, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable]) throws {
        switch value {
        case let json as JSONValue:
            kind = .value(json)
        case let data as Data:
            kind = .value(.string(data.base64EncodedString()))
        case let url as URL:
            kind = .value(.string(url.absoluteString))
        case let decimal as Decimal:
            guard decimal.isFinite, let number = JSONNumber(text: "\(decimal)") else {
                throw EncodingError.invalidValue(decimal, .init(codingPath: codingPath, debugDescription: "\(decimal) is not a JSON number"))
            }
            kind = .value(.number(number))
        default:
            // A self-referencing or very deep Encodable would otherwise recurse until the stack ends.
            guard codingPath.count < NestingLimit.maxDepth else {
                throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "value \(NestingLimit.message)"))
            }
            try value.encode(to: NodeEncoder(node: self, codingPath: codingPath, userInfo: userInfo))
        }
    }
}

private struct NodeEncoder: Encoder, SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let userInfoStorage: [CodingUserInfoKey: any Sendable]

    init(node: EncodingNode, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable]) {
        self.node = node
        self.codingPath = codingPath
        self.userInfoStorage = userInfo
    }

    var userInfo: [CodingUserInfoKey: Any] { userInfoStorage }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .unset = node.kind { node.kind = .object(keys: [], nodes: []) }
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(node: node, codingPath: codingPath, userInfo: userInfoStorage))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .unset = node.kind { node.kind = .array([]) }
        return UnkeyedNodeContainer(node: node, codingPath: codingPath, userInfo: userInfoStorage)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    // MARK: Single value

    mutating func encodeNil() throws { node.kind = .value(.null) }
    mutating func encode(_ value: Bool) throws { node.kind = .value(.bool(value)) }
    mutating func encode(_ value: String) throws { node.kind = .value(.string(value)) }
    mutating func encode(_ value: Double) throws { node.kind = .value(try number(value)) }
    mutating func encode(_ value: Float) throws { node.kind = .value(try number(Double(value), original: value)) }
    mutating func encode(_ value: Int) throws { node.kind = .value(.number(JSONNumber(value))) }
    mutating func encode(_ value: Int8) throws { node.kind = .value(integer(value)) }
    mutating func encode(_ value: Int16) throws { node.kind = .value(integer(value)) }
    mutating func encode(_ value: Int32) throws { node.kind = .value(integer(value)) }
    mutating func encode(_ value: Int64) throws { node.kind = .value(integer(value)) }
    mutating func encode(_ value: UInt) throws { node.kind = .value(integer(value)) }
    mutating func encode(_ value: UInt8) throws { node.kind = .value(integer(value)) }
    mutating func encode(_ value: UInt16) throws { node.kind = .value(integer(value)) }
    mutating func encode(_ value: UInt32) throws { node.kind = .value(integer(value)) }
    mutating func encode(_ value: UInt64) throws { node.kind = .value(integer(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try node.store(value, codingPath: codingPath, userInfo: userInfoStorage)
    }

    private func integer(_ value: some BinaryInteger) -> JSONValue {
        .number(JSONNumber(uncheckedText: String(value)))
    }

    private func number(_ value: Double, original: (any Sendable)? = nil) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                original ?? value, .init(codingPath: codingPath, debugDescription: "\(value) cannot be written as a JSON number"))
        }
        return .number(JSONNumber(value))
    }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: any Sendable]

    private func encoder(for key: Key) -> NodeEncoder {
        NodeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key], userInfo: userInfo)
    }

    mutating func encodeNil(forKey key: Key) throws {
        var single = encoder(for: key)
        try single.encodeNil()
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        var single = encoder(for: key)
        try single.encode(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        encoder(for: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder(for: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let key = AnyCodingKey("super")
        return NodeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key], userInfo: userInfo)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder(for: key)
    }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: any Sendable]

    var count: Int { node.arrayCount }

    private func nextEncoder() -> NodeEncoder {
        let index = AnyCodingKey(index: count)
        return NodeEncoder(node: node.appendChild(), codingPath: codingPath + [index], userInfo: userInfo)
    }

    mutating func encodeNil() throws {
        var single = nextEncoder()
        try single.encodeNil()
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        var single = nextEncoder()
        try single.encode(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        nextEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        nextEncoder().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        nextEncoder()
    }
}
