/// Lines and columns of byte offsets in one document, for messages that point into it.
///
/// One pass records, every ``blockSize`` bytes, how many lines started before and where
/// the line running through that point starts; an offset is then placed by scanning at
/// most one block. Counting from the document's start for every offset (a suite's line
/// for every suite, a workflow's line for every workflow) made a merge quadratic in its
/// input; a full table of line starts would cost a word per line, a large share of a
/// pretty-printed report.
package struct LineIndex: Sendable {
    private let bytes: [UInt8]
    /// For block `b` (bytes from `b * blockSize`): newlines before its first byte, and the
    /// offset where the line holding its first byte starts.
    private let newlinesBefore: [Int]
    private let lineStartBefore: [Int]
    private static let blockSize = 4096

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var newlines = 0, lineStart = 0
        var newlinesBefore: [Int] = [], lineStartBefore: [Int] = []
        newlinesBefore.reserveCapacity(bytes.count / Self.blockSize + 1)
        lineStartBefore.reserveCapacity(bytes.count / Self.blockSize + 1)
        for index in bytes.indices {
            if index % Self.blockSize == 0 {
                newlinesBefore.append(newlines)
                lineStartBefore.append(lineStart)
            }
            if bytes[index] == UInt8(ascii: "\n") {
                newlines += 1
                lineStart = index + 1
            }
        }
        if newlinesBefore.isEmpty {
            newlinesBefore.append(0)
            lineStartBefore.append(0)
        }
        self.newlinesBefore = newlinesBefore
        self.lineStartBefore = lineStartBefore
    }

    /// 1-based line and column (in bytes) of `offset`; an offset past the end is placed
    /// after the last byte.
    package func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
        let offset = max(0, offset)
        let block = min(offset / Self.blockSize, newlinesBefore.count - 1)
        var line = newlinesBefore[block] + 1, lineStart = lineStartBefore[block]
        var index = block * Self.blockSize
        while index < min(offset, bytes.count) {
            if bytes[index] == UInt8(ascii: "\n") {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        return (line, offset - lineStart + 1)
    }
}
