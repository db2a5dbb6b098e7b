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
        var result = "$"
        for step in steps.reversed() {
            switch step {
            case .index(let i):
                result += "[\(i)]"
            case .name(let name):
                result += "['"
                appendEscaped(name, to: &result)
                result += "']"
            }
        }
        return result
    }

    private static func appendEscaped(_ name: String, to result: inout String) {
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\u{8}": result += "\\b"
            case "\u{C}": result += "\\f"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "'": result += "\\'"
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20:
                result += "\\u00" + hexString(scalar.value, width: 2).lowercased()
            default:
                result.unicodeScalars.append(scalar)
            }
        }
    }
}
