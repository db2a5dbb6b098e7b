#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One key list seen by the parser: the keys on the path from the root, in order.
///
/// Objects whose keys follow the same path share the node's ``ObjectKeys``. The tree lives
/// only while one document is parsed. To stay cheap on documents used as dictionaries (every
/// object with different keys), a node stops growing after a few distinct next keys and key
/// lists stop after 64 keys; such objects keep their own keys.
final class ShapeNode {
    static let maxChildren = 8
    static let maxDepth = 64

    let key: String
    private let bytes: [UInt8]
    /// Unowned: the parent holds its children, and the parser holds the root for the whole
    /// parse; a strong link back made a cycle that leaked every tree.
    private unowned let parent: ShapeNode?
    private let depth: Int
    private var children: [ShapeNode] = []
    private var shared: ObjectKeys?

    init(key: String, bytes: [UInt8], parent: ShapeNode?) {
        self.key = key
        self.bytes = bytes
        self.parent = parent
        self.depth = (parent?.depth ?? -1) + 1
    }

    var canGrow: Bool { children.count < ShapeNode.maxChildren && depth < ShapeNode.maxDepth }

    @inline(__always)
    func child(matching key: UnsafeBufferPointer<UInt8>) -> ShapeNode? {
        for child in children where child.bytes.count == key.count {
            let equal = child.bytes.withUnsafeBufferPointer { own in
                key.count == 0 || memcmp(own.baseAddress!, key.baseAddress!, key.count) == 0
            }
            if equal { return child }
        }
        return nil
    }

    func addChild(_ key: String, bytes: UnsafeBufferPointer<UInt8>) -> ShapeNode {
        let child = ShapeNode(key: key, bytes: Array(bytes), parent: self)
        children.append(child)
        return child
    }

    /// The keys from the root to this node.
    func keyPath() -> [String] {
        var keys: [String] = []
        var node: ShapeNode? = self
        while let current = node, current.parent != nil {
            keys.append(current.key)
            node = current.parent
        }
        return keys.reversed()
    }

    /// The shared key list of objects ending here.
    func objectKeys() -> ObjectKeys {
        if let shared { return shared }
        let created = ObjectKeys(keyPath())
        shared = created
        return created
    }
}
