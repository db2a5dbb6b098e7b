/// A location in a document, kept as a linked list by the segments before a query's last one,
/// so that nodes they select share their ancestors' links.
final class PathLink: Sendable {
    enum Step: Sendable {
        case name(String)
        case index(Int)
    }

    let parent: PathLink?
    let step: Step

    init(parent: PathLink?, step: Step) {
        self.parent = parent
        self.step = step
    }
}

/// Renders normalized paths (RFC 9535 §2.7): `$['name'][0]`.
enum NormalizedPath {
    /// The UTF-8 of the path `link` ends at (`$` for `nil`).
    static func bytes(_ link: PathLink?) -> [UInt8] {
        var steps: [PathLink.Step] = []
        var current = link
        while let node = current {
            steps.append(node.step)
            current = node.parent
        }
        var bytes: [UInt8] = [UInt8(ascii: "$")]
        bytes.reserveCapacity(steps.count * 12)
        for step in steps.reversed() { append(step, to: &bytes) }
        return bytes
    }

    /// Appends one step: `[0]` or `['name']`.
    static func append(_ step: PathLink.Step, to bytes: inout [UInt8]) {
        switch step {
        case .index(let i):
            bytes.append(UInt8(ascii: "["))
            appendDecimal(i, to: &bytes)
            bytes.append(UInt8(ascii: "]"))
        case .name(let name):
            bytes.append(UInt8(ascii: "["))
            bytes.append(UInt8(ascii: "'"))
            appendEscaped(name, to: &bytes)
            bytes.append(UInt8(ascii: "'"))
            bytes.append(UInt8(ascii: "]"))
        }
    }

    /// Array indexes are never negative; this writes the digits without building a String.
    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value < 0 {
            bytes.append(contentsOf: String(value).utf8)
            return
        }
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    private static func appendEscaped(_ name: String, to bytes: inout [UInt8]) {
        for b in name.utf8 {
            switch b {
            case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
            case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
            case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
            case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
            case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
            case UInt8(ascii: "'"): bytes.append(contentsOf: #"\'"#.utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case 0..<0x20:
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(contentsOf: hexString(UInt32(b), width: 2).lowercased().utf8)
            default:
                bytes.append(b)
            }
        }
    }
}

/// UTF-8 of rendered normalized paths, shared by the nodes of one nodelist: a path costs its
/// bytes in a 64 KiB block instead of a String allocation of its own.
///
/// Appended to only by the `PathWriter` of the `evaluate` call that created it, before any node
/// referring to it is returned; read-only afterwards.
final class PathBytes: @unchecked Sendable {
    fileprivate(set) var bytes: [UInt8]

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }
}

/// Where a node's normalized path is: a range of a `PathBytes`, or all of it when `count` is
/// `wholeStorage`.
struct PathLocation: Sendable {
    static let wholeStorage = UInt32.max

    let storage: PathBytes
    let offset: UInt32
    let count: UInt32

    init(_ path: String) {
        storage = PathBytes(Array(path.utf8))
        offset = 0
        count = Self.wholeStorage
    }

    fileprivate init(storage: PathBytes, offset: UInt32, count: UInt32) {
        self.storage = storage
        self.offset = offset
        self.count = count
    }

    func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        storage.bytes.withUnsafeBufferPointer { all in
            if count == Self.wholeStorage { return body(all) }
            return body(UnsafeBufferPointer(rebasing: all[Int(offset)..<Int(offset) + Int(count)]))
        }
    }

    var string: String {
        withUTF8 { String(decoding: $0, as: UTF8.self) }
    }

    static func == (lhs: PathLocation, rhs: PathLocation) -> Bool {
        lhs.withUTF8 { l in rhs.withUTF8 { r in l.elementsEqual(r) } }
    }
}

/// Copies rendered paths into `PathBytes` blocks for one nodelist.
struct PathWriter {
    static let blockSize = 1 << 16

    private var block: PathBytes?

    /// Stores `path` and returns where it is.
    mutating func store(_ path: ArraySlice<UInt8>) -> PathLocation {
        if path.count >= Self.blockSize / 4 {
            return PathLocation(storage: PathBytes(Array(path)), offset: 0, count: PathLocation.wholeStorage)
        }
        let current: PathBytes
        if let block, block.bytes.count + path.count <= Self.blockSize {
            current = block
        } else {
            current = PathBytes(capacity: Self.blockSize)
            block = current
        }
        let offset = current.bytes.count
        current.bytes.append(contentsOf: path)
        return PathLocation(storage: current, offset: UInt32(offset), count: UInt32(path.count))
    }
}
