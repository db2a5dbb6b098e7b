/// A location in a document, kept as a linked list while evaluating so that paths are only
/// rendered for the nodes a query returns.
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
    static func render(_ link: PathLink?) -> String {
        var steps: [PathLink.Step] = []
        var current = link
        while let node = current {
            steps.append(node.step)
            current = node.parent
        }
        var bytes: [UInt8] = [UInt8(ascii: "$")]
        bytes.reserveCapacity(steps.count * 12)
        for step in steps.reversed() {
            switch step {
            case .index(let i):
                bytes.append(UInt8(ascii: "["))
                bytes.append(contentsOf: String(i).utf8)
                bytes.append(UInt8(ascii: "]"))
            case .name(let name):
                bytes.append(UInt8(ascii: "["))
                bytes.append(UInt8(ascii: "'"))
                appendEscaped(name, to: &bytes)
                bytes.append(UInt8(ascii: "'"))
                bytes.append(UInt8(ascii: "]"))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
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
