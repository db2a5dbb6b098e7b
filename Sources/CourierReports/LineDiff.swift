import CourierDiagnostics

/// A unified-style line diff of an expected and an actual value, for failure
/// messages: `-` lines are expected, `+` lines actual, a few lines of context
/// around each change, `@@ -l,n +l,n @@` before each hunk.
///
/// ```
/// @@ -2,3 +2,3 @@
///    "id": 42,
/// -  "name": "Ada",
/// +  "name": "Grace",
///    "roles": [
/// ```
package enum LineDiff {
    /// Whether two values deserve a diff rather than one line each: either
    /// spans several lines or is too long to compare by eye.
    package static func isLong(_ expected: String, _ actual: String) -> Bool {
        expected.contains("\n") || actual.contains("\n") || expected.count > 60 || actual.count > 60
    }

    /// The hunks, or nil when the texts are equal or too large to diff
    /// (the values are then shown as they are).
    ///
    /// At most `maxOutputLines` lines are produced, then "… N more lines".
    /// `maxLines` bounds the input: the edit script takes time and memory
    /// proportional to the product of the two line counts.
    package static func unified(expected: String, actual: String, context: Int = 3, maxLines: Int = 2000,
                                maxOutputLines: Int = ShownText.diffLineLimit) -> String? {
        let a = lines(expected), b = lines(actual)
        guard a != b, a.count <= maxLines, b.count <= maxLines else { return nil }
        let ops = script(a, b)

        // Group the edit script into hunks with `context` lines around changes.
        var out: [String] = []
        var index = 0
        while index < ops.count {
            guard let firstChange = ops[index...].firstIndex(where: { !$0.isSame }) else { break }
            var start = max(index, firstChange - context)
            // Do not reuse context lines an earlier hunk already printed.
            if start < index { start = index }
            var end = firstChange
            var lastChange = firstChange
            while end < ops.count {
                if !ops[end].isSame { lastChange = end }
                if end - lastChange > 2 * context { break }
                end += 1
            }
            end = min(ops.count, lastChange + context + 1)
            let hunk = ops[start..<end]
            let oldStart = (hunk.first?.oldLine ?? 0), newStart = (hunk.first?.newLine ?? 0)
            let oldCount = hunk.filter { $0.kind != .insert }.count
            let newCount = hunk.filter { $0.kind != .delete }.count
            out.append("@@ -\(oldStart + (oldCount == 0 ? 0 : 1)),\(oldCount) +\(newStart + (newCount == 0 ? 0 : 1)),\(newCount) @@")
            for op in hunk {
                switch op.kind {
                case .same: out.append("  " + a[op.oldLine])
                case .delete: out.append("- " + a[op.oldLine])
                case .insert: out.append("+ " + b[op.newLine])
                }
            }
            index = end
        }
        if out.count > maxOutputLines {
            let more = out.count - maxOutputLines
            out.removeSubrange(maxOutputLines...)
            out.append("… \(more) more lines")
        }
        return out.joined(separator: "\n")
    }

    private static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
        }
    }

    private struct Op {
        enum Kind { case same, delete, insert }
        var kind: Kind
        /// 0-based positions; for an insert, `oldLine` is where it goes (and vice versa).
        var oldLine: Int
        var newLine: Int
        var isSame: Bool { kind == .same }
    }

    /// A shortest edit script by longest common subsequence (values here are
    /// at most a few thousand lines; common prefix and suffix are trimmed first).
    private static func script(_ a: [String], _ b: [String]) -> [Op] {
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        let x = Array(a[prefix..<(a.count - suffix)]), y = Array(b[prefix..<(b.count - suffix)])

        // lcs[i][j]: LCS length of x[i...] and y[j...].
        var lcs = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
        if !x.isEmpty && !y.isEmpty {
            for i in stride(from: x.count - 1, through: 0, by: -1) {
                for j in stride(from: y.count - 1, through: 0, by: -1) {
                    lcs[i][j] = x[i] == y[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
                }
            }
        }
        var ops: [Op] = (0..<prefix).map { Op(kind: .same, oldLine: $0, newLine: $0) }
        var i = 0, j = 0
        while i < x.count || j < y.count {
            if i < x.count, j < y.count, x[i] == y[j] {
                ops.append(Op(kind: .same, oldLine: prefix + i, newLine: prefix + j))
                i += 1; j += 1
            } else if j < y.count, i == x.count || lcs[i][j + 1] > lcs[i + 1][j] {
                ops.append(Op(kind: .insert, oldLine: prefix + i, newLine: prefix + j))
                j += 1
            } else {
                ops.append(Op(kind: .delete, oldLine: prefix + i, newLine: prefix + j))
                i += 1
            }
        }
        for k in 0..<suffix {
            ops.append(Op(kind: .same, oldLine: a.count - suffix + k, newLine: b.count - suffix + k))
        }
        return ops
    }
}
