/// `courier merge-reports`: JUnit or JSON reports, told apart by their content
/// (the first byte after a byte order mark and white space: `<` or `{`), not by
/// their names. All inputs must be of one kind: a merged report has one format.
package enum ReportMerge {
    package enum Kind: String, Sendable {
        case junit = "JUnit"
        case json = "JSON"
    }

    package static func kind(of bytes: [UInt8]) -> Kind? {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "<"): return .junit
        case UInt8(ascii: "{"): return .json
        default: return nil
        }
    }

    package static func merge(_ inputs: [JUnitMerge.Input]) -> JUnitMerge.Outcome {
        var problems: [JUnitMerge.Problem] = []
        var first: (path: String, kind: Kind)?
        for input in inputs {
            guard let kind = kind(of: input.bytes) else {
                problems.append(.init(file: input.path, line: nil, column: nil,
                                      message: "neither a JUnit (XML) nor a JSON report: it starts with neither '<' nor '{'"))
                continue
            }
            guard let first else {
                first = (input.path, kind)
                continue
            }
            if kind != first.kind {
                problems.append(.init(file: input.path, line: nil, column: nil,
                                      message: "a \(kind.rawValue) report among \(first.kind.rawValue) reports (as '\(first.path)' is): all inputs must be JUnit or all JSON"))
            }
        }
        guard problems.isEmpty else { return .invalid(problems) }
        return first?.kind == .json ? JSONMerge.merge(inputs) : JUnitMerge.merge(inputs)
    }
}
